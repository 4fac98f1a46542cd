import type { Request, Response } from 'express';
import {
  checkProposal,
  describeProblems,
  isDomainError,
  SchemaValidationError,
  ValidationError,
  type CheckedProposal,
  type DomainError,
  type FieldProblem,
} from '@catalog/model';
import type { ProposalOutcome } from '@catalog/runtime';
import { sendJson } from './send-json.js';
import type { Proposals } from '../application/proposals.js';
import { requestContextOf } from '../auth/request-context.js';
import { RESTLI_STATUS, sendRestliError } from './restli-errors.js';

/** Header a client sets to be answered only once its writes are searchable (read-your-writes). */
export const WAIT_FOR_INDEX_HEADER = 'x-wait-for-index';

export interface IngestSettings {
  /** ASYNC_INGEST_DEFAULT: what an `async` of "unset" means. */
  readonly asyncDefault: boolean;
  readonly maxBatchProposals: number;
}

/** `async` is a string in the ecosystem ("true", "false", "unset"); booleans are accepted too. */
export function readAsyncFlag(raw: unknown, fallback: boolean): boolean {
  if (raw === undefined || raw === null || raw === 'unset') return fallback;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new ValidationError(`async must be "true", "false" or "unset", got ${JSON.stringify(raw)}`);
}

export interface IngestContext {
  /** The write use case: authorizes as the caller, then produces the proposals. */
  readonly proposals: Proposals;
  readonly settings: IngestSettings;
  /** Waits until the outcomes' change logs are indexed. */
  readonly waitForIndex: (outcomes: readonly ProposalOutcome[]) => Promise<void>;
}

export function wantsIndexWait(req: Request): boolean {
  const value = req.get(WAIT_FOR_INDEX_HEADER);
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new ValidationError(`Header X-Wait-For-Index must be true or false, got ${JSON.stringify(value)}`);
}

export async function ingestProposal(req: Request, res: Response, ctx: IngestContext): Promise<void> {
  const body = requireBody(req);
  const proposal = checkProposal(body['proposal'] ?? missing('proposal'));
  const waitIndex = wantsIndexWait(req);
  // Waiting for the index needs the outcome, so it makes the write synchronous.
  const sync = waitIndex || !readAsyncFlag(body['async'], ctx.settings.asyncDefault);
  const outcomes = await ctx.proposals.propose(requestContextOf(res), [proposal], { sync });
  const failure = outcomes?.find((o) => !o.ok);
  if (failure) {
    sendRestliError(res, statusOf(failure), failure.message ?? 'The proposal was rejected');
    return;
  }
  if (waitIndex && outcomes) await ctx.waitForIndex(outcomes);
  sendJson(res, { value: proposal.urn.raw });
}

export async function ingestProposalBatch(req: Request, res: Response, ctx: IngestContext): Promise<void> {
  const { settings } = ctx;
  const body = requireBody(req);
  const raw = body['proposals'] ?? missing('proposals');
  if (!Array.isArray(raw)) throw new ValidationError('proposals must be an array');
  if (raw.length > settings.maxBatchProposals) {
    throw new ValidationError(
      `proposals has ${raw.length} items; the maximum is ${settings.maxBatchProposals}`,
    );
  }
  const waitIndex = wantsIndexWait(req);
  const sync = waitIndex || !readAsyncFlag(body['async'], settings.asyncDefault);
  const checked = checkAll(raw);
  const outcomes = await ctx.proposals.propose(requestContextOf(res), checked, { sync });
  const failures = (outcomes ?? []).map((o, i) => ({ o, i })).filter(({ o }) => !o.ok);
  const first = failures[0];
  if (first) {
    const detail = failures.map(({ o, i }) => `proposals[${i}]: ${o.message ?? 'rejected'}`).join('; ');
    sendRestliError(
      res,
      statusOf(first.o),
      `${failures.length} of ${checked.length} proposals were rejected (the others were applied): ${detail}`,
    );
    return;
  }
  if (waitIndex && outcomes) await ctx.waitForIndex(outcomes);
  sendJson(res, { value: 'success' });
}

/** Checks every proposal before producing any, so a bad batch changes nothing; names each bad item. */
function checkAll(raw: readonly unknown[]): CheckedProposal[] {
  const checked: CheckedProposal[] = [];
  const errors: { index: number; error: DomainError }[] = [];
  raw.forEach((item, index) => {
    try {
      checked.push(checkProposal(item));
    } catch (error) {
      if (!isDomainError(error)) throw error;
      errors.push({ index, error });
    }
  });
  if (errors.length === 0) return checked;
  const message = errors.map(({ index, error }) => `proposals[${index}]: ${error.message}`).join('; ');
  if (errors.every(({ error }) => error instanceof SchemaValidationError)) {
    const problems: FieldProblem[] = errors.flatMap(({ index, error }) =>
      (error as SchemaValidationError).problems.map((p) => ({
        path: `proposals[${index}].${p.path}`,
        message: p.message,
      })),
    );
    throw new SchemaValidationError(`Invalid proposals: ${describeProblems(problems)}`, problems);
  }
  throw new ValidationError(`Invalid proposals: ${message}`);
}

function statusOf(outcome: ProposalOutcome): number {
  return outcome.code ? RESTLI_STATUS[outcome.code] : 500;
}

function requireBody(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError('The request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function missing(name: string): never {
  throw new ValidationError(`${name} is required`);
}
