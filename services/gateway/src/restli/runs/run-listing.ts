import type { Request, Response } from 'express';
import { ValidationError } from '@catalog/model';
import type { AspectStore, RunSummary, StoredAspect } from '@catalog/store';
import { ActionBody } from '../action-body.js';
import { sendJson } from '../send-json.js';
import { RUN_PAGE, rowSummary, softDeletedAmong } from './run-rows.js';

/** Largest page of runs or rows one call returns. */
export const MAX_RUNS_PAGE = 10_000;

/**
 * POST /runs?action=list {pageOffset=0, pageSize=100, includeSoft=false}: the runs the latest rows
 * carry, newest lastObserved first, as `{value: [{runId, rows, timestamp}]}`. The default run
 * (`no-run-id-provided`) is a run like the others. Runs whose rows all belong to soft-deleted entities
 * are left out (and not counted by pageOffset) unless includeSoft; `rows` counts every row either way.
 */
export async function listRuns(req: Request, res: Response, store: AspectStore): Promise<void> {
  const body = ActionBody.of(req);
  const start = body.int('pageOffset', 0, { min: 0 });
  const limit = body.int('pageSize', 100, { min: 0, max: MAX_RUNS_PAGE });
  const includeSoft = readFlag(body, 'includeSoft');
  const runs = includeSoft ? await store.listRuns({ start, limit }) : await liveRuns(store, start, limit);
  sendJson(res, {
    value: runs.map((r) => ({ runId: r.runId, rows: r.rows, timestamp: r.lastObserved })),
  });
}

/** Runs read from the store per round while skipping those of soft-deleted entities only. */
const RUNS_ROUND = 100;

/**
 * Runs `start` to `start + limit` of the listing, counting only runs with a row of an entity not
 * soft-deleted: the store's run index does not know soft deletes, so each run is checked by reading
 * its rows a page at a time until one belongs to a live entity (the first page, but for runs whose
 * entities were soft-deleted).
 */
async function liveRuns(store: AspectStore, start: number, limit: number): Promise<RunSummary[]> {
  const out: RunSummary[] = [];
  if (limit === 0) return out;
  let skip = start;
  const round = Math.max(RUNS_ROUND, Math.min(limit, MAX_RUNS_PAGE));
  for (let at = 0; out.length < limit; at += round) {
    const page = await store.listRuns({ start: at, limit: round });
    for (const run of page) {
      if (!(await hasLiveRow(store, run.runId))) continue;
      if (skip > 0) skip -= 1;
      else if (out.length < limit) out.push(run);
    }
    if (page.length < round) break;
  }
  return out;
}

/** Whether some latest row of the run belongs to an entity not soft-deleted. */
async function hasLiveRow(store: AspectStore, runId: string): Promise<boolean> {
  for (let at = 0; ; at += RUN_PAGE) {
    const page = await store.findRunRows({ runId, start: at, limit: RUN_PAGE });
    const urns = [...new Set(page.map((r) => r.urn))];
    const removed = await softDeletedAmong(store, urns);
    if (urns.some((urn) => !removed.has(urn))) return true;
    if (page.length < RUN_PAGE) return false;
  }
}

/**
 * POST /runs?action=describe {runId, start=0, count=100, includeSoft=false, includeAspect=false}: the
 * latest rows of the run, by urn then aspect, as `{value: [AspectRowSummary]}`; rows of soft-deleted
 * entities only with includeSoft; includeAspect adds each row's current value as `aspect`.
 */
export async function describeRun(req: Request, res: Response, store: AspectStore): Promise<void> {
  const body = ActionBody.of(req);
  const runId = body.requiredString('runId');
  const start = body.int('start', 0, { min: 0 });
  const count = body.int('count', 100, { min: 0, max: MAX_RUNS_PAGE });
  const includeSoft = readFlag(body, 'includeSoft');
  const includeAspect = readFlag(body, 'includeAspect');
  const rows = includeSoft
    ? await store.findRunRows({ runId, start, limit: count })
    : await liveRows(store, runId, start, count);
  sendJson(res, { value: rows.map((row) => rowSummary(row, includeAspect)) });
}

/** Rows `start` to `start + count` of the run, counting only rows of entities not soft-deleted. */
async function liveRows(
  store: AspectStore,
  runId: string,
  start: number,
  count: number,
): Promise<StoredAspect[]> {
  const out: StoredAspect[] = [];
  let skip = start;
  for (let at = 0; out.length < count; at += RUN_PAGE) {
    const page = await store.findRunRows({ runId, start: at, limit: RUN_PAGE });
    const removed = await softDeletedAmong(
      store,
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

/** A boolean parameter (clients send true/false, some "true"/"false"); absent is false. */
export function readFlag(body: ActionBody, name: string): boolean {
  const value = body.raw(name);
  if (value === undefined || value === null || value === false || value === 'false') return false;
  if (value === true || value === 'true') return true;
  throw new ValidationError(`${name} must be a boolean, got ${JSON.stringify(value)}`);
}
