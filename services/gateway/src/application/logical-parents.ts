import type { RequestContext } from '@catalog/auth';
import { entityOperationPrivileges } from '@catalog/auth';
import { ForbiddenError, parseUrn } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import { writeDecided } from './aspect-changes.js';
import { logicalParentCandidates } from './aspect-write-rules.js';
import { requireUrnOf } from './entity-urns.js';
import type { Proposals } from './proposals.js';

/** The entity types that may have a logical parent (the aspect's relationship targets). */
const LINKABLE = ['dataset', 'schemaField'];

/**
 * Physical assets' logical parents (the `logicalParent` aspect). Setting one needs the edit privilege
 * on both the child and the parent, each side decided on its own (a schema field by its containing
 * dataset or by itself); clearing one, on the child only. The ecosystem's rule, from its aspect
 * authorization validator.
 */
export class LogicalParents {
  constructor(
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  async set(ctx: RequestContext, resourceUrn: string, parentUrn: string | null): Promise<void> {
    const child = requireUrnOf(resourceUrn, LINKABLE, 'resourceUrn');
    const parent = parentUrn === null ? undefined : requireUrnOf(parentUrn, LINKABLE, 'parentUrn');
    for (const side of parent === undefined ? [child] : [child, parent])
      if (!(await this.mayEdit(ctx, side.urn))) throw new ForbiddenError(UNAUTHORIZED_MESSAGE);
    const stamp = { time: Date.now(), actor: ctx.authentication.actorUrn };
    await writeDecided(this.proposals, ctx, [
      {
        urn: child.urn,
        entityType: child.entity,
        aspect: 'logicalParent',
        value:
          parent === undefined
            ? {}
            : { parent: { destinationUrn: parent.urn, created: stamp, lastModified: stamp } },
      },
    ]);
  }

  private async mayEdit(ctx: RequestContext, urn: string): Promise<boolean> {
    for (const candidate of logicalParentCandidates(urn)) {
      const type = parseUrn(candidate).entityType;
      if (await this.policy.holds(ctx, entityOperationPrivileges('UPDATE', type), { resourceUrn: candidate }))
        return true;
    }
    return false;
  }
}
