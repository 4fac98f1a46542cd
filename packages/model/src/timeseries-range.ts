import { ValidationError } from './errors.js';

/**
 * The range of values a DELETE of a time-series aspect removes travels in the proposal's `headers` map
 * (and, from persistence on, in the change log's), as the ecosystem's Avro records have no other field
 * for it: both bounds are epoch milliseconds, inclusive, written as decimal integers. An absent start
 * means from the earliest value, an absent end up to the latest; with neither, every value of the
 * entity's aspect is deleted. X-Timeseries-Run-Id further restricts it to the values that run wrote.
 * Names are matched case-insensitively, as the other proposal headers are.
 */
export const TIMESERIES_START_TIME_HEADER = 'X-Timeseries-Start-Time-Millis';
export const TIMESERIES_END_TIME_HEADER = 'X-Timeseries-End-Time-Millis';
/**
 * (Added.) Restricts a time-series DELETE to the values one ingestion run wrote (their
 * systemMetadata.runId), as a rollback of the run deletes them through the log.
 */
export const TIMESERIES_RUN_ID_HEADER = 'X-Timeseries-Run-Id';

/** An inclusive range of `timestampMillis`; an absent bound is open. With a runId, that run's values only. */
export interface TimeseriesRange {
  readonly startTimeMillis?: number;
  readonly endTimeMillis?: number;
  readonly runId?: string;
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
  const runId = runIdOf(headers);
  return {
    ...(startTimeMillis === undefined ? {} : { startTimeMillis }),
    ...(endTimeMillis === undefined ? {} : { endTimeMillis }),
    ...(runId === undefined ? {} : { runId }),
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
    ...(range.runId === undefined ? {} : { [TIMESERIES_RUN_ID_HEADER]: range.runId }),
  };
}

/** `headers` without the range headers (in any case), to set them anew. */
export function withoutTimeseriesRangeHeaders(
  headers: Readonly<Record<string, string>>,
): Record<string, string> {
  const names = [TIMESERIES_START_TIME_HEADER, TIMESERIES_END_TIME_HEADER, TIMESERIES_RUN_ID_HEADER].map(
    (n) => n.toLowerCase(),
  );
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !names.includes(k.toLowerCase())));
}

function only(headers: Readonly<Record<string, string>> | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const found = Object.entries(headers ?? {}).filter(([k]) => k.toLowerCase() === wanted);
  if (found.length === 0) return undefined;
  if (found.length > 1) {
    throw new ValidationError(`Header ${name} is given more than once: ${found.map(([k]) => k).join(', ')}`);
  }
  return found[0]![1];
}

function runIdOf(headers: Readonly<Record<string, string>> | undefined): string | undefined {
  const raw = only(headers, TIMESERIES_RUN_ID_HEADER);
  if (raw === undefined) return undefined;
  const runId = raw.trim();
  if (runId === '') throw new ValidationError(`Header ${TIMESERIES_RUN_ID_HEADER} must not be empty`);
  return runId;
}

function bound(headers: Readonly<Record<string, string>> | undefined, name: string): number | undefined {
  const raw = only(headers, name);
  if (raw === undefined) return undefined;
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
