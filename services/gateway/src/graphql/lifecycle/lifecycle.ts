import { lifecycleStageOf } from '../../application/lifecycle-stages.js';
import type { GraphQLContext } from '../context.js';
import { auditStamp } from '../entities/aspect-views.js';

/** Lifecycle stages (the ecosystem's lifecycle.graphql), and the stage an entity's Status is in. */
export const lifecycleSchema = `
type LifecycleStageType {
  urn: String!
  name: String!
  description: String
  entityTypes: [String!]
  hideInSearch: Boolean!
  allowedPreviousStages: [String!]
}

extend type Status {
  lifecycleStage: LifecycleStageType
  lifecycleLastUpdated: AuditStamp
}

extend type Query {
  listLifecycleStages: [LifecycleStageType!]!
}

extend input SearchFlags {
  includeHiddenLifecycleStages: Boolean
}

extend type Mutation {
  setLifecycleStage(urn: String!, lifecycleStageUrn: String): Boolean!
}
`;

/** What a Status resolves from: the stored `status` aspect of its entity. */
interface StatusSource {
  readonly removed: boolean;
  readonly stored?: Readonly<Record<string, unknown>>;
}

export function lifecycleResolvers(): Record<string, Record<string, unknown>> {
  return {
    Status: {
      // The stage as the actor may read it: null when it may not, or when the stage type is gone.
      lifecycleStage: async (status: StatusSource, _a: unknown, ctx: GraphQLContext) => {
        const urn = status.stored?.['lifecycleStage'];
        if (typeof urn !== 'string') return null;
        const info = await ctx.entities.aspect<Readonly<Record<string, unknown>>>(
          urn,
          'lifecycleStageTypeInfo',
        );
        return info === undefined ? null : lifecycleStageOf(urn, info);
      },
      lifecycleLastUpdated: (status: StatusSource) => {
        const stamp = status.stored?.['lifecycleLastUpdated'];
        return stamp === undefined || stamp === null ? null : auditStamp(stamp);
      },
    },
    Query: {
      listLifecycleStages: (_root: unknown, _a: unknown, ctx: GraphQLContext) =>
        ctx.services.app.lifecycleStages.list(ctx.auth),
    },
    Mutation: {
      setLifecycleStage: async (
        _root: unknown,
        args: { urn: string; lifecycleStageUrn?: string | null },
        ctx: GraphQLContext,
      ) => {
        const stage = args.lifecycleStageUrn ?? null;
        await ctx.services.app.lifecycleStages.set(ctx.auth, args.urn, stage?.trim() === '' ? null : stage);
        return true;
      },
    },
  };
}
