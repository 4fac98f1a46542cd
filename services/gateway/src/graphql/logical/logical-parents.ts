import type { GraphQLContext } from '../context.js';
import { refOf, type EntityRef } from '../entities/entity-ref.js';

/** Logical parents of physical assets (the ecosystem's logical.graphql, its setting and reading). */
export const logicalParentSchema = `
interface HasLogicalParent { logicalParent: Entity }
extend type Dataset implements HasLogicalParent { logicalParent: Entity }
extend type SchemaFieldEntity implements HasLogicalParent { logicalParent: Entity }
input SetLogicalParentInput { resourceUrn: String! parentUrn: String }
extend type Mutation { setLogicalParent(input: SetLogicalParentInput!): Boolean }
`;

type Json = Readonly<Record<string, unknown>>;

const logicalParent = async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
  const value = await ctx.entities.aspect<Json>(ref.urn, 'logicalParent');
  return refOf((value?.['parent'] as Json | undefined)?.['destinationUrn']) ?? null;
};

export function logicalParentResolvers(): Record<string, Record<string, unknown>> {
  return {
    HasLogicalParent: {
      __resolveType: (ref: EntityRef) => (ref.entity === 'schemaField' ? 'SchemaFieldEntity' : 'Dataset'),
    },
    Dataset: { logicalParent },
    SchemaFieldEntity: { logicalParent },
    Mutation: {
      setLogicalParent: async (
        _r: unknown,
        { input }: { input: { resourceUrn: string; parentUrn?: string | null } },
        ctx: GraphQLContext,
      ) => {
        await ctx.services.app.logicalParents.set(ctx.auth, input.resourceUrn, input.parentUrn ?? null);
        return true;
      },
    },
  };
}
