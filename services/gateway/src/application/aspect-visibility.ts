import type { RequestContext } from '@catalog/auth';
import { isRestrictedAspect } from '@catalog/model';
import type { AspectStore, StoredAspect } from '@catalog/store';
import { hideSoftDeletedPropertyValues } from './soft-deleted-property-values.js';

/** A stored aspect as the application hands it to interfaces (the store's shape, re-exported as domain data). */
export type { StoredAspect } from '@catalog/store';

type Aspects = readonly StoredAspect[];

/**
 * The aspect names worth reading for the actor: restricted ones (secret material) asked by anyone but
 * the system actor are not read at all. `undefined` (every aspect) stays as it is: the restricted ones
 * are dropped after the read.
 */
export function namesReadableBy(
  ctx: RequestContext,
  names: readonly string[] | undefined,
): readonly string[] | undefined {
  if (names === undefined || ctx.authentication.isSystem) return names;
  return names.some(isRestrictedAspect) ? names.filter((n) => !isRestrictedAspect(n)) : names;
}

/**
 * What leaves the store for the actor, in the order given: restricted aspects dropped unless the system
 * actor asks, values of soft-deleted structured properties hidden (one status read for all the lists).
 */
export async function visibleToActor(
  ctx: RequestContext,
  store: AspectStore,
  lists: readonly Aspects[],
): Promise<readonly Aspects[]> {
  const unrestricted = ctx.authentication.isSystem ? lists : lists.map(withoutRestricted);
  return hideSoftDeletedPropertyValues(store, unrestricted);
}

function withoutRestricted(aspects: Aspects): Aspects {
  return aspects.some((a) => isRestrictedAspect(a.aspect))
    ? aspects.filter((a) => !isRestrictedAspect(a.aspect))
    : aspects;
}
