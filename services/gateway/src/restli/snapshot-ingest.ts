import type { Request, Response } from 'express';
import { ValidationError, type CheckedProposal } from '@catalog/model';
import { requestContextOf } from '../auth/request-context.js';
import { wantsIndexWait, type IngestContext } from './ingest-proposal.js';
import { RESTLI_STATUS, sendRestliError } from './restli-errors.js';

/**
 * Writes the proposals of a legacy snapshot ingest as the caller (authorized as ingestProposal is:
 * create or edit per entity), synchronously as the ecosystem's `ingest` is, and answers 200 with an
 * empty body (the action returns void). A proposal persistence refuses is reported with its status.
 */
export async function submitSnapshotProposals(
  req: Request,
  res: Response,
  ctx: IngestContext,
  proposals: readonly CheckedProposal[],
): Promise<void> {
  if (proposals.length > ctx.settings.maxBatchProposals) {
    throw new ValidationError(
      `The request carries ${proposals.length} aspects; the maximum is ${ctx.settings.maxBatchProposals}`,
    );
  }
  const waitIndex = wantsIndexWait(req);
  const outcomes = await ctx.proposals.propose(requestContextOf(res), proposals, { sync: true });
  const failures = (outcomes ?? []).map((o, i) => ({ o, i })).filter(({ o }) => !o.ok);
  const first = failures[0];
  if (first) {
    const detail = failures
      .map(({ o, i }) => `${proposals[i]!.urn.raw} ${proposals[i]!.aspect.name}: ${o.message ?? 'rejected'}`)
      .join('; ');
    sendRestliError(
      res,
      first.o.code ? RESTLI_STATUS[first.o.code] : 500,
      `${failures.length} of ${proposals.length} aspects were rejected (the others were applied): ${detail}`,
    );
    return;
  }
  if (waitIndex && outcomes) await ctx.waitForIndex(outcomes);
  res.status(200).end();
}
