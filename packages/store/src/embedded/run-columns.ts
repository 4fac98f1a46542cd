import { DEFAULT_RUN_ID } from '../write-rules.js';

/**
 * The run columns of a version 0 (schema 4), which aspects_latest_by_run keys, as SQL over the text
 * of its system metadata: set by the writes that store a version 0 and by the migration that added
 * them, so both key a row the same way.
 */

/** The runId as json_extract gives it (its JSON type kept); NULL for the default run, named or not. */
export const RUN_ID_OF = (systemText: string): string =>
  `nullif(json_extract(${systemText}, '$.runId'), '${DEFAULT_RUN_ID}')`;

/** The lastObserved as json_extract gives it, or the row's write time when it has none. */
export const LAST_OBSERVED_OF = (systemText: string, createdOn: string): string =>
  `coalesce(json_extract(${systemText}, '$.lastObserved'), ${createdOn})`;

/**
 * The run of a system metadata text as aspects.run_id keeps it since schema 5: the id of its row in
 * runs (NULL for the default run), which the write adds first (SqliteStatements.ensureRun).
 */
export const RUN_ROW_OF = (systemText: string): string =>
  `(SELECT id FROM runs WHERE run_id = ${RUN_ID_OF(systemText)})`;

/** A run id as findRunRows looks it up in runs: null for the default run, which has no row. */
export function storedRunId(runId: string): string | null {
  return runId === DEFAULT_RUN_ID ? null : runId;
}

/** A run_id as the listing reads it back. */
export function runIdOf(stored: unknown): string {
  return stored === null ? DEFAULT_RUN_ID : String(stored);
}
