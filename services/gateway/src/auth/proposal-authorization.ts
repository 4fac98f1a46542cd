import type { Response } from 'express';
import { entityOperationPrivileges } from '@catalog/auth';
import { ForbiddenError, type CheckedProposal } from '@catalog/model';
import type { AspectStore } from '@catalog/store';
import type { GatewayAuth } from './gateway-auth.js';
import { requestContextOf } from './request-context.js';
import { unlessUnavailable } from './auth-unavailable.js';

/**
 * Whether the caller may make these writes, asked once per entity and kind of change (the ecosystem's
 * rule for ingestProposal): DELETE needs the delete privileges; PATCH, UPDATE and RESTATE the edit ones;
 * an UPSERT or CREATE the edit ones, or the create ones when the entity does not exist yet (read only
 * when the edit privileges are missing). Throws a 403 naming the first entity refused.
 */
export async function authorizeProposals(
  auth: GatewayAuth,
  store: AspectStore,
  res: Response,
  proposals: readonly CheckedProposal[],
): Promise<void> {
  if (!auth.settings.restApiAuthorization) return;
  const { authentication } = requestContextOf(res);
  if (authentication.isSystem) return;
  const actorUrn = authentication.actorUrn;
  const asked = new Set<string>();
  for (const proposal of proposals) {
    const urn = proposal.urn.raw;
    const entityType = proposal.entity.name;
    const kind = proposal.changeType === 'DELETE' ? 'DELETE' : 'WRITE';
    if (asked.has(`${kind} ${urn}`)) continue;
    asked.add(`${kind} ${urn}`);
    const allowed = (operation: 'UPDATE' | 'DELETE' | 'CREATE') =>
      unlessUnavailable('Authorization could not be decided', () =>
        auth.authorizer.isAllowed({
          actorUrn,
          privileges: entityOperationPrivileges(operation, entityType),
          resourceUrn: urn,
        }),
      );
    if (kind === 'DELETE') {
      if (!(await allowed('DELETE')))
        throw new ForbiddenError(`User is unauthorized to delete entity: ${urn}`);
      continue;
    }
    if (await allowed('UPDATE')) continue;
    const creates = ['UPSERT', 'CREATE', 'CREATE_ENTITY'].includes(proposal.changeType);
    if (creates && (await allowed('CREATE'))) {
      const key = await unlessUnavailable('Authorization could not be decided', () =>
        store.get(urn, proposal.entity.keyAspect),
      );
      if (key === null) continue;
    }
    throw new ForbiddenError(`User ${actorUrn} is unauthorized to edit entity ${urn}`);
  }
}
