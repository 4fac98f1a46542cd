import { ValidationError } from './errors.js';

/**
 * The range of values a DELETE of a time-series aspect removes travels in the proposal's `headers` map
 * (and, from persistence on, in the change log's), as the ecosystem's Avro records have no other field
 * for it: both bounds are epoch milliseconds, inclusive, written as decimal integers. An absent start
 * means from the earliest value, an absent end up to the latest; with neither, every value of the
 * entity's aspect is deleted. Names are matched case-insensitively, as the other proposal headers are.
 */
export const TIMESERIES_START_TIME_HEADER = 'X-Timeseries-Start-Time-Millis';
export const TIMESERIES_END_TIME_HEADER = 'X-Timeseries-End-Time-Millis';

/** An inclusive range of `timestampMillis`; an absent bound is open. */
export interface TimeseriesRange {
  readonly startTimeMillis?: number;
  readonly endTimeMillis?: number;
}

/**
 * The range a time-series DELETE's headers carry ({} when they carry none). Throws ValidationError for a
 * bound that is not a non-negative integer of milliseconds (at most 2^53 - 1), a bound given twice
 * (under names that differ in case only), or a start after the end.
 */
export function timeseriesRangeFromHeaders(
  headers: Readonly<Record<string, string>> | undefined,
): TimeseriesRange {
  const startTimeMillis = bound(headers, TIMESERIES_START_TIME_HEADER);
  const endTimeMillis = bound(headers, TIMESERIES_END_TIME_HEADER);
  if (startTimeMillis !== undefined && endTimeMillis !== undefined && startTimeMillis > endTimeMillis) {
    throw new ValidationError(
      `Header ${TIMESERIES_START_TIME_HEADER} (${startTimeMillis}) must not be after ` +
        `${TIMESERIES_END_TIME_HEADER} (${endTimeMillis})`,
    );
  }
  return {
    ...(startTimeMillis === undefined ? {} : { startTimeMillis }),
    ...(endTimeMillis === undefined ? {} : { endTimeMillis }),
  };
}

/** The headers that carry `range` on a time-series DELETE: none for an open bound. */
export function timeseriesRangeHeaders(range: TimeseriesRange): Record<string, string> {
  return {
    ...(range.startTimeMillis === undefined
      ? {}
      : { [TIMESERIES_START_TIME_HEADER]: String(range.startTimeMillis) }),
    ...(range.endTimeMillis === undefined
      ? {}
      : { [TIMESERIES_END_TIME_HEADER]: String(range.endTimeMillis) }),
  };
}

/** `headers` without the range headers (in any case), to set them anew. */
export function withoutTimeseriesRangeHeaders(
  headers: Readonly<Record<string, string>>,
): Record<string, string> {
  const names = [TIMESERIES_START_TIME_HEADER.toLowerCase(), TIMESERIES_END_TIME_HEADER.toLowerCase()];
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !names.includes(k.toLowerCase())));
}

function bound(headers: Readonly<Record<string, string>> | undefined, name: string): number | undefined {
  const wanted = name.toLowerCase();
  const found = Object.entries(headers ?? {}).filter(([k]) => k.toLowerCase() === wanted);
  if (found.length === 0) return undefined;
  if (found.length > 1) {
    throw new ValidationError(`Header ${name} is given more than once: ${found.map(([k]) => k).join(', ')}`);
  }
  const raw = found[0]![1];
  const text = raw.trim();
  const ms = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(ms)) {
    throw new ValidationError(
      `Header ${name} must be a non-negative integer of epoch milliseconds (at most 2^53 - 1), ` +
        `got ${JSON.stringify(raw)}`,
    );
  }
  return ms;
}
