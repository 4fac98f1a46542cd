import type { AspectRetention } from './port.js';

/**
 * The history rows a retention rules out after a write: those numbered 1 to `upTo` that were also
 * written before `writtenBefore` (ms since the epoch). Both store adapters remove exactly these.
 */
export interface HistoryPrune {
  readonly upTo: number;
  readonly writtenBefore: number;
}

/** Written before this: every row. */
const ANY_TIME = Number.MAX_SAFE_INTEGER;

/**
 * What `retention` removes once the aspect's newest history row is `highest`, at `now`; undefined
 * when it removes nothing. As the ecosystem's retention: maxVersions N of 2 or more keeps the rows
 * above highest - N (the N newest), 1 or less keeps none (the ecosystem makes no history row then);
 * maxAgeInSeconds keeps the rows written within that time; both together remove only what both rule
 * out. A bound that is not a positive number is no bound (the ecosystem refuses such policies).
 */
export function historyToPrune(
  retention: AspectRetention | undefined,
  highest: number,
  now: number,
): HistoryPrune | undefined {
  if (retention === undefined || highest < 1) return undefined;
  const maxVersions = positive(retention.version?.maxVersions);
  const maxAge = positive(retention.time?.maxAgeInSeconds);
  if (maxVersions !== undefined && maxVersions <= 1) return { upTo: highest, writtenBefore: ANY_TIME };
  const upTo = maxVersions === undefined ? highest : highest - Math.floor(maxVersions);
  const writtenBefore = maxAge === undefined ? ANY_TIME : now - maxAge * 1000;
  if (maxVersions === undefined && maxAge === undefined) return undefined;
  if (upTo < 1) return undefined;
  return { upTo, writtenBefore };
}

function positive(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}
