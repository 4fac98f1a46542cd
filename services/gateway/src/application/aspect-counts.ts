import type { RequestContext } from '@catalog/auth';
import { entityRegistry, ValidationError } from '@catalog/model';
import type { AspectStore } from '@catalog/store';
import type { AccessPolicy } from './access-policy.js';

/** The aspect names some entity type has (the key aspects included). */
const ASPECT_NAMES = new Set(
  entityRegistry.entities().flatMap((e) => [e.keyAspect, ...[...e.aspects.keys()]]),
);

/**
 * How many entities hold an aspect (its latest version), optionally among the urns matching a SQL LIKE
 * pattern: what the SDK's `get_aspect_counts` asks (`POST /aspects?action=getCount`). Needs the
 * ecosystem's COUNTS READ; a count names no entity.
 */
export class AspectCounts {
  constructor(
    private readonly store: AspectStore,
    private readonly policy: AccessPolicy,
  ) {}

  async count(ctx: RequestContext, aspect: string, urnLike?: string): Promise<number> {
    await this.policy.readCounts(ctx);
    if (!ASPECT_NAMES.has(aspect)) throw new ValidationError(`Unknown aspect ${JSON.stringify(aspect)}`);
    return this.store.count({ aspect, ...(urnLike === undefined ? {} : { urnLike }) });
  }
}
