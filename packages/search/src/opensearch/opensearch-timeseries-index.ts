import type { Client, Types } from '@opensearch-project/opensearch';
import { matchesFilter } from '../matches-filter.js';
import type {
  TimeseriesDeletion,
  TimeseriesDocument,
  TimeseriesIndex,
  TimeseriesQuery,
  TimeseriesRunGroup,
} from '../port.js';
import { timeseriesRunIdOf } from '../timeseries-document-id.js';
import type { AliasedIndices } from './aliased-index.js';
import { runBulk, type BulkOperation, type RefreshPolicy } from './bulk-writer.js';
import type { IndexShape } from './entity-mappings.js';
import type { Query } from './filter-query.js';
import { documentId, type IndexNames } from './index-names.js';
import { asNumber, asObject, asString, isObject, type JsonObject } from './narrow.js';
import { hitsOf } from './read-context.js';

export interface TimeseriesIndexParts {
  readonly client: Client;
  readonly names: IndexNames;
  readonly indices: AliasedIndices;
  readonly refresh: RefreshPolicy;
  readonly shape: IndexShape;
}

/** Documents read per round while a filter is applied to the values. */
const ROUND = 500;
/** (entityType, aspect, urn) groups read per composite-aggregation round when listing a run's documents. */
const GROUPS_PER_ROUND = 1_000;
const absent = { ignore_unavailable: true, allow_no_indices: true } as const;
const keyword = { type: 'keyword' } as const;
/** How long backfillRunIds waits for its update_by_query: one hour. */
const BACKFILL_TIMEOUT_MS = 60 * 60 * 1000;
/** The run id of a document without one, as timeseriesRunIdOf reads it: a non-empty string, else none. */
const BACKFILL_RUN_ID_SCRIPT = `
  def sm = ctx._source.systemMetadata;
  def runId = sm instanceof Map ? sm.get('runId') : null;
  if (runId instanceof String && !runId.isEmpty()) { ctx._source.runId = runId; } else { ctx.op = 'noop'; }
`;

/**
 * Time-series aspect values in one index per (entity, aspect), `<prefix_><entity>_<aspect>aspect_v1`.
 * The value and system metadata are kept as given and not indexed, but for the run id (systemMetadata.runId,
 * copied to the keyword `runId`; an index made before it gets the field by a put-mapping on ensure, its
 * older documents by backfillRunIds, which system-update runs); a filter on the value's top-level
 * fields is applied to the documents read (matchesFilter, the reference semantics), newest first,
 * reading further rounds until the limit is reached.
 */
export class OpenSearchTimeseriesIndex implements TimeseriesIndex {
  private readonly ensured = new Set<string>();

  constructor(private readonly parts: TimeseriesIndexParts) {}

  async ensure(entityType: string, aspect: string): Promise<void> {
    const alias = this.parts.names.timeseries(entityType, aspect);
    await this.parts.indices.ensure(alias, {
      settings: { number_of_shards: this.parts.shape.shards, number_of_replicas: this.parts.shape.replicas },
      mappings: {
        dynamic: false,
        properties: {
          id: keyword,
          urn: keyword,
          entityType: keyword,
          aspect: keyword,
          timestampMillis: { type: 'date', format: 'epoch_millis' },
          runId: keyword,
          value: { type: 'object', enabled: false },
          systemMetadata: { type: 'object', enabled: false },
        },
      },
    });
    this.ensured.add(alias);
  }

  async upsert(documents: readonly TimeseriesDocument[]): Promise<void> {
    const operations: BulkOperation[] = [];
    for (const document of documents) {
      const alias = this.parts.names.timeseries(document.entityType, document.aspect);
      if (!this.ensured.has(alias)) await this.ensure(document.entityType, document.aspect);
      const runId = timeseriesRunIdOf(document.systemMetadata);
      operations.push({
        action: 'index',
        index: alias,
        id: documentId(document.id),
        document: { ...document, ...(runId === undefined ? {} : { runId }) },
      });
    }
    await runBulk(this.parts.client, operations, this.parts.refresh);
  }

  async query(query: TimeseriesQuery): Promise<readonly TimeseriesDocument[]> {
    if (query.limit <= 0) return [];
    const range: Record<string, number> = {};
    if (query.startTimeMillis !== undefined) range['gte'] = query.startTimeMillis;
    if (query.endTimeMillis !== undefined) range['lte'] = query.endTimeMillis;
    const filter: Query[] = query.urn === undefined ? [] : [{ term: { urn: query.urn } }];
    if (Object.keys(range).length > 0) filter.push({ range: { timestampMillis: range } });
    const filtered = query.filter !== undefined && query.filter.or.length > 0;
    const found: TimeseriesDocument[] = [];
    let after: Types.Common.SortResults | undefined =
      query.after === undefined ? undefined : [query.after.timestampMillis, query.after.id];
    while (found.length < query.limit) {
      const size = filtered ? Math.max(ROUND, query.limit) : Math.min(query.limit - found.length, 10_000);
      const response = await this.parts.client.search({
        index: this.parts.names.timeseries(query.entityType, query.aspect),
        ignore_unavailable: true,
        body: {
          query: { bool: { filter } },
          size,
          sort: [{ timestampMillis: { order: 'desc' } }, { id: { order: 'asc' } }],
          ...(after ? { search_after: after } : {}),
        },
      });
      const { list } = hitsOf(response.body);
      for (const hit of list) {
        const document = decode(hit['_source']);
        if (!filtered || matchesFilter(query.filter, (field) => topLevelValues(document.value, field)))
          found.push(document);
        if (found.length >= query.limit) break;
      }
      const last = list[list.length - 1];
      const sort = last?.['sort'];
      if (list.length < size || !Array.isArray(sort)) break;
      after = sort.filter(isSortValue);
    }
    return found;
  }

  /**
   * A delete_by_query of the urn's documents in the range. It reads a refreshed view, so the index is
   * refreshed first (documents upserted just before, under refresh 'false', are deleted too), and it
   * refreshes after, so a read that follows does not find what it deleted, whatever the refresh policy
   * of writes. A document rewritten while the query runs (a version conflict) is left as rewritten,
   * not failed on: conflicts=proceed. An index not created yet holds nothing to delete.
   */
  async delete(deletion: TimeseriesDeletion): Promise<number> {
    const index = this.parts.names.timeseries(deletion.entityType, deletion.aspect);
    const filter = rangeFilter(deletion);
    await this.parts.client.indices.refresh({ index, ...absent });
    const response = await this.parts.client.deleteByQuery({
      index,
      ...absent,
      conflicts: 'proceed',
      refresh: true,
      body: { query: { bool: { filter } } },
    });
    const body = asObject(response.body, 'delete_by_query response');
    const failures = body['failures'];
    if (body['timed_out'] === true || (Array.isArray(failures) && failures.length > 0)) {
      throw new Error(
        `OpenSearch delete_by_query on ${index} for ${deletion.urn} failed: ` +
          JSON.stringify(body['timed_out'] === true ? { timed_out: true } : failures).slice(0, 1000),
      );
    }
    return typeof body['deleted'] === 'number' ? body['deleted'] : 0;
  }

  /** A `_count` of the urn's documents in the range, on a refreshed view (as delete reads one). */
  async count(range: TimeseriesDeletion): Promise<number> {
    const index = this.parts.names.timeseries(range.entityType, range.aspect);
    await this.parts.client.indices.refresh({ index, ...absent });
    const response = await this.parts.client.count({
      index,
      ...absent,
      body: { query: { bool: { filter: rangeFilter(range) } } },
    });
    const body = asObject(response.body, 'count response');
    return typeof body['count'] === 'number' ? body['count'] : 0;
  }

  /**
   * A composite aggregation on (entityType, aspect, urn) of the run's documents over every time-series
   * index of the prefix, a round at a time, on a refreshed view.
   */
  async runGroups(runId: string): Promise<readonly TimeseriesRunGroup[]> {
    const index = this.parts.names.timeseries('*', '*');
    await this.parts.client.indices.refresh({ index, ...absent });
    const groups: TimeseriesRunGroup[] = [];
    let after: Record<string, unknown> | undefined;
    for (;;) {
      const response = await this.parts.client.search({
        index,
        ...absent,
        body: {
          size: 0,
          query: { bool: { filter: [{ term: { runId } }] } },
          aggs: {
            groups: {
              composite: {
                size: GROUPS_PER_ROUND,
                sources: [
                  { entityType: { terms: { field: 'entityType' } } },
                  { aspect: { terms: { field: 'aspect' } } },
                  { urn: { terms: { field: 'urn' } } },
                ],
                ...(after ? { after } : {}),
              },
            },
          } as Record<string, Types.Common_Aggregations.AggregationContainer>,
        },
      });
      const body = asObject(response.body, 'search response');
      const aggregations = isObject(body['aggregations']) ? body['aggregations'] : {};
      const composite = isObject(aggregations['groups']) ? aggregations['groups'] : {};
      const buckets = Array.isArray(composite['buckets']) ? composite['buckets'] : [];
      for (const bucket of buckets) {
        const b = asObject(bucket, 'composite bucket');
        const key = asObject(b['key'], 'composite key');
        groups.push({
          entityType: asString(key['entityType'], 'entityType'),
          aspect: asString(key['aspect'], 'aspect'),
          urn: asString(key['urn'], 'urn'),
          count: asNumber(b['doc_count'], 'doc_count'),
        });
      }
      const afterKey = composite['after_key'];
      if (buckets.length < GROUPS_PER_ROUND || !isObject(afterKey)) break;
      after = afterKey;
    }
    return groups;
  }

  /** A `_count` of the run's documents over every time-series index of the prefix, refreshed first. */
  async countRun(runId: string): Promise<number> {
    const index = this.parts.names.timeseries('*', '*');
    await this.parts.client.indices.refresh({ index, ...absent });
    const response = await this.parts.client.count({
      index,
      ...absent,
      body: { query: { bool: { filter: [{ term: { runId } }] } } },
    });
    const body = asObject(response.body, 'count response');
    return typeof body['count'] === 'number' ? body['count'] : 0;
  }

  /** A delete_by_query of the run's documents over every time-series index, refreshed before and after. */
  async deleteRun(runId: string): Promise<number> {
    const index = this.parts.names.timeseries('*', '*');
    await this.parts.client.indices.refresh({ index, ...absent });
    const response = await this.parts.client.deleteByQuery({
      index,
      ...absent,
      conflicts: 'proceed',
      refresh: true,
      body: { query: { bool: { filter: [{ term: { runId } }] } } },
    });
    const body = asObject(response.body, 'delete_by_query response');
    const failures = body['failures'];
    if (body['timed_out'] === true || (Array.isArray(failures) && failures.length > 0)) {
      throw new Error(
        `OpenSearch delete_by_query on ${index} for run ${runId} failed: ` +
          JSON.stringify(body['timed_out'] === true ? { timed_out: true } : failures).slice(0, 1000),
      );
    }
    return typeof body['deleted'] === 'number' ? body['deleted'] : 0;
  }

  /**
   * An update_by_query over every time-series index of the prefix, of the documents without `runId`
   * (indexed before it was kept): a painless script copies systemMetadata.runId when it is a non-empty
   * string (timeseriesRunIdOf, as upsert writes it) and leaves the others untouched (noop). The indices
   * get the `runId` mapping first (ensure adds it to the registry's, this to any other index of the
   * prefix), so the copied value is indexed. Documents rewritten meanwhile are left as rewritten
   * (conflicts=proceed); refreshed after, so countRun and runGroups find them at once.
   */
  async backfillRunIds(): Promise<number> {
    const index = this.parts.names.timeseries('*', '*');
    if ((await this.parts.indices.concreteIndices(index)).length === 0) return 0;
    await this.parts.client.indices.putMapping({
      index,
      ...absent,
      body: { properties: { runId: keyword } },
    });
    const response = await this.parts.client.updateByQuery(
      {
        index,
        ...absent,
        conflicts: 'proceed',
        refresh: true,
        wait_for_completion: true,
        body: {
          query: { bool: { must_not: [{ exists: { field: 'runId' } }] } },
          script: { lang: 'painless', source: BACKFILL_RUN_ID_SCRIPT },
        },
      },
      // It visits every document without a run id (no request timeout of its own: it may take long).
      { requestTimeout: BACKFILL_TIMEOUT_MS },
    );
    const body = asObject(response.body, 'update_by_query response');
    const failures = body['failures'];
    if (body['timed_out'] === true || (Array.isArray(failures) && failures.length > 0)) {
      throw new Error(
        `OpenSearch update_by_query on ${index} backfilling run ids failed: ` +
          JSON.stringify(body['timed_out'] === true ? { timed_out: true } : failures).slice(0, 1000),
      );
    }
    return typeof body['updated'] === 'number' ? body['updated'] : 0;
  }

  async refresh(): Promise<void> {
    await this.parts.client.indices.refresh({
      index: this.parts.names.timeseries('*', '*'),
      allow_no_indices: true,
      ignore_unavailable: true,
    });
  }

  async close(): Promise<void> {
    // The client is shared; openOpenSearch's close() ends it.
  }
}

/**
 * The urn's documents whose timestampMillis is in the inclusive range (an absent bound open), of the run
 * when one is given.
 */
function rangeFilter(range: TimeseriesDeletion): Query[] {
  const bounds: Record<string, number> = {};
  if (range.startTimeMillis !== undefined) bounds['gte'] = range.startTimeMillis;
  if (range.endTimeMillis !== undefined) bounds['lte'] = range.endTimeMillis;
  const filter: Query[] = [{ term: { urn: range.urn } }];
  if (Object.keys(bounds).length > 0) filter.push({ range: { timestampMillis: bounds } });
  if (range.runId !== undefined) filter.push({ term: { runId: range.runId } });
  return filter;
}

function topLevelValues(value: Readonly<Record<string, unknown>>, field: string): readonly unknown[] {
  const found = value[field];
  if (found === undefined || found === null) return [];
  return Array.isArray(found) ? found : [found];
}

function decode(source: unknown): TimeseriesDocument {
  const stored = asObject(source, 'time-series document');
  const systemMetadata = stored['systemMetadata'];
  return {
    entityType: asString(stored['entityType'], 'entityType'),
    aspect: asString(stored['aspect'], 'aspect'),
    urn: asString(stored['urn'], 'urn'),
    timestampMillis: asNumber(stored['timestampMillis'], 'timestampMillis'),
    id: asString(stored['id'], 'id'),
    value: asObject(stored['value'], 'value') as JsonObject,
    ...(isObject(systemMetadata) ? { systemMetadata } : {}),
  };
}

function isSortValue(value: unknown): value is Types.Common.FieldValue {
  return (
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null
  );
}
