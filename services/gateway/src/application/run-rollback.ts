import {
  checkProposal,
  entityRegistry,
  isDomainError,
  parseUrn,
  timeseriesRangeHeaders,
  ValidationError,
  type CheckedProposal,
} from '@catalog/model';
import type { TimeseriesIndex, TimeseriesRunGroup } from '@catalog/search';
import { SYSTEM_ACTOR_URN, type RequestContext } from '@catalog/auth';
import type { ProposalOutcome } from '@catalog/runtime';
import { DEFAULT_RUN_ID, type AspectStore, type StoredAspect } from '@catalog/store';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';
import { allRunRows, lastObservedOf, rowSummary, runIdOf, type AspectRowSummary } from './run-rows.js';

export interface RollbackDeps {
  readonly store: AspectStore;
  /** Where the run's time-series values are found (and counted) by run id. */
  readonly timeseries: TimeseriesIndex;
  readonly submitter: ProposalSubmitter;
  /** Refuses (403) the rollback of these entities when the caller may not. */
  readonly authorize: (ctx: RequestContext, urns: readonly string[]) => Promise<void>;
  /** Waits until the outcomes' change logs are indexed; absent when there is no indexer to wait for. */
  readonly waitForIndex?: (outcomes: readonly ProposalOutcome[]) => Promise<void>;
}

/** Summaries one response carries at most, as the ecosystem caps them. */
const MAX_SUMMARIES = 100;
/** Proposals submitted (and waited for) together. */
const SUBMIT_CHUNK = 100;

/** The ecosystem's RollbackResponse. */
export interface RollbackResponse {
  readonly aspectRowSummaries: readonly AspectRowSummary[];
  readonly entitiesAffected: number;
  readonly aspectsAffected?: number;
  readonly entitiesDeleted: number;
  readonly aspectsReverted: number;
  readonly unsafeEntitiesCount: number;
  readonly unsafeEntities: readonly { readonly urn: string }[];
  /**
   * (Added, not in the ecosystem's record.) The run's time-series documents the rollback deletes (a dry
   * run: would delete). A real rollback counts them in aspectsReverted too; a dry run does not, as the
   * ecosystem's does not.
   */
  readonly timeseriesAspectsReverted: number;
}

/** What a rollback is asked to do. */
export interface RollbackRequest {
  readonly runId: string;
  readonly dryRun: boolean;
  /** Delete entities whose key the run wrote (else soft-delete them). */
  readonly hard: boolean;
}

/**
 * Rolls back an ingestion run (Rest.li `POST /runs?action=rollback`): undoes what it wrote last,
 * hard or soft as asked.
 *
 * For each (urn, aspect) whose latest row carries the run: the newest older version written by another
 * run (or by none) is written again through the log, an UPSERT carrying that version's runId and
 * lastObserved, so the store makes one new version for the change and the indices follow its change
 * log as for any write; with no such version the aspect is deleted. A key aspect with nothing older
 * deletes the entity when hard and writes status {removed: true} when soft (keeping the key, as the
 * ecosystem does). Writes act as the system actor.
 *
 * Time-series: every document the run wrote (any entity type, found by the run id the time-series index
 * keeps) is deleted through the log too, a time-series DELETE per (urn, aspect) scoped to the run by the
 * X-Timeseries-Run-Id header, which the indexer applies; they are counted just before, and count in
 * aspectsReverted.
 *
 * Resumable: each call reads the run's rows and time-series documents anew, and rows already rolled
 * back no longer carry the run (deleted documents are gone), so calling it again after a crash finishes
 * the rest.
 */
export async function rollbackRun(
  ctx: RequestContext,
  request: RollbackRequest,
  deps: RollbackDeps,
): Promise<RollbackResponse> {
  const { runId, dryRun, hard } = request;
  if (runId === DEFAULT_RUN_ID) {
    throw new ValidationError(
      `${DEFAULT_RUN_ID} is a default run-id provided for non labeled ingestion runs. ` +
        'You cannot delete using this reserved run-id',
    );
  }
  const rows = await allRunRows(deps.store, runId, hard);
  const groups = await deps.timeseries.runGroups(runId);
  const timeseriesDocs = groups.reduce((sum, g) => sum + g.count, 0);
  await deps.authorize(ctx, [...new Set([...rows.map((r) => r.urn), ...groups.map((g) => g.urn)])]);
  const plan = await planRollback(deps.store, runId, rows, hard);
  if (dryRun) {
    const shown = hard ? rows : rows.filter((r) => !isKeyRow(r));
    return summary(plan, shown, { aspectsReverted: shown.length, timeseriesDocs });
  }

  const { proposals: timeseriesDeletes, unproposable } = timeseriesDeletesOf(runId, groups);
  const proposals = [...plan.proposals, ...timeseriesDeletes];
  const outcomes: ProposalOutcome[] = [];
  for (let at = 0; at < proposals.length; at += SUBMIT_CHUNK) {
    const chunk = proposals.slice(at, at + SUBMIT_CHUNK);
    const results =
      (await deps.submitter.submit(chunk, {
        sync: true,
        actor: SYSTEM_ACTOR_URN,
        origin: ctx.origin,
      })) ?? [];
    // A DELETE of what is already gone (a rollback that ran before, or ran concurrently) is done.
    const failed = results.filter((o) => !o.ok && o.code !== 'NOT_FOUND');
    if (failed.length > 0) {
      const detail = failed.map(
        (o) => `${o.aspectName ?? '?'} of ${o.urn ?? '?'}: ${o.message ?? 'rejected'}`,
      );
      throw new Error(
        `There was an issue rolling back ingestion run with runId ${runId}: ${detail.join('; ')}`,
      );
    }
    outcomes.push(...results);
  }
  // Documents of an (entity type, aspect) the registry no longer knows cannot be proposed: the index
  // deletes them directly.
  for (const g of unproposable) await deps.timeseries.delete({ ...g, runId });
  if (deps.waitForIndex) await deps.waitForIndex(outcomes);
  return summary(plan, rows, {
    aspectsAffected: plan.otherRunAspects,
    aspectsReverted: plan.rowsRolledBack + plan.extraRowsDeleted + timeseriesDocs,
    timeseriesDocs,
  });
}

/**
 * A time-series DELETE of each (urn, aspect) holding documents of the run, scoped to the run by its
 * header (no time range: all of the run's documents there); the groups whose entity type or aspect
 * the registry does not take (as time-series) are returned apart.
 */
function timeseriesDeletesOf(
  runId: string,
  groups: readonly TimeseriesRunGroup[],
): { proposals: CheckedProposal[]; unproposable: TimeseriesRunGroup[] } {
  const proposals: CheckedProposal[] = [];
  const unproposable: TimeseriesRunGroup[] = [];
  for (const g of groups) {
    if (entityRegistry.getAspect(g.entityType, g.aspect)?.kind !== 'timeseries') {
      unproposable.push(g);
      continue;
    }
    try {
      proposals.push(
        proposal({
          entityType: g.entityType,
          entityUrn: g.urn,
          changeType: 'DELETE',
          aspectName: g.aspect,
          headers: timeseriesRangeHeaders({ runId }),
        }),
      );
    } catch (error) {
      if (!isDomainError(error)) throw error;
      unproposable.push(g);
    }
  }
  return { proposals, unproposable };
}

interface RollbackPlan {
  readonly proposals: CheckedProposal[];
  readonly entities: ReadonlySet<string>;
  readonly keyRows: number;
  readonly unsafe: readonly string[];
  /** Latest aspects of other runs (status aside) on entities whose key the run wrote. */
  readonly otherRunAspects: number;
  readonly rowsRolledBack: number;
  /** Aspects of other runs removed with the entities a hard rollback deletes. */
  readonly extraRowsDeleted: number;
}

function isKeyRow(row: StoredAspect): boolean {
  const entity = entityRegistry.getEntity(parseUrn(row.urn).entityType);
  return entity?.keyAspect === row.aspect;
}

async function planRollback(
  store: AspectStore,
  runId: string,
  rows: readonly StoredAspect[],
  hard: boolean,
): Promise<RollbackPlan> {
  const keyUrns = new Set(rows.filter(isKeyRow).map((r) => r.urn));
  const latestOfKeyed = await store.getLatestMany([...keyUrns]);
  const unsafe: string[] = [];
  let otherRunAspects = 0;
  for (const urn of keyUrns) {
    const others = (latestOfKeyed.get(urn) ?? []).filter((a) => runIdOf(a) !== runId);
    if (others.length > 0) unsafe.push(urn);
    otherRunAspects += others.filter((a) => a.aspect !== 'status').length;
  }

  const olderOf = new Map<StoredAspect, StoredAspect | undefined>();
  for (const row of rows) olderOf.set(row, await previousVersion(store, row, runId));
  // A hard rollback deletes the entities whose key the run wrote (with nothing older): their other
  // rows go with them.
  const deleted = new Set(
    hard ? rows.filter((r) => isKeyRow(r) && olderOf.get(r) === undefined).map((r) => r.urn) : [],
  );
  const proposals: CheckedProposal[] = [];
  let extraRowsDeleted = 0;
  for (const row of [...rows.filter((r) => !isKeyRow(r)), ...rows.filter(isKeyRow)]) {
    const older = olderOf.get(row);
    const key = isKeyRow(row);
    if (older !== undefined) {
      proposals.push(restore(row, older));
    } else if (!key) {
      if (!deleted.has(row.urn)) proposals.push(remove(row));
    } else if (hard) {
      proposals.push(remove(row));
      extraRowsDeleted += (latestOfKeyed.get(row.urn) ?? []).filter((a) => runIdOf(a) !== runId).length;
    } else {
      const soft = softDelete(row.urn);
      if (soft !== undefined) proposals.push(soft);
    }
  }
  return {
    proposals,
    entities: new Set(rows.map((r) => r.urn)),
    keyRows: keyUrns.size,
    unsafe,
    otherRunAspects,
    rowsRolledBack: rows.length,
    extraRowsDeleted,
  };
}

/** The newest version below the latest that another run (or none) wrote; undefined when none. */
async function previousVersion(
  store: AspectStore,
  row: StoredAspect,
  runId: string,
): Promise<StoredAspect | undefined> {
  const versions = await store.listVersions(row.urn, row.aspect);
  return versions.slice(1).find((v) => runIdOf(v) !== runId);
}

function proposal(raw: Record<string, unknown>): CheckedProposal {
  return checkProposal(raw);
}

function base(urn: string, aspectName: string, changeType: string): Record<string, unknown> {
  return { entityType: parseUrn(urn).entityType, entityUrn: urn, changeType, aspectName };
}

/** The older version written again, with its run and lastObserved, so the run no longer owns the row. */
function restore(row: StoredAspect, older: StoredAspect): CheckedProposal {
  const olderRun = runIdOf(older);
  return proposal({
    ...base(row.urn, row.aspect, 'UPSERT'),
    aspect: { value: JSON.stringify(older.value), contentType: 'application/json' },
    systemMetadata: {
      lastObserved: lastObservedOf(older),
      ...(olderRun === DEFAULT_RUN_ID ? {} : { runId: olderRun }),
    },
  });
}

function remove(row: StoredAspect): CheckedProposal {
  return proposal(base(row.urn, row.aspect, 'DELETE'));
}

/** status {removed: true} for an entity type that has a status aspect; undefined for one that has not. */
function softDelete(urn: string): CheckedProposal | undefined {
  const entity = entityRegistry.getEntity(parseUrn(urn).entityType);
  if (entity?.aspects.get('status') === undefined) return undefined;
  return proposal({
    ...base(urn, 'status', 'UPSERT'),
    aspect: { value: JSON.stringify({ removed: true }), contentType: 'application/json' },
  });
}

function summary(
  plan: RollbackPlan,
  rows: readonly StoredAspect[],
  counts: {
    readonly aspectsReverted: number;
    readonly aspectsAffected?: number;
    readonly timeseriesDocs: number;
  },
): RollbackResponse {
  return {
    aspectRowSummaries: rows.slice(0, MAX_SUMMARIES).map((r) => rowSummary(r, false)),
    entitiesAffected: plan.entities.size,
    ...(counts.aspectsAffected === undefined ? {} : { aspectsAffected: counts.aspectsAffected }),
    entitiesDeleted: plan.keyRows,
    aspectsReverted: counts.aspectsReverted,
    unsafeEntitiesCount: plan.unsafe.length,
    unsafeEntities: plan.unsafe.map((urn) => ({ urn })),
    timeseriesAspectsReverted: counts.timeseriesDocs,
  };
}
