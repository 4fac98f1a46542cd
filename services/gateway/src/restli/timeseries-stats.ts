import type { Request, Response } from 'express';
import { entityRegistry, ValidationError } from '@catalog/model';
import { normalizeFilter } from '@catalog/search';
import type { TimeseriesReads } from '../application/timeseries-reads.js';
import type { AggregationSpec, CalendarInterval, GroupingBucket } from '../application/timeseries-stats.js';
import { requestContextOf } from '../auth/request-context.js';
import { ActionBody } from './action-body.js';

const AGGREGATIONS = new Set(['LATEST', 'SUM', 'CARDINALITY']);
const BUCKET_TYPES = new Set(['DATE_GROUPING_BUCKET', 'STRING_GROUPING_BUCKET']);
const UNITS = new Set(['SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR']);

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ValidationError(`${what} must be an object`);
  return value as Record<string, unknown>;
}

function oneOf(value: unknown, allowed: ReadonlySet<string>, what: string): string {
  if (typeof value !== 'string' || !allowed.has(value))
    throw new ValidationError(
      `${what} must be one of ${[...allowed].join(', ')}, got ${JSON.stringify(value ?? null)}`,
    );
  return value;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '')
    throw new ValidationError(`${what} must be a non-empty string`);
  return value;
}

function metricsOf(raw: unknown): AggregationSpec[] {
  if (!Array.isArray(raw))
    throw new ValidationError('metrics must be an array of {fieldPath, aggregationType}');
  return raw.map((item, i) => {
    const m = record(item, `metrics[${i}]`);
    return {
      fieldPath: text(m['fieldPath'], `metrics[${i}].fieldPath`),
      aggregationType: oneOf(
        m['aggregationType'],
        AGGREGATIONS,
        `metrics[${i}].aggregationType`,
      ) as AggregationSpec['aggregationType'],
    };
  });
}

function bucketsOf(raw: unknown): GroupingBucket[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new ValidationError('buckets must be an array of {key, type}');
  return raw.map((item, i) => {
    const b = record(item, `buckets[${i}]`);
    const window = b['timeWindowSize'];
    let timeWindowSize: GroupingBucket['timeWindowSize'];
    if (window !== undefined && window !== null) {
      const w = record(window, `buckets[${i}].timeWindowSize`);
      const multiple = w['multiple'] ?? 1;
      if (typeof multiple !== 'number' || !Number.isInteger(multiple) || multiple < 1 || multiple > 10_000)
        throw new ValidationError(`buckets[${i}].timeWindowSize.multiple must be a whole number from 1`);
      timeWindowSize = {
        unit: oneOf(w['unit'], UNITS, `buckets[${i}].timeWindowSize.unit`) as CalendarInterval,
        multiple,
      };
    }
    return {
      key: text(b['key'], `buckets[${i}].key`),
      type: oneOf(b['type'], BUCKET_TYPES, `buckets[${i}].type`) as GroupingBucket['type'],
      ...(timeWindowSize === undefined ? {} : { timeWindowSize }),
    };
  });
}

/**
 * POST /analytics?action=getTimeseriesStats: aggregated statistics of a time-series aspect as the
 * ecosystem's Analytics resource answers them, `{value: {entityName, aspectName, aggregationSpecs,
 * filter?, groupingBuckets?, table: {columnNames, columnTypes, rows}}}`.
 */
export async function getTimeseriesStats(
  req: Request,
  res: Response,
  timeseries: TimeseriesReads,
): Promise<void> {
  const body = ActionBody.of(req);
  const entity = entityRegistry.requireEntity(body.requiredString('entityName'));
  const aspectName = body.requiredString('aspectName');
  const aspect = entity.aspects.get(aspectName);
  if (!aspect) throw new ValidationError(`Unknown aspect ${aspectName} for entity type ${entity.name}`);
  if (aspect.kind !== 'timeseries') throw new ValidationError(`${aspectName} is not a time-series aspect`);
  const metrics = metricsOf(body.raw('metrics'));
  const buckets = bucketsOf(body.raw('buckets'));
  const rawFilter = body.raw('filter');
  const filter = rawFilter === undefined || rawFilter === null ? undefined : normalizeFilter(rawFilter);
  const table = await timeseries.stats(requestContextOf(res), {
    entityType: entity.name,
    aspect: aspect.name,
    metrics,
    buckets,
    ...(filter === undefined ? {} : { filter }),
  });
  res.json({
    value: {
      entityName: entity.name,
      aspectName: aspect.name,
      aggregationSpecs: metrics,
      ...(rawFilter === undefined || rawFilter === null ? {} : { filter: rawFilter }),
      ...(buckets.length === 0 ? {} : { groupingBuckets: buckets }),
      table,
    },
  });
}
