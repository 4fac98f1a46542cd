import type { Client, Types } from '@opensearch-project/opensearch';
import {
  AUDIT_TOTAL_CAP,
  type AuditCount,
  type AuditCountField,
  type AuditCountQuery,
  type AuditEvent,
  type AuditIndex,
  type AuditPage,
  type AuditQuery,
} from '../audit/audit-index.js';
import {
  auditDayOf,
  auditDayStart,
  cursorOf,
  dayExpired,
  DEFAULT_AUDIT_RETENTION_DAYS,
  normalizeAuditQuery,
  validateAuditEvent,
} from '../audit/audit-partitions.js';
import { AuditCounter, normalizeAuditCountQuery } from '../audit/audit-counts.js';
import { runBulk, type BulkOperation, type RefreshPolicy } from './bulk-writer.js';
import type { IndexShape } from './entity-mappings.js';
import type { Query } from './filter-query.js';
import { documentId } from './index-names.js';
import { asArray, asNumber, asObject, asString, isObject, totalHits } from './narrow.js';
import { aggregationsOf, bucketsOf, hitsOf } from './read-context.js';

export interface AuditIndexParts {
  readonly client: Client;
  /** INDEX_PREFIX, as OpenSearchOptions.indexPrefix: empty for none. */
  readonly indexPrefix: string;
  readonly refresh: RefreshPolicy;
  readonly shape: IndexShape;
  /** Days an event is kept for (applyRetention); 0 or negative keeps events forever. Default 90. */
  readonly retentionDays?: number;
}

const BASE = 'datahub_usage_event';
/** Buckets read per round of a count's composite aggregation. */
const COUNT_PAGE = 1_000;
/** The document field of each field counts group by. */
const COUNT_FIELDS: Readonly<Record<AuditCountField, string>> = {
  eventType: 'type',
  actorUrn: 'actorUrn',
  entityType: 'entityType',
  aspectName: 'aspectName',
};
const keyword = { type: 'keyword' } as const;
const mappings: Types.Common_Mapping.TypeMapping = {
  dynamic: false,
  properties: {
    id: keyword,
    type: keyword,
    timestamp: { type: 'date', format: 'epoch_millis' },
    '@timestamp': { type: 'date', format: 'epoch_millis' },
    actorUrn: keyword,
    entityUrn: keyword,
    entityType: keyword,
    aspectName: keyword,
    eventSource: keyword,
    sourceIP: keyword,
    userAgent: keyword,
    loginSource: keyword,
    traceId: keyword,
    loginDenialReason: keyword,
    usageSource: keyword,
    rawUsageEvent: { type: 'object', enabled: false },
  },
};

/** `<prefix_>datahub_usage_event`: the name of the day indices' template. */
export function auditTemplateName(indexPrefix: string): string {
  return indexPrefix === '' ? BASE : `${indexPrefix}_${BASE}`;
}

/** `<prefix_>datahub_usage_event_<yyyy.mm.dd>`: the index of one UTC day. */
export function auditIndexName(indexPrefix: string, day: string): string {
  return `${auditTemplateName(indexPrefix)}_${day}`;
}

/** `<prefix_>datahub_usage_event_*`: every day index, what a search spans. */
export function auditIndexPattern(indexPrefix: string): string {
  return `${auditTemplateName(indexPrefix)}_*`;
}

/**
 * Audit events in one index per UTC day of their timestamps, `<prefix_>datahub_usage_event_<yyyy.mm.dd>`,
 * created with the mapping (and matched by an index template holding it, so an index created behind our
 * back gets it too), searched through the pattern; retention deletes whole day indices. Documents keep
 * the stored keys of the usage-event index (`type`, `timestamp`, `actorUrn`, `traceId`, ...,
 * `usageSource: "backend"`), the event id as `_id` and as the keyword `id` (the tie-break of the sort),
 * and `rawUsageEvent` stored, not indexed.
 */
export class OpenSearchAuditIndex implements AuditIndex {
  private readonly ensuredDays = new Set<string>();
  private templated = false;
  private readonly retentionDays: number;

  constructor(private readonly parts: AuditIndexParts) {
    this.retentionDays = parts.retentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS;
  }

  async ensure(): Promise<void> {
    await this.parts.client.indices.putIndexTemplate({
      name: auditTemplateName(this.parts.indexPrefix),
      body: {
        index_patterns: [auditIndexPattern(this.parts.indexPrefix)],
        priority: 100,
        template: { settings: this.settings(), mappings },
      },
    });
    this.templated = true;
  }

  async write(events: readonly AuditEvent[]): Promise<void> {
    for (const event of events) validateAuditEvent(event);
    if (events.length === 0) return;
    if (!this.templated) await this.ensure();
    const operations: BulkOperation[] = [];
    for (const event of events) {
      const day = auditDayOf(event.timestamp);
      if (!this.ensuredDays.has(day)) await this.ensureDay(day);
      operations.push({
        action: 'index',
        index: auditIndexName(this.parts.indexPrefix, day),
        id: documentId(event.id),
        document: encode(event),
      });
    }
    await runBulk(this.parts.client, operations, this.parts.refresh);
  }

  async search(query: AuditQuery): Promise<AuditPage> {
    const q = normalizeAuditQuery(query);
    if (q.startTime >= q.endTime) return { events: [], total: 0 };
    const filter: Query[] = [
      { range: { timestamp: { gte: q.startTime, lt: q.endTime } } },
      { term: { usageSource: 'backend' } },
    ];
    const terms = (field: string, values: readonly string[]) => {
      if (values.length > 0) filter.push({ terms: { [field]: [...values] } });
    };
    terms('type', q.eventTypes);
    terms('entityType', q.entityTypes);
    terms('aspectName', q.aspectTypes);
    terms('actorUrn', q.actorUrns);
    const sort: Types.Common.Sort = [{ timestamp: { order: 'desc' } }, { id: { order: 'desc' } }];
    const search = async (size: number, after: Types.Common.SortResults | undefined) =>
      this.parts.client.search({
        index: auditIndexPattern(this.parts.indexPrefix),
        ignore_unavailable: true,
        allow_no_indices: true,
        body: {
          query: { bool: { filter } },
          size,
          sort,
          track_total_hits: AUDIT_TOTAL_CAP,
          ...(after === undefined ? {} : { search_after: after }),
        },
      });
    const after = q.after === undefined ? undefined : [q.after.timestamp, q.after.id];
    // One more than the page tells whether more remain; a page of the window's size probes apart.
    const fetched = Math.min(q.size + 1, AUDIT_TOTAL_CAP);
    const { hits, list } = hitsOf((await search(fetched, after)).body);
    const events = list.slice(0, q.size).map((hit) => decode(hit['_source']));
    let more = list.length > q.size;
    const last = events[events.length - 1];
    if (!more && q.size > 0 && list.length === fetched && last !== undefined) {
      more = hitsOf((await search(1, [last.timestamp, last.id])).body).list.length > 0;
    }
    const total = Math.min(totalHits(hits), AUDIT_TOTAL_CAP);
    return { events, total, ...(more && last !== undefined ? { next: cursorOf(last) } : {}) };
  }

  /**
   * A composite aggregation over the groups (the calendar interval in UTC, the fields with a bucket for
   * a missing value, and the actor when distinct actors are counted), read in rounds until every bucket
   * is seen: exact, where a cardinality aggregation would estimate. AuditCounter gathers the buckets.
   */
  async count(query: AuditCountQuery): Promise<readonly AuditCount[]> {
    const q = normalizeAuditCountQuery(query);
    if (q.startTime >= q.endTime) return [];
    const filter: Query[] = [
      { range: { timestamp: { gte: q.startTime, lt: q.endTime } } },
      { term: { usageSource: 'backend' } },
    ];
    if (q.eventTypes.length > 0) filter.push({ terms: { type: [...q.eventTypes] } });
    const must_not: Query[] =
      q.excludeActorUrns.length > 0 ? [{ terms: { actorUrn: [...q.excludeActorUrns] } }] : [];
    const sources: Record<string, unknown>[] = [];
    if (q.interval !== undefined)
      sources.push({
        interval: {
          date_histogram: {
            field: 'timestamp',
            calendar_interval: q.interval.toLowerCase(),
            time_zone: 'UTC',
          },
        },
      });
    q.groupBy.forEach((field, i) =>
      sources.push({ [`g${i}`]: { terms: { field: COUNT_FIELDS[field], missing_bucket: true } } }),
    );
    if (q.distinct !== undefined) sources.push({ actor: { terms: { field: 'actorUrn' } } });
    const counter = new AuditCounter(q);
    const search = (body: Record<string, unknown>) =>
      this.parts.client.search({
        index: auditIndexPattern(this.parts.indexPrefix),
        ignore_unavailable: true,
        allow_no_indices: true,
        body: { size: 0, query: { bool: { filter, must_not } }, ...body },
      });
    if (sources.length === 0) {
      const { hits } = hitsOf((await search({ track_total_hits: true })).body);
      counter.add(undefined, [], totalHits(hits));
      return counter.result();
    }
    let after: unknown;
    do {
      const response = await search({
        aggregations: {
          groups: {
            composite: { size: COUNT_PAGE, sources, ...(after === undefined ? {} : { after }) },
          } as Types.Common_Aggregations.AggregationContainer,
        },
      });
      const aggregation = aggregationsOf(response.body)['groups'];
      if (aggregation === undefined) break;
      const buckets = bucketsOf(aggregation, 'audit count groups');
      for (const bucket of buckets) {
        const key = asObject(bucket['key'], 'audit count key');
        const values = q.groupBy.map((_, i) => {
          const value = key[`g${i}`];
          return typeof value === 'string' ? value : null;
        });
        const intervalStart = q.interval === undefined ? undefined : asNumber(key['interval'], 'interval');
        const actor = q.distinct === undefined ? undefined : asString(key['actor'], 'actor');
        counter.add(intervalStart, values, asNumber(bucket['doc_count'], 'doc_count'), actor);
      }
      after = buckets.length < COUNT_PAGE ? undefined : asObject(aggregation, 'groups')['after_key'];
    } while (after !== undefined);
    return counter.result();
  }

  async refresh(): Promise<void> {
    await this.parts.client.indices.refresh({
      index: auditIndexPattern(this.parts.indexPrefix),
      allow_no_indices: true,
      ignore_unavailable: true,
    });
  }

  async applyRetention(now: number = Date.now()): Promise<number> {
    const response = await this.parts.client.cat.indices({
      index: auditIndexPattern(this.parts.indexPrefix),
      format: 'json',
      h: ['index'],
      expand_wildcards: 'all',
    });
    const head = `${auditTemplateName(this.parts.indexPrefix)}_`;
    const expired: string[] = [];
    for (const row of asArray(response.body, 'cat indices')) {
      const index = asString(asObject(row, 'cat indices row')['index'], 'index');
      if (!index.startsWith(head)) continue;
      const day = index.slice(head.length);
      const dayStart = auditDayStart(day);
      if (dayStart !== undefined && dayExpired(dayStart, now, this.retentionDays)) {
        expired.push(index);
        this.ensuredDays.delete(day);
      }
    }
    // By exact names (a wildcard delete may be refused: action.destructive_requires_name), in chunks.
    for (let i = 0; i < expired.length; i += 50) {
      await this.parts.client.indices.delete(
        { index: expired.slice(i, i + 50).join(',') },
        { ignore: [404] },
      );
    }
    return expired.length;
  }

  async ping(): Promise<void> {
    await this.parts.client.ping();
  }

  async close(): Promise<void> {
    // The client is shared; its opener closes it.
  }

  private settings(): Types.Indices_Common.IndexSettings {
    return { number_of_shards: this.parts.shape.shards, number_of_replicas: this.parts.shape.replicas };
  }

  private async ensureDay(day: string): Promise<void> {
    const index = auditIndexName(this.parts.indexPrefix, day);
    const created = await this.parts.client.indices.create(
      { index, body: { settings: this.settings(), mappings } },
      { ignore: [400] },
    );
    if (created.statusCode === 400) {
      const body: unknown = created.body;
      const error = isObject(body) ? body['error'] : undefined;
      const type = isObject(error) ? error['type'] : undefined;
      if (type !== 'resource_already_exists_exception')
        throw new Error(
          `creating audit index ${index} failed: ${JSON.stringify(created.body).slice(0, 1000)}`,
        );
    }
    this.ensuredDays.add(day);
  }
}

/** The stored document: the usage-event index's keys, plus `id`. */
function encode(event: AuditEvent): Record<string, unknown> {
  const optional = (key: string, value: string | undefined) => (value === undefined ? {} : { [key]: value });
  return {
    id: event.id,
    type: event.eventType,
    timestamp: event.timestamp,
    '@timestamp': event.timestamp,
    actorUrn: event.actorUrn,
    ...optional('entityUrn', event.entityUrn),
    ...optional('entityType', event.entityType),
    ...optional('aspectName', event.aspectName),
    ...optional('eventSource', event.eventSource),
    ...optional('sourceIP', event.sourceIP),
    ...optional('userAgent', event.userAgent),
    ...optional('loginSource', event.loginSource),
    ...optional('traceId', event.telemetryTraceId),
    ...optional('loginDenialReason', event.loginDenialReason),
    usageSource: 'backend',
    rawUsageEvent: event.rawUsageEvent,
  };
}

function decode(source: unknown): AuditEvent {
  const stored = asObject(source, 'audit event');
  const optional = (key: string, from: string) => {
    const value = stored[from];
    return typeof value === 'string' ? { [key]: value } : {};
  };
  return {
    id: asString(stored['id'], 'id'),
    eventType: asString(stored['type'], 'type'),
    timestamp: asNumber(stored['timestamp'], 'timestamp'),
    actorUrn: asString(stored['actorUrn'], 'actorUrn'),
    ...optional('entityUrn', 'entityUrn'),
    ...optional('entityType', 'entityType'),
    ...optional('aspectName', 'aspectName'),
    ...optional('sourceIP', 'sourceIP'),
    ...optional('userAgent', 'userAgent'),
    ...optional('eventSource', 'eventSource'),
    ...optional('telemetryTraceId', 'traceId'),
    ...optional('loginSource', 'loginSource'),
    ...optional('loginDenialReason', 'loginDenialReason'),
    rawUsageEvent: asObject(stored['rawUsageEvent'], 'rawUsageEvent'),
  };
}
