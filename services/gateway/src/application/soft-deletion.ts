import { entityOperationPrivileges, type RequestContext } from '@catalog/auth';
import { ValidationError } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import { requireAnyOf } from './admin-privileges.js';
import { writeDecided } from './aspect-changes.js';
import { requireEntityUrn } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

/**
 * Soft deletion of assets by a user (batchUpdateSoftDeleted): each asset needs its type's delete
 * privileges on it, asked for every asset before anything is written, and must exist; then the `removed`
 * flag of each one's status is set, its other status fields kept.
 */
export class SoftDeletion {
  constructor(
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  async setSoftDeleted(ctx: RequestContext, urns: readonly string[], deleted: boolean): Promise<void> {
    const refs = urns.map(requireEntityUrn);
    for (const ref of refs)
      await requireAnyOf(this.policy, ctx, entityOperationPrivileges('DELETE', ref.entity), {
        resourceUrn: ref.urn,
      });
    const missing = await this.stored.missing(refs.map((r) => r.urn));
    if (missing.length > 0)
      throw new ValidationError(
        `Failed to soft delete entity with urn ${missing[0]!}. Entity does not exist.`,
      );
    await writeDecided(
      this.proposals,
      ctx,
      refs.map((ref) => ({
        urn: ref.urn,
        entityType: ref.entity,
        aspect: 'status',
        changeType: 'PATCH' as const,
        value: [{ op: 'add', path: '/removed', value: deleted }],
      })),
    );
  }
}
