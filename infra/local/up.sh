#!/usr/bin/env bash
# Starts Apache Kafka, OpenSearch and FerretDB (MongoDB wire) natively on 127.0.0.1, without Docker.
#
#   bash infra/local/up.sh [kafka] [opensearch] [mongo]     (default: all three; `pnpm infra:up`)
#
# Idempotent: a running service is left alone. Prints the service URLs on stdout and writes them to
# ${CATALOG_INFRA_STATE:-/tmp/catalog-infra}/env. See infra/local/README.md.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=kafka.sh
source "$INFRA_DIR/kafka.sh"
# shellcheck source=opensearch.sh
source "$INFRA_DIR/opensearch.sh"
# shellcheck source=mongo.sh
source "$INFRA_DIR/mongo.sh"

requested_port() {
  case "$1" in
    kafka) echo "$KAFKA_PORT" ;;
    opensearch) echo "$OPENSEARCH_PORT" ;;
    mongo) echo "$MONGO_PORT" ;;
  esac
}

# install -> start -> wait for readiness, for one service. Runs in a background subshell.
service_up() {
  local svc="$1" started=$SECONDS pid port
  if pid="$(service_pid "$svc")"; then
    port="$(saved_port "$svc" || requested_port "$svc")"
    if [[ "$port" != "$(requested_port "$svc")" ]]; then
      log "$svc: WARNING: already running on port $port, not on the requested $(requested_port "$svc") (run down first)"
    fi
    if "${svc}_wait"; then
      log "$svc: already running (pid $pid, port $port), OK"
      return 0
    fi
    log "$svc: running (pid $pid) but not answering"
    return 1
  fi
  rm -f "$(pid_file "$svc")" "$RUN_DIR/$svc.port"
  "${svc}_install"
  "${svc}_start"
  if ! "${svc}_wait"; then
    if pid="$(service_pid "$svc")"; then
      log "$svc: not ready within ${READY_TIMEOUT}s, stopping it"
      stop_pid "$svc" "$pid" 10
    else
      log "$svc: the process exited"
    fi
    rm -f "$(pid_file "$svc")" "$RUN_DIR/$svc.port"
    return 1
  fi
  log "$svc: ready in $((SECONDS - started))s (pid $(service_pid "$svc"))"
}

report_failure() {
  local svc="$1" file shown=0
  log "$svc: FAILED. Logs:"
  while read -r file; do
    [[ -e "$file" ]] && log "  $file"
  done < <(service_logs "$svc")
  while read -r file; do
    if [[ -s "$file" ]] && ((shown == 0)); then
      printf -- '----- last lines of %s -----\n' "$file" >&2
      tail -n 40 "$file" >&2
      shown=1
    fi
  done < <(service_logs "$svc")
}

main() {
  parse_services "$@"
  mkdir -p "$CACHE_DIR"
  ensure_state_dir
  exec 8>"$STATE_DIR.lock"
  flock -w 900 8 || die "another up/down holds $STATE_DIR.lock"

  local svc pids=() failed=()
  trap 'log "interrupted; services already started keep running (bash infra/local/down.sh stops them)"; kill "${pids[@]}" 2>/dev/null; exit 130' INT TERM
  log "state: $STATE_DIR  cache: $CACHE_DIR  services: ${SERVICES[*]}"
  for svc in "${SERVICES[@]}"; do
    mkdir -p "$STATE_DIR/$svc/logs"
    service_up "$svc" &
    pids+=($!)
  done
  local i
  for i in "${!SERVICES[@]}"; do
    wait "${pids[$i]}" || failed+=("${SERVICES[$i]}")
  done
  trap - INT TERM

  write_env_file
  if ((${#failed[@]} > 0)); then
    for svc in "${failed[@]}"; do report_failure "$svc"; done
    die "not started: ${failed[*]} (after ${SECONDS}s)"
  fi
  log "all up in ${SECONDS}s; environment in $ENV_FILE (set -a; . $ENV_FILE; set +a)"
  cat "$ENV_FILE"
}

main "$@"
