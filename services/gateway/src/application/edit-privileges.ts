import type { RequestContext } from '@catalog/auth';
import type { AccessPolicy } from './access-policy.js';
import { requireAnyOf } from './admin-privileges.js';

/** What one kind of edit needs: any of `privileges` on each entity edited; a column edit, the column ones. */
export interface EditPrivileges {
  readonly privileges: readonly string[];
  readonly columnPrivileges?: readonly string[];
}

/** An entity an edit touches, and whether it edits one of its columns (a `subResource`). */
export interface EditTarget {
  readonly urn: string;
  readonly column: boolean;
}

/**
 * The ecosystem's privileges of each edit: the specific edit privilege or EDIT_ENTITY on every entity
 * touched, the column privilege for a column, the platform privilege for creations.
 */
export const EDIT_PRIVILEGES = {
  description: {
    privileges: ['EDIT_ENTITY_DOCS', 'EDIT_ENTITY'],
    columnPrivileges: ['EDIT_DATASET_COL_DESCRIPTION', 'EDIT_ENTITY'],
  },
  name: { privileges: ['EDIT_ENTITY', 'MANAGE_GLOSSARIES', 'MANAGE_DOMAINS'] },
  deprecation: { privileges: ['EDIT_DEPRECATION_PRIVILEGE', 'EDIT_ENTITY'] },
  links: { privileges: ['EDIT_ENTITY_DOC_LINKS', 'EDIT_ENTITY'] },
  domains: { privileges: ['EDIT_DOMAINS_PRIVILEGE', 'EDIT_ENTITY'] },
  tags: {
    privileges: ['EDIT_ENTITY_TAGS', 'EDIT_ENTITY'],
    columnPrivileges: ['EDIT_DATASET_COL_TAGS', 'EDIT_ENTITY'],
  },
  terms: {
    privileges: ['EDIT_ENTITY_GLOSSARY_TERMS', 'EDIT_ENTITY'],
    columnPrivileges: ['EDIT_DATASET_COL_GLOSSARY_TERMS', 'EDIT_ENTITY'],
  },
  owners: { privileges: ['EDIT_ENTITY_OWNERS', 'EDIT_ENTITY'] },
  properties: { privileges: ['EDIT_ENTITY_PROPERTIES', 'EDIT_ENTITY'] },
  createTag: { privileges: ['CREATE_TAGS', 'MANAGE_TAGS'] },
  deleteTag: { privileges: ['DELETE_ENTITY', 'MANAGE_TAGS'] },
  createDomain: { privileges: ['CREATE_DOMAINS', 'MANAGE_DOMAINS'] },
  manageGlossaries: { privileges: ['MANAGE_GLOSSARIES'] },
  manageStructuredProperties: { privileges: ['MANAGE_STRUCTURED_PROPERTIES'] },
} as const satisfies Readonly<Record<string, EditPrivileges>>;

/** The target of an edit of a resource a client named (a column when it names a subResource). */
export function editTargetOf(resource: {
  readonly resourceUrn: string;
  readonly subResource?: string | null;
}): EditTarget {
  return { urn: resource.resourceUrn, column: typeof resource.subResource === 'string' };
}

/**
 * Throws the ecosystem's 403 unless the actor may make the edit on every target (the platform privilege
 * when there is none), before anything about the targets is read.
 */
export async function requireEdit(
  policy: AccessPolicy,
  ctx: RequestContext,
  edit: EditPrivileges,
  targets: readonly EditTarget[] = [],
): Promise<void> {
  if (targets.length === 0) return requireAnyOf(policy, ctx, edit.privileges);
  for (const target of targets) {
    const privileges = target.column ? (edit.columnPrivileges ?? edit.privileges) : edit.privileges;
    await requireAnyOf(policy, ctx, privileges, { resourceUrn: target.urn });
  }
}
