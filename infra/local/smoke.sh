#!/usr/bin/env bash
# End-to-end check of the running local services (from the env file written by up.sh):
# Kafka topic + produce/consume, OpenSearch index/get/search (custom analyzer, painless, delete_by_query),
# FerretDB insert/find/unique index/findAndModify/bulk.
#
#   bash infra/local/smoke.sh [kafka] [opensearch] [mongo]
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[[ -f "$ENV_FILE" ]] || die "$ENV_FILE not found: run bash infra/local/up.sh first"
set -a
# shellcheck source=/dev/null
. "$ENV_FILE"
set +a

opensearch_smoke() {
  local url="${OPENSEARCH_URL:?}" index
  index="catalog-infra-smoke-$(date +%s%N)"
  req() {
    local method="$1" path="$2" body="${3:-}" out
    if ! out="$(curl -sS --fail-with-body -X "$method" -H 'Content-Type: application/json' \
      ${body:+--data "$body"} "$url$path")"; then
      die "opensearch: $method $path failed: $out"
    fi
    printf '%s' "$out"
  }
  req PUT "/$index" '{
    "settings": {"number_of_shards": 1, "number_of_replicas": 0, "analysis": {
      "filter": {"edge": {"type": "edge_ngram", "min_gram": 2, "max_gram": 10}},
      "analyzer": {"prefix": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase", "edge"]}}}},
    "mappings": {"properties": {"urn": {"type": "keyword"},
      "name": {"type": "text", "analyzer": "prefix", "search_analyzer": "standard"},
      "count": {"type": "integer"}, "tags": {"type": "search_as_you_type"}}}}' >/dev/null
  req PUT "/$index/_doc/1?refresh=true" '{"urn": "urn:li:dataset:(urn:li:dataPlatform:hive,SampleTable,PROD)", "name": "SampleTable", "count": 1, "tags": "pii sensitive"}' >/dev/null
  req GET "/$index/_doc/1" | grep -q '"found":true' || die "opensearch: document not found"
  req POST "/$index/_search" '{"query": {"match": {"name": "samp"}}}' | grep -q '"value":1' ||
    die "opensearch: prefix search (analysis-common) found nothing"
  req POST "/$index/_update/1?refresh=true" '{"script": {"lang": "painless", "source": "ctx._source.count += params.n", "params": {"n": 41}}}' >/dev/null
  req GET "/$index/_doc/1" | grep -q '"count":42' || die "opensearch: painless update did not apply"
  req POST "/$index/_delete_by_query?refresh=true" '{"query": {"term": {"urn": "urn:li:dataset:(urn:li:dataPlatform:hive,SampleTable,PROD)"}}}' |
    grep -q '"deleted":1' || die "opensearch: delete_by_query (reindex module) deleted nothing"
  req DELETE "/$index" >/dev/null
  echo "opensearch ok: index/get/search with an edge_ngram analyzer, painless update, delete_by_query on $url"
}

parse_services "$@"
for svc in "${SERVICES[@]}"; do
  case "$svc" in
    kafka) node "$INFRA_DIR/probe.mjs" smoke-kafka "${KAFKA_BOOTSTRAP_SERVER:?not running}" ;;
    opensearch) opensearch_smoke ;;
    mongo) node "$INFRA_DIR/probe.mjs" smoke-mongo "${MONGODB_URI:?not running}" ;;
  esac
done
