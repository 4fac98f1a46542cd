import type { DeprecationEdit, DescriptionEdit } from '../../application/metadata-edits.js';
import type { GraphQLContext } from '../context.js';

/** Descriptions, names, deprecation and domains (application/metadata-edits.ts decides and writes each). */
export const entityUpdateSchema = `
input DescriptionUpdateInput {
  description: String!
  resourceUrn: String!
  subResourceType: SubResourceType
  subResource: String
}
input UpdateNameInput { name: String! urn: String! }
input UpdateDeprecationInput { urn: String! deprecated: Boolean! decommissionTime: Long note: String }

extend type Mutation {
  updateDescription(input: DescriptionUpdateInput!): Boolean
  updateName(input: UpdateNameInput!): Boolean
  updateDeprecation(input: UpdateDeprecationInput!): Boolean
  setDomain(entityUrn: String!, domainUrn: String!): Boolean
  unsetDomain(entityUrn: String!): Boolean
}
`;

type Resolver<T> = (root: unknown, args: T, ctx: GraphQLContext) => Promise<boolean>;

/** A mutation answering true once its edit is made. */
function edit<T>(run: (args: T, ctx: GraphQLContext) => Promise<void>): Resolver<never> {
  return (async (_r: unknown, args: T, ctx: GraphQLContext) => {
    await run(args, ctx);
    return true;
  }) as Resolver<never>;
}

type Input<T> = { readonly input: T };

export function entityUpdateResolvers(): Record<string, Record<string, Resolver<never>>> {
  const edits = (ctx: GraphQLContext) => ctx.services.app.metadataEdits;
  return {
    Mutation: {
      updateDescription: edit<Input<DescriptionEdit>>(({ input }, ctx) =>
        edits(ctx).updateDescription(ctx.auth, input),
      ),
      updateName: edit<Input<{ name: string; urn: string }>>(({ input }, ctx) =>
        edits(ctx).updateName(ctx.auth, input.urn, input.name),
      ),
      updateDeprecation: edit<Input<DeprecationEdit>>(({ input }, ctx) =>
        edits(ctx).updateDeprecation(ctx.auth, input),
      ),
      setDomain: edit<{ entityUrn: string; domainUrn: string }>((args, ctx) =>
        edits(ctx).setDomain(ctx.auth, args.entityUrn, args.domainUrn),
      ),
      unsetDomain: edit<{ entityUrn: string }>((args, ctx) =>
        edits(ctx).setDomain(ctx.auth, args.entityUrn, null),
      ),
    },
  };
}
