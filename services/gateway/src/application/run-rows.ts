import { DEFAULT_RUN_ID, type AspectStore, type StoredAspect } from '@catalog/store';

/** One latest row of a run, as `/runs` reports it (the ecosystem's AspectRowSummary). */
export interface AspectRowSummary {
  readonly runId: string;
  readonly aspectName: string;
  readonly urn: string;
  /** The row's lastObserved. */
  readonly timestamp: number;
  readonly keyAspect: boolean;
  readonly telemetryTraceId?: string;
  readonly aspect?: Readonly<Record<string, unknown>>;
}

/** Rows read from the store per query while walking a run. */
export const RUN_PAGE = 500;

/** The run a stored row belongs to: its systemMetadata.runId, the default run when it has none. */
export function runIdOf(row: Pick<StoredAspect, 'systemMetadata'>): string {
  const runId = row.systemMetadata?.runId;
  return typeof runId === 'string' ? runId : DEFAULT_RUN_ID;
}

/** A row's lastObserved, else when it was written. */
export function lastObservedOf(row: StoredAspect): number {
  const observed = row.systemMetadata?.lastObserved;
  return typeof observed === 'number' ? observed : row.created.time;
}

/** The ecosystem names key aspects `<entity>Key`; its summaries flag them by that name. */
export function isKeyAspectName(aspectName: string): boolean {
  return aspectName.endsWith('Key');
}

export function rowSummary(row: StoredAspect, includeAspect: boolean): AspectRowSummary {
  const traceId = row.systemMetadata?.properties?.['telemetryTraceId'];
  return {
    runId: runIdOf(row),
    aspectName: row.aspect,
    urn: row.urn,
    timestamp: lastObservedOf(row),
    keyAspect: isKeyAspectName(row.aspect),
    ...(typeof traceId === 'string' ? { telemetryTraceId: traceId } : {}),
    ...(includeAspect ? { aspect: row.value } : {}),
  };
}

/** The entities among `urns` whose status says removed (soft-deleted). */
export async function softDeletedAmong(store: AspectStore, urns: readonly string[]): Promise<Set<string>> {
  const statuses = await store.getLatestMany([...new Set(urns)], ['status']);
  const removed = new Set<string>();
  for (const [urn, aspects] of statuses) {
    if (aspects.some((a) => a.value['removed'] === true)) removed.add(urn);
  }
  return removed;
}

/**
 * Every latest row of the run (rows of soft-deleted entities only when `includeSoft`), read page by
 * page from the store's run index.
 */
export async function allRunRows(
  store: AspectStore,
  runId: string,
  includeSoft: boolean,
): Promise<StoredAspect[]> {
  const rows: StoredAspect[] = [];
  for (let start = 0; ; start += RUN_PAGE) {
    const page = await store.findRunRows({ runId, start, limit: RUN_PAGE });
    rows.push(...page);
    if (page.length < RUN_PAGE) break;
  }
  if (includeSoft || rows.length === 0) return rows;
  const removed = await softDeletedAmong(
    store,
    rows.map((r) => r.urn),
  );
  return rows.filter((r) => !removed.has(r.urn));
}
