import { ValidationError } from '@catalog/model';
import type { GraphQLContext } from '../context.js';
import { requireRef, type EntityRef } from '../entities/entity-ref.js';
import { writeAspects, type AspectChange } from './write-proposals.js';

/**
 * Tags, glossary terms and owners on entities and schema fields. Each change is a PATCH proposal keyed
 * by the label (tag, term, owner and type), applied by persistence to the latest stored value, so two
 * users labelling one entity at once both keep their label.
 */
export const labelMutationSchema = `
enum SubResourceType { DATASET_FIELD }
enum OwnerEntityType { CORP_USER CORP_GROUP }

input ResourceRefInput { resourceUrn: String! subResourceType: SubResourceType subResource: String }
input TagAssociationInput { tagUrn: String! resourceUrn: String! subResourceType: SubResourceType subResource: String }
input AddTagsInput { tagUrns: [String!]! resourceUrn: String! subResourceType: SubResourceType subResource: String }
input BatchAddTagsInput { tagUrns: [String!]! resources: [ResourceRefInput!]! }
input BatchRemoveTagsInput { tagUrns: [String!]! resources: [ResourceRefInput!]! }
input TermAssociationInput { termUrn: String! resourceUrn: String! subResourceType: SubResourceType subResource: String }
input AddTermsInput { termUrns: [String!]! resourceUrn: String! subResourceType: SubResourceType subResource: String }
input BatchAddTermsInput { termUrns: [String!]! resources: [ResourceRefInput!]! }
input BatchRemoveTermsInput { termUrns: [String!]! resources: [ResourceRefInput!]! }
input OwnerInput { ownerUrn: String! ownerEntityType: OwnerEntityType! type: OwnershipType ownershipTypeUrn: String }
input AddOwnerInput {
  ownerUrn: String!
  ownerEntityType: OwnerEntityType!
  type: OwnershipType
  ownershipTypeUrn: String
  resourceUrn: String!
}
input AddOwnersInput { owners: [OwnerInput!]! resourceUrn: String! }
input RemoveOwnerInput { ownerUrn: String! ownershipTypeUrn: String resourceUrn: String! }
input BatchAddOwnersInput { owners: [OwnerInput!]! ownershipTypeUrn: String resources: [ResourceRefInput!]! }
input BatchRemoveOwnersInput { ownerUrns: [String!]! ownershipTypeUrn: String resources: [ResourceRefInput]! }

extend type Mutation {
  addTag(input: TagAssociationInput!): Boolean
  addTags(input: AddTagsInput!): Boolean
  removeTag(input: TagAssociationInput!): Boolean
  batchAddTags(input: BatchAddTagsInput!): Boolean
  batchRemoveTags(input: BatchRemoveTagsInput!): Boolean
  addTerm(input: TermAssociationInput!): Boolean
  addTerms(input: AddTermsInput!): Boolean
  removeTerm(input: TermAssociationInput!): Boolean
  batchAddTerms(input: BatchAddTermsInput!): Boolean
  batchRemoveTerms(input: BatchRemoveTermsInput!): Boolean
  addOwner(input: AddOwnerInput!): Boolean
  addOwners(input: AddOwnersInput!): Boolean
  removeOwner(input: RemoveOwnerInput!): Boolean
  batchAddOwners(input: BatchAddOwnersInput!): Boolean
  batchRemoveOwners(input: BatchRemoveOwnersInput!): Boolean
}
`;

interface ResourceInput {
  readonly resourceUrn: string;
  readonly subResourceType?: string | null;
  readonly subResource?: string | null;
}

/** A JSON pointer segment (RFC 6901). */
export function pointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The resource, which must exist; a schema field needs its field path. */
async function resourceOf(
  ctx: GraphQLContext,
  input: ResourceInput,
): Promise<{ ref: EntityRef; field?: string }> {
  const ref = requireRef(input.resourceUrn);
  if ((await ctx.entities.load(ref.urn)).size === 0)
    throw new ValidationError(`Failed to update ${ref.urn}: the entity does not exist`);
  if (input.subResourceType === 'DATASET_FIELD') {
    if (ref.entity !== 'dataset')
      throw new ValidationError('subResourceType DATASET_FIELD needs a dataset resource');
    if (input.subResource === undefined || input.subResource === null || input.subResource === '')
      throw new ValidationError('subResourceType DATASET_FIELD needs the field path as subResource');
    return { ref, field: input.subResource };
  }
  return { ref };
}

async function requireLabels(ctx: GraphQLContext, urns: readonly string[], entity: string): Promise<void> {
  for (const urn of urns) {
    const ref = requireRef(urn);
    if (ref.entity !== entity)
      throw new ValidationError(`Expected a ${entity} urn, got ${JSON.stringify(urn)}`);
    if ((await ctx.entities.load(urn)).size === 0)
      throw new ValidationError(`Failed to validate label with urn ${urn}. Urn does not exist.`);
  }
}

type LabelKind = 'tag' | 'term';

/** The PATCH that adds or removes labels on a resource (or one of its schema fields). */
function labelPatch(
  kind: LabelKind,
  add: boolean,
  labels: readonly string[],
  target: { ref: EntityRef; field?: string },
): AspectChange {
  const { ref, field } = target;
  const key = kind === 'tag' ? 'tag' : 'urn';
  const list = kind === 'tag' ? 'tags' : 'terms';
  const container = kind === 'tag' ? 'globalTags' : 'glossaryTerms';
  const prefix =
    field === undefined ? `/${list}` : `/editableSchemaFieldInfo/${pointer(field)}/${container}/${list}`;
  const operations: Record<string, unknown>[] = labels.map((label) =>
    add
      ? { op: 'add', path: `${prefix}/${pointer(label)}`, value: { [key]: label } }
      : { op: 'remove', path: `${prefix}/${pointer(label)}` },
  );
  // A field entry the patch creates needs its own field path.
  if (field !== undefined && add)
    operations.push({
      op: 'add',
      path: `/editableSchemaFieldInfo/${pointer(field)}/fieldPath`,
      value: field,
    });
  return {
    urn: ref.urn,
    entityType: ref.entity,
    aspect: field === undefined ? container : 'editableSchemaMetadata',
    changeType: 'PATCH',
    value: operations,
  };
}

async function changeLabels(
  ctx: GraphQLContext,
  kind: LabelKind,
  add: boolean,
  labels: readonly string[],
  resources: readonly ResourceInput[],
): Promise<boolean> {
  if (labels.length === 0) throw new ValidationError(`No ${kind}s given`);
  if (add) await requireLabels(ctx, labels, kind === 'tag' ? 'tag' : 'glossaryTerm');
  const targets = await Promise.all(resources.map((r) => resourceOf(ctx, r)));
  await writeAspects(
    ctx,
    targets.map((t) => labelPatch(kind, add, labels, t)),
  );
  return true;
}

const DEFAULT_OWNERSHIP_TYPE = 'urn:li:ownershipType:__system__none';

interface OwnerArgs {
  readonly ownerUrn: string;
  readonly ownerEntityType?: string;
  readonly type?: string | null;
  readonly ownershipTypeUrn?: string | null;
}

function ownerPatch(
  owners: readonly OwnerArgs[],
  ref: EntityRef,
  fallbackTypeUrn?: string | null,
): AspectChange {
  const operations = owners.map((o) => {
    const typeUrn = o.ownershipTypeUrn ?? fallbackTypeUrn ?? DEFAULT_OWNERSHIP_TYPE;
    const type = o.type ?? (typeUrn === DEFAULT_OWNERSHIP_TYPE ? 'NONE' : 'CUSTOM');
    return {
      op: 'add',
      path: `/owners/${pointer(o.ownerUrn)}/${pointer(type)}`,
      value: { owner: o.ownerUrn, type, typeUrn },
    };
  });
  return {
    urn: ref.urn,
    entityType: ref.entity,
    aspect: 'ownership',
    changeType: 'PATCH',
    value: operations,
  };
}

async function requireOwners(ctx: GraphQLContext, owners: readonly OwnerArgs[]): Promise<void> {
  for (const owner of owners) {
    const ref = requireRef(owner.ownerUrn);
    const expected = owner.ownerEntityType === 'CORP_GROUP' ? 'corpGroup' : 'corpuser';
    if (owner.ownerEntityType !== undefined && ref.entity !== expected)
      throw new ValidationError(`Owner ${owner.ownerUrn} is not a ${owner.ownerEntityType}`);
    if ((await ctx.entities.load(ref.urn)).size === 0)
      throw new ValidationError(`Failed to add owner ${owner.ownerUrn}: it does not exist`);
  }
}

/**
 * Removes the owners: every ownership of each (a remove by key prefix), or only that of the given
 * ownership type.
 */
function removeOwnersPatch(
  ownerUrns: readonly string[],
  ref: EntityRef,
  typeUrn?: string | null,
): AspectChange {
  const type =
    typeUrn === undefined || typeUrn === null
      ? undefined
      : typeUrn === DEFAULT_OWNERSHIP_TYPE
        ? 'NONE'
        : 'CUSTOM';
  return {
    urn: ref.urn,
    entityType: ref.entity,
    aspect: 'ownership',
    changeType: 'PATCH',
    value: ownerUrns.map((owner) => ({
      op: 'remove',
      path: `/owners/${pointer(owner)}${type === undefined ? '' : `/${type}`}`,
    })),
  };
}

type Input<T> = { readonly input: T };
type Mutation<T> = (root: unknown, args: Input<T>, ctx: GraphQLContext) => Promise<boolean>;

export function labelMutationResolvers(): Record<string, Record<string, Mutation<never>>> {
  const tag =
    (add: boolean): Mutation<ResourceInput & { tagUrn: string }> =>
    (_r, { input }, ctx) =>
      changeLabels(ctx, 'tag', add, [input.tagUrn], [input]);
  const term =
    (add: boolean): Mutation<ResourceInput & { termUrn: string }> =>
    (_r, { input }, ctx) =>
      changeLabels(ctx, 'term', add, [input.termUrn], [input]);
  const resolvers: Record<string, Mutation<never>> = {
    addTag: tag(true),
    removeTag: tag(false),
    addTags: ((_r, { input }, ctx) => changeLabels(ctx, 'tag', true, input.tagUrns, [input])) as Mutation<
      ResourceInput & { tagUrns: string[] }
    >,
    batchAddTags: ((_r, { input }, ctx) =>
      changeLabels(ctx, 'tag', true, input.tagUrns, input.resources)) as Mutation<{
      tagUrns: string[];
      resources: ResourceInput[];
    }>,
    batchRemoveTags: ((_r, { input }, ctx) =>
      changeLabels(ctx, 'tag', false, input.tagUrns, input.resources)) as Mutation<{
      tagUrns: string[];
      resources: ResourceInput[];
    }>,
    addTerm: term(true),
    removeTerm: term(false),
    addTerms: ((_r, { input }, ctx) => changeLabels(ctx, 'term', true, input.termUrns, [input])) as Mutation<
      ResourceInput & { termUrns: string[] }
    >,
    batchAddTerms: ((_r, { input }, ctx) =>
      changeLabels(ctx, 'term', true, input.termUrns, input.resources)) as Mutation<{
      termUrns: string[];
      resources: ResourceInput[];
    }>,
    batchRemoveTerms: ((_r, { input }, ctx) =>
      changeLabels(ctx, 'term', false, input.termUrns, input.resources)) as Mutation<{
      termUrns: string[];
      resources: ResourceInput[];
    }>,
    addOwner: (async (_r, { input }, ctx) => {
      await requireOwners(ctx, [input]);
      const { ref } = await resourceOf(ctx, input);
      await writeAspects(ctx, [ownerPatch([input], ref)]);
      return true;
    }) as Mutation<OwnerArgs & ResourceInput>,
    addOwners: (async (_r, { input }, ctx) => {
      await requireOwners(ctx, input.owners);
      const { ref } = await resourceOf(ctx, input);
      await writeAspects(ctx, [ownerPatch(input.owners, ref)]);
      return true;
    }) as Mutation<{ owners: OwnerArgs[] } & ResourceInput>,
    removeOwner: (async (_r, { input }, ctx) => {
      const { ref } = await resourceOf(ctx, input);
      await writeAspects(ctx, [removeOwnersPatch([input.ownerUrn], ref, input.ownershipTypeUrn)]);
      return true;
    }) as Mutation<{ ownerUrn: string; ownershipTypeUrn?: string | null } & ResourceInput>,
    batchAddOwners: (async (_r, { input }, ctx) => {
      await requireOwners(ctx, input.owners);
      const targets = await Promise.all(input.resources.map((r) => resourceOf(ctx, r)));
      await writeAspects(
        ctx,
        targets.map((t) => ownerPatch(input.owners, t.ref, input.ownershipTypeUrn)),
      );
      return true;
    }) as Mutation<{ owners: OwnerArgs[]; ownershipTypeUrn?: string | null; resources: ResourceInput[] }>,
    batchRemoveOwners: (async (_r, { input }, ctx) => {
      const targets = await Promise.all(input.resources.map((r) => resourceOf(ctx, r)));
      await writeAspects(
        ctx,
        targets.map((t) => removeOwnersPatch(input.ownerUrns, t.ref, input.ownershipTypeUrn)),
      );
      return true;
    }) as Mutation<{ ownerUrns: string[]; ownershipTypeUrn?: string | null; resources: ResourceInput[] }>,
  };
  return { Mutation: resolvers };
}
