import { aspectAvroType, ValidationError } from '@catalog/model';
import type { TimeseriesDocument } from '@catalog/search';

/** The ecosystem's AggregationSpec: a metric of one field of the aspect. */
export interface AggregationSpec {
  readonly fieldPath: string;
  readonly aggregationType: 'LATEST' | 'SUM' | 'CARDINALITY';
}

export type CalendarInterval = 'SECOND' | 'MINUTE' | 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'QUARTER' | 'YEAR';

/** The ecosystem's GroupingBucket: rows are grouped by a field's value or by a time window. */
export interface GroupingBucket {
  readonly type: 'DATE_GROUPING_BUCKET' | 'STRING_GROUPING_BUCKET';
  readonly key: string;
  readonly timeWindowSize?: { readonly unit: CalendarInterval; readonly multiple: number };
}

/** The ecosystem's GenericTable: every cell a string, `NULL` where a metric has no value. */
export interface GenericTable {
  readonly columnNames: string[];
  readonly columnTypes: string[];
  readonly rows: string[][];
}

const METRIC_PREFIX: Readonly<Record<AggregationSpec['aggregationType'], string>> = {
  LATEST: 'latest_',
  SUM: 'sum_',
  CARDINALITY: 'cardinality_',
};

const FIXED_MS: Partial<Record<CalendarInterval, number>> = {
  SECOND: 1000,
  MINUTE: 60_000,
  HOUR: 3_600_000,
  DAY: 86_400_000,
  WEEK: 7 * 86_400_000,
};
/** 1970-01-01 was a Thursday; calendar weeks start on Monday (as the search engine's). */
const MONDAY_OFFSET_MS = 4 * 86_400_000;

/** The start (epoch ms, UTC) of the time window holding `time`. */
export function windowStart(time: number, size: { unit: CalendarInterval; multiple: number }): number {
  const fixed = FIXED_MS[size.unit];
  if (fixed !== undefined) {
    const width = fixed * size.multiple;
    const offset = size.unit === 'WEEK' ? MONDAY_OFFSET_MS : 0;
    return Math.floor((time - offset) / width) * width + offset;
  }
  const date = new Date(time);
  const months = size.unit === 'MONTH' ? 1 : size.unit === 'QUARTER' ? 3 : 12;
  const index = date.getUTCFullYear() * 12 + date.getUTCMonth();
  const start = Math.floor(index / (months * size.multiple)) * months * size.multiple;
  return Date.UTC(Math.floor(start / 12), start % 12, 1);
}

/** The value at a dotted path of a time-series value (`urn` is the document's entity). */
function valuesAt(document: TimeseriesDocument, path: string): unknown[] {
  if (path === 'urn') return [document.urn];
  let current: unknown[] = [document.value];
  for (const part of path.split('.')) {
    const next: unknown[] = [];
    for (const value of current) {
      const child =
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? (value as Record<string, unknown>)[part]
          : undefined;
      if (Array.isArray(child)) next.push(...child);
      else if (child !== undefined && child !== null) next.push(child);
    }
    current = next;
  }
  return current;
}

/** The schema type name of a field path of the aspect: `string`, `long`, `double`, `enum`, …. */
function fieldTypeOf(aspect: string, path: string): string | undefined {
  if (path === 'urn') return 'string';
  let type: unknown = aspectAvroType(aspect);
  for (const part of path.split('.')) {
    type = unwrap(type);
    const fields = (type as { fields?: { name: string; type: unknown }[] } | undefined)?.fields;
    const field = fields?.find((f) => f.name === part);
    if (field === undefined) return undefined;
    type = field.type;
  }
  type = unwrap(type);
  const name = String((type as { typeName?: unknown } | undefined)?.typeName ?? '');
  return name.startsWith('logical:') ? 'string' : name || undefined;
}

/** The type inside a nullable union or an array. */
function unwrap(type: unknown): unknown {
  let current = type;
  for (;;) {
    const t = current as { typeName?: string; types?: unknown[]; itemsType?: unknown } | undefined;
    if (t?.typeName?.startsWith('union') === true)
      current = t.types?.find((m) => (m as { typeName?: string }).typeName !== 'null');
    else if (t?.typeName === 'array') current = t.itemsType;
    else return current;
  }
}

const NUMERIC = new Set(['int', 'long', 'float', 'double']);

/** Checks the request against the aspect's schema: every path a field of it, windows on date buckets. */
export function checkStatsRequest(
  aspect: string,
  metrics: readonly AggregationSpec[],
  buckets: readonly GroupingBucket[],
) {
  if (metrics.length === 0) throw new ValidationError('metrics must name at least one aggregation');
  for (const m of metrics) {
    const type = fieldTypeOf(aspect, m.fieldPath);
    if (type === undefined) throw new ValidationError(`Unknown field ${m.fieldPath} of aspect ${aspect}`);
    if (m.aggregationType === 'SUM' && !NUMERIC.has(type))
      throw new ValidationError(`SUM needs a numeric field; ${m.fieldPath} is ${type}`);
  }
  for (const b of buckets) {
    if (fieldTypeOf(aspect, b.key) === undefined)
      throw new ValidationError(`Unknown field ${b.key} of aspect ${aspect}`);
    if (b.type === 'DATE_GROUPING_BUCKET' && b.timeWindowSize === undefined)
      throw new ValidationError(`The date bucket ${b.key} needs a timeWindowSize`);
  }
}

interface Cell {
  latest?: unknown;
  latestAt: number;
  sum: number;
  integral: boolean;
  distinct: Set<string>;
}

/**
 * Aggregates time-series values as the ecosystem's getTimeseriesStats does with search engine
 * aggregations: one row per combination of bucket values (date windows ascending, string values by
 * how many values they hold, then by value), then each metric: the newest value of the field
 * (LATEST), the sum (SUM), the number of distinct values (CARDINALITY). Documents arrive in any order.
 */
export class TimeseriesStats {
  private readonly groups = new Map<string, { keys: string[]; count: number; cells: Cell[] }>();

  constructor(
    private readonly aspect: string,
    private readonly metrics: readonly AggregationSpec[],
    private readonly buckets: readonly GroupingBucket[],
  ) {}

  add(document: TimeseriesDocument): void {
    let keyRows: string[][] = [[]];
    for (const bucket of this.buckets) {
      const values =
        bucket.type === 'DATE_GROUPING_BUCKET'
          ? valuesAt(document, bucket.key)
              .filter((v): v is number => typeof v === 'number')
              .map((v) => String(windowStart(v, bucket.timeWindowSize!)))
          : [
              ...new Set(
                valuesAt(document, bucket.key).map((v) =>
                  typeof v === 'object' ? JSON.stringify(v) : String(v),
                ),
              ),
            ];
      keyRows = keyRows.flatMap((row) => values.map((v) => [...row, v]));
    }
    for (const keys of keyRows) {
      const id = JSON.stringify(keys);
      let group = this.groups.get(id);
      if (group === undefined) {
        group = {
          keys,
          count: 0,
          cells: this.metrics.map(() => ({
            latestAt: -Infinity,
            sum: 0,
            integral: true,
            distinct: new Set(),
          })),
        };
        this.groups.set(id, group);
      }
      group.count++;
      this.metrics.forEach((metric, i) => {
        const cell = group.cells[i]!;
        for (const value of valuesAt(document, metric.fieldPath)) {
          if (document.timestampMillis > cell.latestAt) {
            cell.latest = value;
            cell.latestAt = document.timestampMillis;
          }
          if (typeof value === 'number') {
            cell.sum += value;
            if (!Number.isInteger(value)) cell.integral = false;
          }
          cell.distinct.add(typeof value === 'object' ? JSON.stringify(value) : String(value));
        }
      });
    }
  }

  table(): GenericTable {
    const columnNames = [
      ...this.buckets.map((b) => b.key),
      ...this.metrics.map((m) => `${METRIC_PREFIX[m.aggregationType]}${m.fieldPath}`),
    ];
    const columnTypes = [
      ...this.buckets.map((b) => {
        const type = fieldTypeOf(this.aspect, b.key) ?? 'string';
        return NUMERIC.has(type) ? type : 'string';
      }),
      ...this.metrics.map((m) =>
        m.aggregationType === 'SUM'
          ? 'double'
          : m.aggregationType === 'CARDINALITY'
            ? 'long'
            : (fieldTypeOf(this.aspect, m.fieldPath) ?? 'string'),
      ),
    ];
    const counts = this.bucketCounts();
    const rows = [...this.groups.values()]
      .sort((a, b) => this.compare(a, b, counts))
      .map((group) => [
        ...group.keys,
        ...this.metrics.map((metric, i) =>
          cellValue(metric, group.cells[i]!, fieldTypeOf(this.aspect, metric.fieldPath)),
        ),
      ]);
    return { columnNames, columnTypes, rows };
  }

  /** Level by level: date windows ascending; string values by how many values they hold, then value. */
  private compare(a: { keys: string[] }, b: { keys: string[] }, counts: ReadonlyMap<string, number>): number {
    for (let level = 0; level < this.buckets.length; level++) {
      const x = a.keys[level]!;
      const y = b.keys[level]!;
      if (x === y) continue;
      if (this.buckets[level]!.type === 'DATE_GROUPING_BUCKET') return Number(x) - Number(y);
      const countX = counts.get(JSON.stringify(a.keys.slice(0, level + 1))) ?? 0;
      const countY = counts.get(JSON.stringify(b.keys.slice(0, level + 1))) ?? 0;
      if (countX !== countY) return countY - countX;
      return x < y ? -1 : 1;
    }
    return 0;
  }

  /** How many values each bucket holds, by its keys down to its level (for the terms order). */
  private bucketCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const group of this.groups.values())
      for (let level = 1; level <= group.keys.length; level++) {
        const id = JSON.stringify(group.keys.slice(0, level));
        counts.set(id, (counts.get(id) ?? 0) + group.count);
      }
    return counts;
  }
}

function cellValue(metric: AggregationSpec, cell: Cell, type: string | undefined): string {
  switch (metric.aggregationType) {
    case 'LATEST':
      if (cell.latest === undefined) return 'NULL';
      return typeof cell.latest === 'object' ? JSON.stringify(cell.latest) : String(cell.latest);
    case 'SUM':
      // The engine's sum is a double; an integral field prints it as a whole number.
      return type === 'int' || type === 'long' || cell.integral
        ? String(Math.trunc(cell.sum))
        : String(cell.sum);
    case 'CARDINALITY':
      return String(cell.distinct.size);
  }
}
