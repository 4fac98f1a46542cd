import type { RequestContext } from '@catalog/auth';
import { checkProposal } from '@catalog/model';
import type { ProposalOutcome } from '@catalog/runtime';
import { errorOfOutcome } from '../ingest/outcome-error.js';
import type { AspectChange } from './aspect-changes.js';
import type { Proposals } from './proposals.js';

/** Waits until the outcomes' change logs are indexed. */
export type WaitForIndex = (outcomes: readonly ProposalOutcome[]) => Promise<void>;

/**
 * Writes the upserts of a use case that decided its own privileges, in one append as the actor,
 * answered once stored and indexed (the ecosystem's synchronous index mode): a search right after the
 * write finds it. A rejected one becomes the domain error of its code.
 */
export async function writeIndexed(
  proposals: Proposals,
  waitForIndex: WaitForIndex,
  ctx: RequestContext,
  changes: readonly AspectChange[],
): Promise<void> {
  const checked = changes.map((c) =>
    checkProposal({
      entityType: c.entityType,
      entityUrn: c.urn,
      changeType: 'UPSERT',
      aspectName: c.aspect,
      aspect: { contentType: 'application/json', value: JSON.stringify(c.value) },
    }),
  );
  const outcomes = (await proposals.submitDecided(ctx, checked, { sync: true })) ?? [];
  const failure = outcomes.find((o) => !o.ok);
  if (failure) throw errorOfOutcome(failure);
  await waitForIndex(outcomes);
}
