import type { OwnerInput, ResourceInput } from '../../application/label-edits.js';
import { ValidationError } from '@catalog/model';
import type { GraphQLContext } from '../context.js';

/**
 * Tags, glossary terms and owners on entities and schema fields (application/label-edits.ts decides and
 * writes each).
 */
export const labelMutationSchema = `
enum SubResourceType { DATASET_FIELD }
enum OwnerEntityType { CORP_USER CORP_GROUP }

input ResourceRefInput { resourceUrn: String! subResourceType: SubResourceType subResource: String }
input TagAssociationInput { tagUrn: String! resourceUrn: String! subResourceType: SubResourceType subResource: String }
input AddTagsInput { tagUrns: [String!]! resourceUrn: String! subResourceType: SubResourceType subResource: String }
input BatchAddTagsInput { tagUrns: [String!]! resources: [ResourceRefInput!]! }
input BatchRemoveTagsInput { tagUrns: [String!]! resources: [ResourceRefInput]! }
input TermAssociationInput { termUrn: String! resourceUrn: String! subResourceType: SubResourceType subResource: String }
input AddTermsInput { termUrns: [String!]! resourceUrn: String! subResourceType: SubResourceType subResource: String }
input BatchAddTermsInput { termUrns: [String!]! resources: [ResourceRefInput]! }
input BatchRemoveTermsInput { termUrns: [String!]! resources: [ResourceRefInput]! }
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
input BatchAddOwnersInput { owners: [OwnerInput!]! ownershipTypeUrn: String resources: [ResourceRefInput]! }
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

type Input<T> = { readonly input: T };
type Mutation<T> = (root: unknown, args: Input<T>, ctx: GraphQLContext) => Promise<boolean>;

/** A mutation answering true once its edit is made. */
function edit<T>(run: (input: T, ctx: GraphQLContext) => Promise<void>): Mutation<never> {
  return (async (_r: unknown, { input }: Input<T>, ctx: GraphQLContext) => {
    await run(input, ctx);
    return true;
  }) as Mutation<never>;
}

type Labels = { readonly resources: readonly (ResourceInput | null)[] };

/** The resources of a batch edit; the ecosystem's list admits null entries, which name no resource. */
function resourcesOf(input: Labels): ResourceInput[] {
  if (input.resources.some((r) => r === null))
    throw new ValidationError('resources must not contain null: each entry names a resource');
  return input.resources as ResourceInput[];
}
type TypedOwners = { readonly ownershipTypeUrn?: string | null };

export function labelMutationResolvers(): Record<string, Record<string, Mutation<never>>> {
  const labels = (ctx: GraphQLContext) => ctx.services.app.labels;
  const tag = (add: boolean) =>
    edit<ResourceInput & { tagUrn: string }>((i, ctx) =>
      labels(ctx).changeTags(ctx.auth, add, [i.tagUrn], [i]),
    );
  const term = (add: boolean) =>
    edit<ResourceInput & { termUrn: string }>((i, ctx) =>
      labels(ctx).changeTerms(ctx.auth, add, [i.termUrn], [i]),
    );
  const resolvers: Record<string, Mutation<never>> = {
    addTag: tag(true),
    removeTag: tag(false),
    addTags: edit<ResourceInput & { tagUrns: string[] }>((i, ctx) =>
      labels(ctx).changeTags(ctx.auth, true, i.tagUrns, [i]),
    ),
    batchAddTags: edit<Labels & { tagUrns: string[] }>((i, ctx) =>
      labels(ctx).changeTags(ctx.auth, true, i.tagUrns, resourcesOf(i)),
    ),
    batchRemoveTags: edit<Labels & { tagUrns: string[] }>((i, ctx) =>
      labels(ctx).changeTags(ctx.auth, false, i.tagUrns, resourcesOf(i)),
    ),
    addTerm: term(true),
    removeTerm: term(false),
    addTerms: edit<ResourceInput & { termUrns: string[] }>((i, ctx) =>
      labels(ctx).changeTerms(ctx.auth, true, i.termUrns, [i]),
    ),
    batchAddTerms: edit<Labels & { termUrns: string[] }>((i, ctx) =>
      labels(ctx).changeTerms(ctx.auth, true, i.termUrns, resourcesOf(i)),
    ),
    batchRemoveTerms: edit<Labels & { termUrns: string[] }>((i, ctx) =>
      labels(ctx).changeTerms(ctx.auth, false, i.termUrns, resourcesOf(i)),
    ),
    addOwner: edit<OwnerInput & ResourceInput>((i, ctx) => labels(ctx).addOwners(ctx.auth, [i], [i])),
    addOwners: edit<{ owners: OwnerInput[] } & ResourceInput>((i, ctx) =>
      labels(ctx).addOwners(ctx.auth, i.owners, [i]),
    ),
    removeOwner: edit<{ ownerUrn: string } & TypedOwners & ResourceInput>((i, ctx) =>
      labels(ctx).removeOwners(ctx.auth, [i.ownerUrn], [i], i.ownershipTypeUrn),
    ),
    batchAddOwners: edit<{ owners: OwnerInput[] } & TypedOwners & Labels>((i, ctx) =>
      labels(ctx).addOwners(ctx.auth, i.owners, resourcesOf(i), i.ownershipTypeUrn),
    ),
    batchRemoveOwners: edit<{ ownerUrns: string[] } & TypedOwners & Labels>((i, ctx) =>
      labels(ctx).removeOwners(ctx.auth, i.ownerUrns, resourcesOf(i), i.ownershipTypeUrn),
    ),
  };
  return { Mutation: resolvers };
}
