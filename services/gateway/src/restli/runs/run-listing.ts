import type { Request, Response } from 'express';
import { ValidationError } from '@catalog/model';
import { MAX_RUNS_PAGE, type IngestionRuns } from '../../application/ingestion-runs.js';
import { requestContextOf } from '../../auth/request-context.js';
import { ActionBody } from '../action-body.js';
import { sendJson } from '../send-json.js';

/**
 * POST /runs?action=list {pageOffset=0, pageSize=100, includeSoft=false}: the runs the latest rows
 * carry, newest lastObserved first, as `{value: [{runId, rows, timestamp}]}`. The default run
 * (`no-run-id-provided`) is a run like the others; `rows` counts every row.
 */
export async function listRuns(req: Request, res: Response, runs: IngestionRuns): Promise<void> {
  const body = ActionBody.of(req);
  const page = {
    start: body.int('pageOffset', 0, { min: 0 }),
    limit: body.int('pageSize', 100, { min: 0, max: MAX_RUNS_PAGE }),
    includeSoft: readFlag(body, 'includeSoft'),
  };
  const listed = await runs.list(requestContextOf(res), page);
  sendJson(res, {
    value: listed.map((r) => ({ runId: r.runId, rows: r.rows, timestamp: r.lastObserved })),
  });
}

/**
 * POST /runs?action=describe {runId, start=0, count=100, includeSoft=false, includeAspect=false}: the
 * latest rows of the run, by urn then aspect, as `{value: [AspectRowSummary]}`.
 */
export async function describeRun(req: Request, res: Response, runs: IngestionRuns): Promise<void> {
  const body = ActionBody.of(req);
  const runId = body.requiredString('runId');
  const rows = await runs.describe(requestContextOf(res), runId, {
    start: body.int('start', 0, { min: 0 }),
    limit: body.int('count', 100, { min: 0, max: MAX_RUNS_PAGE }),
    includeSoft: readFlag(body, 'includeSoft'),
    includeAspect: readFlag(body, 'includeAspect'),
  });
  sendJson(res, { value: rows });
}

/**
 * POST /runs?action=rollback {runId, dryRun=false, safe?, hardDelete? (deprecated)}: hard when `safe`
 * is false, else when hardDelete is true; soft otherwise.
 */
export async function rollbackRunAction(req: Request, res: Response, runs: IngestionRuns): Promise<void> {
  const body = ActionBody.of(req);
  const runId = body.requiredString('runId');
  const dryRun = readFlag(body, 'dryRun');
  const safe = body.raw('safe');
  const hard = safe === undefined || safe === null ? readFlag(body, 'hardDelete') : !readFlag(body, 'safe');
  sendJson(res, { value: await runs.rollback(requestContextOf(res), { runId, dryRun, hard }) });
}

/** A boolean parameter (clients send true/false, some "true"/"false"); absent is false. */
export function readFlag(body: ActionBody, name: string): boolean {
  const value = body.raw(name);
  if (value === undefined || value === null || value === false || value === 'false') return false;
  if (value === true || value === 'true') return true;
  throw new ValidationError(`${name} must be a boolean, got ${JSON.stringify(value)}`);
}
