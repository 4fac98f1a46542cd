import { checkProposal } from '@catalog/model';
import { errorOfOutcome } from '../../ingest/outcome-error.js';
import type { GraphQLContext } from '../context.js';

/** One aspect write a mutation makes. */
export interface AspectChange {
  readonly urn: string;
  readonly entityType: string;
  readonly aspect: string;
  readonly changeType?: 'UPSERT' | 'DELETE' | 'CREATE' | 'PATCH';
  readonly value?: unknown;
}

/**
 * Writes through the same path as the Rest.li routes: checked proposals on the log, answered when
 * persistence reports every outcome, the caller as actor. A rejected one becomes the domain error of its
 * code, so the GraphQL error carries the ecosystem's code for it.
 */
export async function writeAspects(ctx: GraphQLContext, changes: readonly AspectChange[]): Promise<void> {
  const proposals = changes.map((c) =>
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
  const outcomes = await ctx.services.submitter.submit(proposals, {
    sync: true,
    actor: ctx.actor,
    origin: ctx.auth.origin,
  });
  for (const change of changes) ctx.entities.clear(change.urn);
  const failure = outcomes?.find((o) => !o.ok);
  if (failure) throw errorOfOutcome(failure);
}
