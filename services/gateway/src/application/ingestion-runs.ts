import type { RequestContext } from '@catalog/auth';
import { isRestrictedAspect } from '@catalog/model';
import type { AspectStore, RunSummary, StoredAspect } from '@catalog/store';
import type { AccessPolicy } from './access-policy.js';
import { RUN_PAGE, rowSummary, softDeletedAmong, type AspectRowSummary } from './run-rows.js';
import {
  rollbackRun,
  type RollbackDeps,
  type RollbackRequest,
  type RollbackResponse,
} from './run-rollback.js';

/** Largest page of runs or rows one call returns. */
export const MAX_RUNS_PAGE = 10_000;

/** Runs read from the store per round while skipping those of soft-deleted entities only. */
const RUNS_ROUND = 100;

export interface RunPage {
  readonly start: number;
  readonly limit: number;
  /** Include runs (rows) of soft-deleted entities only. */
  readonly includeSoft: boolean;
}

/**
 * Ingestion runs (the ecosystem's BatchIngestionRunResource): which runs wrote what, and rolling one
 * back. Listing has no privilege check there, and names no entity; describing asks ENTITY READ and
 * keeps only the rows of entities the actor may read, with restricted aspects' values never included;
 * rolling back asks MANAGE on ingestion sources and DELETE on every entity of the run.
 */
export class IngestionRuns {
  constructor(
    private readonly store: AspectStore,
    private readonly policy: AccessPolicy,
    private readonly rollbackDeps: RollbackDeps,
  ) {}

  /**
   * The runs the latest rows carry, newest lastObserved first. Runs whose rows all belong to
   * soft-deleted entities are left out (and not counted by start) unless includeSoft.
   */
  list(_ctx: RequestContext, page: RunPage): Promise<readonly RunSummary[]> {
    return page.includeSoft
      ? this.store.listRuns({ start: page.start, limit: page.limit })
      : this.liveRuns(page.start, page.limit);
  }

  /** The latest rows of the run, by urn then aspect; `includeAspect` adds each row's current value. */
  async describe(
    ctx: RequestContext,
    runId: string,
    page: RunPage & { readonly includeAspect: boolean },
  ): Promise<readonly AspectRowSummary[]> {
    await this.policy.readEntity(ctx, undefined);
    const rows = page.includeSoft
      ? await this.store.findRunRows({ runId, start: page.start, limit: page.limit })
      : await this.liveRows(runId, page.start, page.limit);
    const readable = new Set(await this.policy.readable(ctx, [...new Set(rows.map((r) => r.urn))]));
    const system = ctx.authentication.isSystem;
    return rows
      .filter((row) => readable.has(row.urn))
      .map((row) => rowSummary(row, page.includeAspect && (system || !isRestrictedAspect(row.aspect))));
  }

  rollback(ctx: RequestContext, request: RollbackRequest): Promise<RollbackResponse> {
    return rollbackRun(ctx, request, this.rollbackDeps);
  }

  /**
   * Runs `start` to `start + limit` of the listing, counting only runs with a row of an entity not
   * soft-deleted: the store's run index does not know soft deletes, so each run is checked by reading
   * its rows a page at a time until one belongs to a live entity (the first page, but for runs whose
   * entities were soft-deleted).
   */
  private async liveRuns(start: number, limit: number): Promise<RunSummary[]> {
    const out: RunSummary[] = [];
    if (limit === 0) return out;
    let skip = start;
    const round = Math.max(RUNS_ROUND, Math.min(limit, MAX_RUNS_PAGE));
    for (let at = 0; out.length < limit; at += round) {
      const page = await this.store.listRuns({ start: at, limit: round });
      for (const run of page) {
        if (!(await this.hasLiveRow(run.runId))) continue;
        if (skip > 0) skip -= 1;
        else if (out.length < limit) out.push(run);
      }
      if (page.length < round) break;
    }
    return out;
  }

  /** Whether some latest row of the run belongs to an entity not soft-deleted. */
  private async hasLiveRow(runId: string): Promise<boolean> {
    for (let at = 0; ; at += RUN_PAGE) {
      const page = await this.store.findRunRows({ runId, start: at, limit: RUN_PAGE });
      const urns = [...new Set(page.map((r) => r.urn))];
      const removed = await softDeletedAmong(this.store, urns);
      if (urns.some((urn) => !removed.has(urn))) return true;
      if (page.length < RUN_PAGE) return false;
    }
  }

  /** Rows `start` to `start + count` of the run, counting only rows of entities not soft-deleted. */
  private async liveRows(runId: string, start: number, count: number): Promise<StoredAspect[]> {
    const out: StoredAspect[] = [];
    let skip = start;
    for (let at = 0; out.length < count; at += RUN_PAGE) {
      const page = await this.store.findRunRows({ runId, start: at, limit: RUN_PAGE });
      const removed = await softDeletedAmong(
        this.store,
        page.map((r) => r.urn),
      );
      for (const row of page) {
        if (removed.has(row.urn)) continue;
        if (skip > 0) skip -= 1;
        else if (out.length < count) out.push(row);
      }
      if (page.length < RUN_PAGE) break;
    }
    return out;
  }
}
