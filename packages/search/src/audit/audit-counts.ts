import { compareCodePoints } from '../sort-values.js';
import type { AuditCount, AuditCountField, AuditCountQuery, AuditInterval } from './audit-index.js';
import { AUDIT_MAX_FILTER_VALUES } from './audit-partitions.js';

const FIELDS: ReadonlySet<string> = new Set<AuditCountField>([
  'eventType',
  'actorUrn',
  'entityType',
  'aspectName',
]);
const INTERVALS: ReadonlySet<string> = new Set<AuditInterval>(['DAY', 'WEEK', 'MONTH']);
const MAX_GROUP_FIELDS = 3;
const DAY_MS = 86_400_000;

/** A count query checked (RangeError on a bad one), its lists deduplicated. */
export interface NormalizedAuditCountQuery {
  readonly startTime: number;
  readonly endTime: number;
  readonly eventTypes: readonly string[];
  readonly excludeActorUrns: readonly string[];
  readonly interval?: AuditInterval;
  readonly groupBy: readonly AuditCountField[];
  readonly distinct?: 'actorUrn';
}

export function normalizeAuditCountQuery(query: AuditCountQuery): NormalizedAuditCountQuery {
  if (!Number.isFinite(query.startTime) || !Number.isFinite(query.endTime))
    throw new RangeError('audit count: startTime and endTime must be finite numbers');
  const groupBy = query.groupBy ?? [];
  if (groupBy.length > MAX_GROUP_FIELDS || new Set(groupBy).size !== groupBy.length)
    throw new RangeError(`audit count: groupBy names at most ${MAX_GROUP_FIELDS} fields, each once`);
  for (const field of groupBy)
    if (!FIELDS.has(field)) throw new RangeError(`audit count: cannot group by ${JSON.stringify(field)}`);
  if (query.interval !== undefined && !INTERVALS.has(query.interval))
    throw new RangeError(`audit count: unknown interval ${JSON.stringify(query.interval)}`);
  if (query.distinct !== undefined && query.distinct !== 'actorUrn')
    throw new RangeError(`audit count: can count distinct actorUrn only`);
  return {
    startTime: query.startTime,
    endTime: query.endTime,
    eventTypes: bounded('eventTypes', query.eventTypes),
    excludeActorUrns: bounded('excludeActorUrns', query.excludeActorUrns),
    groupBy,
    ...(query.interval === undefined ? {} : { interval: query.interval }),
    ...(query.distinct === undefined ? {} : { distinct: query.distinct }),
  };
}

function bounded(name: string, values: readonly string[] | undefined): readonly string[] {
  const distinct = [...new Set(values ?? [])];
  if (distinct.length > AUDIT_MAX_FILTER_VALUES)
    throw new RangeError(`audit count: ${name} lists more than ${AUDIT_MAX_FILTER_VALUES} values`);
  return distinct;
}

/** The first ms of the UTC interval `time` falls in (weeks start on Monday, as OpenSearch's calendar weeks). */
export function auditIntervalStart(time: number, interval: AuditInterval): number {
  const day = Math.floor(time / DAY_MS) * DAY_MS;
  if (interval === 'DAY') return day;
  if (interval === 'WEEK') {
    const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 ... Sunday 6
    return day - weekday * DAY_MS;
  }
  const date = new Date(day);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

interface Group {
  readonly intervalStart: number | undefined;
  readonly values: readonly (string | null)[];
  events: number;
  readonly actors: Set<string>;
}

/**
 * Gathers the partial counts an adapter reads (per day partition, per page of buckets) into the
 * answer of a count query: events summed per group, or the distinct actors of each group counted once.
 */
export class AuditCounter {
  private readonly groups = new Map<string, Group>();

  constructor(private readonly query: NormalizedAuditCountQuery) {}

  /** `events` events of a group; with `actor` when the query counts distinct actors. */
  add(
    intervalStart: number | undefined,
    values: readonly (string | null)[],
    events: number,
    actor?: string | null,
  ): void {
    const key = JSON.stringify([intervalStart ?? null, values]);
    let group = this.groups.get(key);
    if (group === undefined) {
      group = { intervalStart, values, events: 0, actors: new Set() };
      this.groups.set(key, group);
    }
    group.events += events;
    if (actor !== undefined && actor !== null) group.actors.add(actor);
  }

  result(): AuditCount[] {
    const counts: AuditCount[] = [];
    for (const group of this.groups.values()) {
      const count = this.query.distinct === undefined ? group.events : group.actors.size;
      if (count === 0) continue;
      counts.push({
        ...(group.intervalStart === undefined ? {} : { intervalStart: group.intervalStart }),
        values: group.values,
        count,
      });
    }
    return counts.sort(compareCounts);
  }
}

function compareCounts(a: AuditCount, b: AuditCount): number {
  const interval = (a.intervalStart ?? 0) - (b.intervalStart ?? 0);
  if (interval !== 0) return interval;
  if (a.count !== b.count) return b.count - a.count;
  for (let i = 0; i < a.values.length; i++) {
    const x = a.values[i] ?? null;
    const y = b.values[i] ?? null;
    if (x === y) continue;
    if (x === null) return -1;
    if (y === null) return 1;
    return compareCodePoints(x, y);
  }
  return 0;
}
