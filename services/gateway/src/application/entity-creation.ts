import type { RequestContext } from '@catalog/auth';
import { formatUrn, ValidationError } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import { writeDecided } from './aspect-changes.js';
import { EDIT_PRIVILEGES, requireEdit } from './edit-privileges.js';
import { newIdOf, requireEntityUrn } from './entity-urns.js';
import type { Proposals } from './proposals.js';

/** What creating a tag, domain or glossary entity asks for. */
export interface CreationInput {
  readonly id?: string | null;
  readonly name: string;
  readonly description?: string | null;
}

/** `urn` when it is a URN of `entity`, for the parent fields of the create inputs. */
function parentOf(urn: string | null | undefined, entity: string, field: string): string | undefined {
  if (urn === undefined || urn === null) return undefined;
  if (requireEntityUrn(urn).entity !== entity)
    throw new ValidationError(`${field} must be a ${entity} urn, got ${JSON.stringify(urn)}`);
  return urn;
}

/**
 * Creating the entities users organize the catalog with (tags, domains, glossary terms and nodes), and
 * deleting tags: each takes its platform privilege (deleting a tag: DELETE_ENTITY or MANAGE_TAGS on it).
 * Each returns the new entity's urn: the id asked for, or a new UUID.
 */
export class EntityCreation {
  constructor(
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  async createTag(ctx: RequestContext, input: CreationInput): Promise<string> {
    await requireEdit(this.policy, ctx, EDIT_PRIVILEGES.createTag);
    const urn = formatUrn('tag', [newIdOf(input.id)]);
    const value = { name: input.name, description: input.description };
    await writeDecided(this.proposals, ctx, [{ urn, entityType: 'tag', aspect: 'tagProperties', value }]);
    return urn;
  }

  async deleteTag(ctx: RequestContext, urn: string): Promise<void> {
    await requireEdit(this.policy, ctx, EDIT_PRIVILEGES.deleteTag, [{ urn, column: false }]);
    if (requireEntityUrn(urn).entity !== 'tag')
      throw new ValidationError(`deleteTag takes a tag urn, got ${JSON.stringify(urn)}`);
    await writeDecided(this.proposals, ctx, [
      { urn, entityType: 'tag', aspect: 'tagKey', changeType: 'DELETE' },
    ]);
  }

  async createDomain(ctx: RequestContext, input: CreationInput & { readonly parentDomain?: string | null }) {
    await requireEdit(this.policy, ctx, EDIT_PRIVILEGES.createDomain);
    const urn = formatUrn('domain', [newIdOf(input.id)]);
    const parentDomain = parentOf(input.parentDomain, 'domain', 'parentDomain');
    const value = { name: input.name, description: input.description, parentDomain };
    await writeDecided(this.proposals, ctx, [
      { urn, entityType: 'domain', aspect: 'domainProperties', value },
    ]);
    return urn;
  }

  async createGlossaryTerm(
    ctx: RequestContext,
    input: CreationInput & { readonly parentNode?: string | null },
  ) {
    await requireEdit(this.policy, ctx, EDIT_PRIVILEGES.manageGlossaries);
    const urn = formatUrn('glossaryTerm', [newIdOf(input.id)]);
    const parentNode = parentOf(input.parentNode, 'glossaryNode', 'parentNode');
    const value = {
      name: input.name,
      definition: input.description ?? '',
      termSource: 'INTERNAL',
      parentNode,
    };
    await writeDecided(this.proposals, ctx, [
      { urn, entityType: 'glossaryTerm', aspect: 'glossaryTermInfo', value },
    ]);
    return urn;
  }

  async createGlossaryNode(
    ctx: RequestContext,
    input: CreationInput & { readonly parentNode?: string | null },
  ) {
    await requireEdit(this.policy, ctx, EDIT_PRIVILEGES.manageGlossaries);
    const urn = formatUrn('glossaryNode', [newIdOf(input.id)]);
    const parentNode = parentOf(input.parentNode, 'glossaryNode', 'parentNode');
    const value = { name: input.name, definition: input.description ?? '', parentNode };
    await writeDecided(this.proposals, ctx, [
      { urn, entityType: 'glossaryNode', aspect: 'glossaryNodeInfo', value },
    ]);
    return urn;
  }
}
