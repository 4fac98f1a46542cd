import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import type { GraphQLContext } from './context.js';
import { requirePrivilege } from './authorization.js';

type Args = Record<string, unknown>;

/** What one mutation needs: any of `privileges`, on each resource it names (none: a platform privilege). */
interface MutationPrivilege {
  readonly privileges: readonly string[];
  /** Column-level edits (a `subResource`) accept these instead. */
  readonly columnPrivileges?: readonly string[];
  readonly resources?: (args: Args) => readonly { readonly urn: string; readonly column: boolean }[];
}

const input = (args: Args): Args => (args['input'] ?? {}) as Args;
const one =
  (field: string, from: (args: Args) => Args = input) =>
  (args: Args) => {
    const value = from(args);
    const urn = value[field];
    return typeof urn === 'string' ? [{ urn, column: typeof value['subResource'] === 'string' }] : [];
  };
const many = (args: Args) =>
  ((input(args)['resources'] ?? []) as Args[]).flatMap((r) =>
    typeof r?.['resourceUrn'] === 'string'
      ? [{ urn: r['resourceUrn'], column: typeof r['subResource'] === 'string' }]
      : [],
  );
const top = (args: Args) => args;

const TAGS = {
  privileges: ['EDIT_ENTITY_TAGS', 'EDIT_ENTITY'],
  columnPrivileges: ['EDIT_DATASET_COL_TAGS', 'EDIT_ENTITY'],
};
const TERMS = {
  privileges: ['EDIT_ENTITY_GLOSSARY_TERMS', 'EDIT_ENTITY'],
  columnPrivileges: ['EDIT_DATASET_COL_GLOSSARY_TERMS', 'EDIT_ENTITY'],
};
const OWNERS = { privileges: ['EDIT_ENTITY_OWNERS', 'EDIT_ENTITY'] };

/**
 * The privilege of each GraphQL mutation of the entity, label and structured-property slices, checked in
 * one place before its resolver runs (the ecosystem's checks: the specific edit privilege or EDIT_ENTITY
 * on every resource, the column privilege for a column, the platform privilege for creations). The
 * identity slices (tokens, users, policies, invites) check inside their resolvers, because who may
 * depends on the arguments (one's own token, one's own filter).
 */
export const MUTATION_PRIVILEGES: Readonly<Record<string, MutationPrivilege>> = {
  updateDescription: {
    privileges: ['EDIT_ENTITY_DOCS', 'EDIT_ENTITY'],
    columnPrivileges: ['EDIT_DATASET_COL_DESCRIPTION', 'EDIT_ENTITY'],
    resources: one('resourceUrn'),
  },
  updateName: { privileges: ['EDIT_ENTITY', 'MANAGE_GLOSSARIES', 'MANAGE_DOMAINS'], resources: one('urn') },
  updateDeprecation: { privileges: ['EDIT_DEPRECATION_PRIVILEGE', 'EDIT_ENTITY'], resources: one('urn') },
  addLink: { privileges: ['EDIT_ENTITY_DOC_LINKS', 'EDIT_ENTITY'], resources: one('resourceUrn') },
  removeLink: { privileges: ['EDIT_ENTITY_DOC_LINKS', 'EDIT_ENTITY'], resources: one('resourceUrn') },
  setDomain: { privileges: ['EDIT_DOMAINS_PRIVILEGE', 'EDIT_ENTITY'], resources: one('entityUrn', top) },
  unsetDomain: { privileges: ['EDIT_DOMAINS_PRIVILEGE', 'EDIT_ENTITY'], resources: one('entityUrn', top) },
  addTag: { ...TAGS, resources: one('resourceUrn') },
  addTags: { ...TAGS, resources: one('resourceUrn') },
  removeTag: { ...TAGS, resources: one('resourceUrn') },
  batchAddTags: { ...TAGS, resources: many },
  batchRemoveTags: { ...TAGS, resources: many },
  addTerm: { ...TERMS, resources: one('resourceUrn') },
  addTerms: { ...TERMS, resources: one('resourceUrn') },
  removeTerm: { ...TERMS, resources: one('resourceUrn') },
  batchAddTerms: { ...TERMS, resources: many },
  batchRemoveTerms: { ...TERMS, resources: many },
  addOwner: { ...OWNERS, resources: one('resourceUrn') },
  addOwners: { ...OWNERS, resources: one('resourceUrn') },
  removeOwner: { ...OWNERS, resources: one('resourceUrn') },
  batchAddOwners: { ...OWNERS, resources: many },
  batchRemoveOwners: { ...OWNERS, resources: many },
  createTag: { privileges: ['CREATE_TAGS', 'MANAGE_TAGS'] },
  deleteTag: { privileges: ['DELETE_ENTITY', 'MANAGE_TAGS'], resources: one('urn', top) },
  createDomain: { privileges: ['CREATE_DOMAINS', 'MANAGE_DOMAINS'] },
  createGroup: { privileges: ['CREATE_GROUPS', 'CREATE_USERS_AND_GROUPS', 'MANAGE_USERS_AND_GROUPS'] },
  createGlossaryTerm: { privileges: ['MANAGE_GLOSSARIES'] },
  createGlossaryNode: { privileges: ['MANAGE_GLOSSARIES'] },
  upsertStructuredProperties: {
    privileges: ['EDIT_ENTITY_PROPERTIES', 'EDIT_ENTITY'],
    resources: one('assetUrn'),
  },
  removeStructuredProperties: {
    privileges: ['EDIT_ENTITY_PROPERTIES', 'EDIT_ENTITY'],
    resources: one('assetUrn'),
  },
  createStructuredProperty: { privileges: ['MANAGE_STRUCTURED_PROPERTIES'] },
  updateStructuredProperty: { privileges: ['MANAGE_STRUCTURED_PROPERTIES'] },
  deleteStructuredProperty: { privileges: ['MANAGE_STRUCTURED_PROPERTIES'] },
  createTest: { privileges: ['MANAGE_TESTS'] },
  updateTest: { privileges: ['MANAGE_TESTS'] },
  deleteTest: { privileges: ['MANAGE_TESTS'] },
};

/** Wraps each listed mutation's resolver with its privilege check (a 403 GraphQL error when refused). */
export function guardMutations(schema: GraphQLSchema): GraphQLSchema {
  const fields = schema.getMutationType()?.getFields() ?? {};
  for (const [name, field] of Object.entries(fields)) {
    const rule = MUTATION_PRIVILEGES[name];
    if (rule === undefined) continue;
    const resolve = field.resolve ?? defaultFieldResolver;
    field.resolve = async (root, args: Args, ctx: GraphQLContext, info) => {
      const resources = rule.resources?.(args) ?? [];
      if (resources.length === 0) await requirePrivilege(ctx, rule.privileges);
      for (const resource of resources) {
        await requirePrivilege(
          ctx,
          resource.column ? (rule.columnPrivileges ?? rule.privileges) : rule.privileges,
          resource.urn,
        );
      }
      return resolve(root, args, ctx, info);
    };
  }
  return schema;
}
