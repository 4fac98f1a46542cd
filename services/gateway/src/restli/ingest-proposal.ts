import type { Request, Response, Router } from 'express';
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
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';
import { RESTLI_STATUS, sendRestliError } from './restli-errors.js';

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

export async function ingestProposal(
  req: Request,
  res: Response,
  submitter: ProposalSubmitter,
  settings: IngestSettings,
  actor: string,
): Promise<void> {
  const body = requireBody(req);
  const proposal = checkProposal(body['proposal'] ?? missing('proposal'));
  const sync = !readAsyncFlag(body['async'], settings.asyncDefault);
  const outcomes = await submitter.submit([proposal], { sync, actor });
  const failure = outcomes?.find((o) => !o.ok);
  if (failure) {
    sendRestliError(res, statusOf(failure), failure.message ?? 'The proposal was rejected');
    return;
  }
  res.json({ value: proposal.urn.raw });
}

export async function ingestProposalBatch(
  req: Request,
  res: Response,
  submitter: ProposalSubmitter,
  settings: IngestSettings,
  actor: string,
): Promise<void> {
  const body = requireBody(req);
  const raw = body['proposals'] ?? missing('proposals');
  if (!Array.isArray(raw)) throw new ValidationError('proposals must be an array');
  if (raw.length > settings.maxBatchProposals) {
    throw new ValidationError(
      `proposals has ${raw.length} items; the maximum is ${settings.maxBatchProposals}`,
    );
  }
  const sync = !readAsyncFlag(body['async'], settings.asyncDefault);
  const checked = checkAll(raw);
  const outcomes = checked.length > 0 ? await submitter.submit(checked, { sync, actor }) : [];
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
  res.json({ value: 'success' });
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

export type IngestRoutes = Router;
