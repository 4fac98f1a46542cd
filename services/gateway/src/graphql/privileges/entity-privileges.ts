import { ENTITY_EDIT_PRIVILEGES } from '../../application/entity-privileges.js';
import type { GraphQLContext } from '../context.js';
import type { EntityRef } from '../entities/entity-ref.js';

/** The entity types whose ecosystem type has `privileges: EntityPrivileges` and that this schema has. */
const TYPES_WITH_PRIVILEGES = [
  'BusinessAttribute',
  'Chart',
  'Container',
  'CorpGroup',
  'CorpUser',
  'Dashboard',
  'DataFlow',
  'DataJob',
  'DataProduct',
  'Dataset',
  'Document',
  'Domain',
  'ERModelRelationship',
  'GlossaryNode',
  'GlossaryTerm',
  'MLFeature',
  'MLFeatureTable',
  'MLModel',
  'MLModelGroup',
  'MLPrimaryKey',
] as const;

/**
 * The ecosystem's `EntityPrivileges` (the edits the actor may make on an entity, which its UI asks to
 * show or hide edit controls), with the fields whose edits this catalog has; each is what that edit's
 * mutation would decide.
 */
export const entityPrivilegesSchema = `
type EntityPrivileges { ${ENTITY_EDIT_PRIVILEGES.map((p) => `${p}: Boolean`).join(' ')} }
${TYPES_WITH_PRIVILEGES.map((t) => `extend type ${t} { privileges: EntityPrivileges }`).join('\n')}
`;

const privileges = (entity: EntityRef, _args: unknown, ctx: GraphQLContext) =>
  ctx.services.app.entityPrivileges.of(ctx.auth, entity.urn);

export function entityPrivilegesResolvers(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(TYPES_WITH_PRIVILEGES.map((type) => [type, { privileges }]));
}
