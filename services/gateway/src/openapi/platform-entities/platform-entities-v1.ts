import { Router, type Request, type Response } from 'express';
import { checkProposal, isDomainError, ValidationError, type CheckedProposal } from '@catalog/model';
import type { Logger } from '@catalog/runtime';
import type { Proposals } from '../../application/proposals.js';
import { requestContextOf } from '../../auth/request-context.js';
import { jsonBodyParser } from '../../http/json-body.js';
import { errorOfOutcome } from '../../ingest/outcome-error.js';
import { readAsyncFlag } from '../../restli/ingest-proposal.js';
import { openApiErrorHandler } from '../openapi-errors.js';

export interface PlatformEntitiesDeps {
  readonly proposals: Proposals;
  readonly logger: Logger;
  readonly maxBodyBytes: number;
  readonly maxBatchProposals: number;
}

/**
 * `POST /openapi/v2/platform/entities/v1/` (the ecosystem's PlatformEntitiesController): a list of
 * MetadataChangeProposals whose `aspect.value` is the aspect as a JSON object (its `__type` tag left
 * out) or as a JSON string; answers the urns written, in order, once each. Synchronous unless
 * `async=true`. Every proposal is checked before any is written; a refused one is the answer's error.
 */
export function platformEntitiesRouter(deps: PlatformEntitiesDeps): Router {
  const router = Router();
  const json = jsonBodyParser({ limit: deps.maxBodyBytes });
  router.post(['/', ''], json, async (req: Request, res: Response) => {
    const body: unknown = req.body;
    if (!Array.isArray(body)) throw new ValidationError('The body must be a list of MetadataChangeProposals');
    if (body.length > deps.maxBatchProposals)
      throw new ValidationError(
        `The body has ${body.length} proposals; the maximum is ${deps.maxBatchProposals}`,
      );
    const checked: CheckedProposal[] = [];
    const problems: string[] = [];
    body.forEach((item, i) => {
      try {
        checked.push(checkProposal(withStringValue(item)));
      } catch (error) {
        if (!isDomainError(error)) throw error;
        problems.push(`[${i}]: ${error.message}`);
      }
    });
    if (problems.length > 0) throw new ValidationError(`Invalid proposals: ${problems.join('; ')}`);
    const sync = !readAsyncFlag(req.query['async'], false);
    const outcomes = await deps.proposals.propose(requestContextOf(res), checked, { sync });
    const failure = outcomes?.find((o) => !o.ok);
    if (failure) throw errorOfOutcome(failure);
    res.json([...new Set(checked.map((p) => p.urn.raw))]);
  });
  router.use(openApiErrorHandler(deps.logger));
  return router;
}

/** The wire proposal with `aspect.value` as the JSON string the proposal checks expect. */
function withStringValue(item: unknown): unknown {
  if (typeof item !== 'object' || item === null) return item;
  const proposal = item as Record<string, unknown>;
  const aspect = proposal['aspect'];
  if (typeof aspect !== 'object' || aspect === null) return item;
  const value = (aspect as Record<string, unknown>)['value'];
  if (typeof value !== 'object' || value === null) return item;
  const { __type: _type, ...rest } = value as Record<string, unknown>;
  return { ...proposal, aspect: { contentType: 'application/json', ...aspect, value: JSON.stringify(rest) } };
}
