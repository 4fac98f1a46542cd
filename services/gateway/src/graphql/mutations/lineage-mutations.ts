import type { LineageEdgeEdit } from '../../application/lineage-edits.js';
import type { GraphQLContext } from '../context.js';

/** Lineage a user draws: edges added to and removed from the aspects that hold them (application/lineage-edits.ts). */
export const lineageMutationSchema = `
input LineageEdge {
  downstreamUrn: String!
  upstreamUrn: String!
}
input UpdateLineageInput {
  edgesToAdd: [LineageEdge]!
  edgesToRemove: [LineageEdge]!
}
extend type Mutation {
  updateLineage(input: UpdateLineageInput!): Boolean
}
`;

interface UpdateLineageInput {
  readonly edgesToAdd: readonly (LineageEdgeEdit | null)[];
  readonly edgesToRemove: readonly (LineageEdgeEdit | null)[];
}

const present = (edges: readonly (LineageEdgeEdit | null)[]) =>
  edges.filter((e): e is LineageEdgeEdit => e !== null);

export function lineageMutationResolvers(): Record<string, Record<string, unknown>> {
  return {
    Mutation: {
      updateLineage: async (_r: unknown, { input }: { input: UpdateLineageInput }, ctx: GraphQLContext) => {
        await ctx.services.app.lineageEdits.update(
          ctx.auth,
          present(input.edgesToAdd),
          present(input.edgesToRemove),
        );
        return true;
      },
    },
  };
}
