import type { RequestContext } from '@catalog/auth';
import { checkProposal } from '@catalog/model';
import type { ProposalOutcome } from '@catalog/runtime';
import { errorOfOutcome } from '../ingest/outcome-error.js';
import type { Proposals } from './proposals.js';

/** One aspect write a use case makes: a whole value, a JSON patch, or a delete. */
export interface AspectChange {
  readonly urn: string;
  readonly entityType: string;
  readonly aspect: string;
  readonly changeType?: 'UPSERT' | 'DELETE' | 'CREATE' | 'PATCH';
  readonly value?: unknown;
}

/** A JSON pointer segment (RFC 6901): how patches key list entries by label, owner or value. */
export function pointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Writes the changes of a use case that decided its own privileges: checked proposals on the log with
 * the acting identity, answered when persistence reports every outcome. A rejected one becomes the
 * domain error of its code, so each interface answers with the ecosystem's code for it.
 */
export async function writeDecided(
  proposals: Proposals,
  ctx: RequestContext,
  changes: readonly AspectChange[],
): Promise<void> {
  await writeDecidedOutcomes(proposals, ctx, changes);
}

/** As writeDecided, answering with the outcomes (to wait until they are indexed). */
export async function writeDecidedOutcomes(
  proposals: Proposals,
  ctx: RequestContext,
  changes: readonly AspectChange[],
): Promise<readonly ProposalOutcome[]> {
  const checked = changes.map((c) =>
    checkProposal({
      entityType: c.entityType,
      entityUrn: c.urn,
      changeType: c.changeType ?? 'UPSERT',
      aspectName: c.aspect,
      ...(c.value === undefined
        ? {}
        : { aspect: { contentType: 'application/json', value: JSON.stringify(c.value) } }),
    }),
  );
  const outcomes = await proposals.submitDecided(ctx, checked, { sync: true });
  const failure = outcomes?.find((o) => !o.ok);
  if (failure) throw errorOfOutcome(failure);
  return outcomes ?? [];
}
