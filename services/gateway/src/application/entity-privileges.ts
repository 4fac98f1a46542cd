import type { RequestContext } from '@catalog/auth';
import type { AccessPolicy } from './access-policy.js';
import { EDIT_PRIVILEGES, type EditPrivileges } from './edit-privileges.js';

/** The edits a client asks about, each with what the edit's own check requires (EDIT_PRIVILEGES). */
const EDITS = {
  canEditTags: EDIT_PRIVILEGES.tags,
  canEditGlossaryTerms: EDIT_PRIVILEGES.terms,
  canEditOwners: EDIT_PRIVILEGES.owners,
  canEditDescription: EDIT_PRIVILEGES.description,
  canEditDomains: EDIT_PRIVILEGES.domains,
  canEditLinks: EDIT_PRIVILEGES.links,
  canEditDeprecation: EDIT_PRIVILEGES.deprecation,
  canEditProperties: EDIT_PRIVILEGES.properties,
  canEditSchemaFieldTags: columnOf(EDIT_PRIVILEGES.tags),
  canEditSchemaFieldGlossaryTerms: columnOf(EDIT_PRIVILEGES.terms),
  canEditSchemaFieldDescription: columnOf(EDIT_PRIVILEGES.description),
} as const;

function columnOf(edit: EditPrivileges): readonly string[] {
  return edit.columnPrivileges ?? edit.privileges;
}

function privilegesOf(edit: EditPrivileges | readonly string[]): readonly string[] {
  return 'privileges' in edit ? edit.privileges : edit;
}

export type EntityEditPrivilege = keyof typeof EDITS;

/**
 * Which edits of an entity the actor may make, so a client shows only the controls that would work.
 * Each answer is the question the edit's own check asks (`requireEdit` with EDIT_PRIVILEGES) on the
 * same entity, so a control shown is a mutation allowed and a control hidden is one refused.
 */
export class EntityPrivileges {
  constructor(private readonly policy: AccessPolicy) {}

  async of(ctx: RequestContext, urn: string): Promise<Record<EntityEditPrivilege, boolean>> {
    const names = Object.keys(EDITS) as EntityEditPrivilege[];
    const held = await Promise.all(
      names.map((name) => this.policy.holds(ctx, privilegesOf(EDITS[name]), { resourceUrn: urn })),
    );
    return Object.fromEntries(names.map((name, i) => [name, held[i] === true])) as Record<
      EntityEditPrivilege,
      boolean
    >;
  }
}

/** The names of the edits `of` answers, in the order a schema lists them. */
export const ENTITY_EDIT_PRIVILEGES = Object.keys(EDITS) as readonly EntityEditPrivilege[];
