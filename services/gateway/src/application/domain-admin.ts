import type { RequestContext } from '@catalog/auth';
import { ForbiddenError, ValidationError } from '@catalog/model';
import type { SearchIndex } from '@catalog/search';
import type { AccessPolicy } from './access-policy.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import { writeDecided } from './aspect-changes.js';
import { requireUrnOfType } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

const ENTITY = 'domain';
const PROPERTIES = 'domainProperties';
/** Child candidates read from the index per delete (a domain with more children is refused anyway). */
const CHILD_CANDIDATES = 100;
/** Parent domains followed this far up (a cycle stops there too). */
const MAX_PARENT_DEPTH = 50;

/**
 * Deleting and moving domains. Deleting needs MANAGE_DOMAINS, or the delete privilege on the domain,
 * and is refused (400) while the domain has child domains; moving needs MANAGE_DOMAINS and refuses a
 * move under the domain itself or one of its descendants. Children are those the index lists with the
 * domain as parent and the store confirms: a child deleted a moment ago still in the index does not
 * block its parent's delete.
 */
export class DomainAdmin {
  constructor(
    private readonly stored: StoredEntities,
    private readonly search: SearchIndex,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  async delete(ctx: RequestContext, urn: string): Promise<void> {
    const domain = requireUrnOfType(urn, ENTITY);
    const allowed =
      (await this.policy.holds(ctx, ['MANAGE_DOMAINS'])) ||
      (await this.policy.holds(ctx, ['DELETE_ENTITY'], { resourceUrn: domain }));
    if (!allowed) throw new ForbiddenError(UNAUTHORIZED_MESSAGE);
    if (await this.hasChildren(domain))
      throw new ValidationError(`Cannot delete domain ${domain} which has child domains`);
    if (!(await this.stored.exists(domain))) return;
    await writeDecided(this.proposals, ctx, [
      { urn: domain, entityType: ENTITY, aspect: 'domainKey', changeType: 'DELETE' },
    ]);
  }

  /** Moves a domain under another (or to the root when `parentDomain` is null). */
  async move(ctx: RequestContext, urn: string, parentDomain: string | null): Promise<void> {
    const domain = requireUrnOfType(urn, ENTITY);
    if (!(await this.policy.holds(ctx, ['MANAGE_DOMAINS']))) throw new ForbiddenError(UNAUTHORIZED_MESSAGE);
    if (!(await this.stored.exists(domain))) throw new ValidationError(`Domain ${domain} does not exist`);
    if (parentDomain !== null) {
      const parent = requireUrnOfType(parentDomain, ENTITY);
      if (!(await this.stored.exists(parent)))
        throw new ValidationError(`Parent domain ${parent} does not exist`);
      if (parent === domain || (await this.ancestors(parent)).includes(domain))
        throw new ValidationError('Cannot move a domain under itself or one of its descendants');
    }
    await writeDecided(this.proposals, ctx, [
      {
        urn: domain,
        entityType: ENTITY,
        aspect: PROPERTIES,
        changeType: 'PATCH',
        value: [
          parentDomain === null
            ? { op: 'remove', path: '/parentDomain' }
            : { op: 'add', path: '/parentDomain', value: parentDomain },
        ],
      },
    ]);
  }

  /** The parent domains of a domain, nearest first, as stored (the chain stops at a cycle). */
  async ancestors(urn: string): Promise<string[]> {
    const chain: string[] = [];
    let next = (await this.stored.aspect(urn, PROPERTIES))?.['parentDomain'];
    while (
      typeof next === 'string' &&
      next !== urn &&
      !chain.includes(next) &&
      chain.length < MAX_PARENT_DEPTH
    ) {
      chain.push(next);
      next = (await this.stored.aspect(next, PROPERTIES))?.['parentDomain'];
    }
    return chain;
  }

  private async hasChildren(domain: string): Promise<boolean> {
    const found = await this.search.search({
      entityTypes: [ENTITY],
      input: '*',
      filter: { or: [{ and: [{ field: 'parentDomain', values: [domain], condition: 'EQUAL' }] }] },
      start: 0,
      count: CHILD_CANDIDATES,
    });
    for (const hit of found.hits) {
      const parent = (await this.stored.aspect(hit.urn, PROPERTIES))?.['parentDomain'];
      if (parent === domain) return true;
    }
    return false;
  }
}
