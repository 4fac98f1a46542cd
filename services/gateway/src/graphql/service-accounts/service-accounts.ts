import type { ServiceAccountView } from '../../application/service-accounts.js';
import type { GraphQLContext } from '../context.js';
import { refOf } from '../entities/entity-ref.js';

/**
 * The ecosystem's service accounts (auth.graphql); application/service-accounts.ts decides and answers.
 */
export const serviceAccountSchema = `
type ServiceAccount implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  displayName: String
  description: String
  createdBy: String
  createdAt: Long
  updatedAt: Long
  defaultView: DataHubView
  relationships(input: RelationshipsInput!): EntityRelationshipsResult
}
input UpdateServiceAccountDefaultViewInput { urn: String! defaultView: String }
input CreateServiceAccountInput { displayName: String description: String }
input ListServiceAccountsInput { start: Int count: Int query: String }
type ListServiceAccountsResult { start: Int! count: Int! total: Int! serviceAccounts: [ServiceAccount!]! }

extend type Query {
  listServiceAccounts(input: ListServiceAccountsInput!): ListServiceAccountsResult!
  getServiceAccount(urn: String!): ServiceAccount
}

extend type Mutation {
  createServiceAccount(input: CreateServiceAccountInput!): ServiceAccount!
  deleteServiceAccount(urn: String!): Boolean!
  updateServiceAccountDefaultView(input: UpdateServiceAccountDefaultViewInput!): Boolean!
}
`;

interface RelationshipsArgs {
  readonly input: {
    readonly types: string[];
    readonly direction: 'INCOMING' | 'OUTGOING';
    readonly start?: number | null;
    readonly count?: number | null;
  };
}

export function serviceAccountResolvers() {
  const accounts = (ctx: GraphQLContext) => ctx.services.app.serviceAccounts;
  return {
    ServiceAccount: {
      type: () => 'CORP_USER',
      defaultView: (account: ServiceAccountView) =>
        account.defaultViewUrn === null ? null : { urn: account.defaultViewUrn, entity: 'dataHubView' },
      relationships: async (account: ServiceAccountView, args: RelationshipsArgs, ctx: GraphQLContext) => {
        const start = args.input.start ?? 0;
        const related = await ctx.services.app.lineage.related(ctx.auth, {
          urn: account.urn,
          direction: args.input.direction,
          types: args.input.types,
          start,
          count: args.input.count ?? 100,
        });
        return {
          start,
          count: related.relationships.length,
          total: related.total,
          relationships: related.relationships.map((r) => ({
            type: r.type,
            direction: args.input.direction,
            entity: refOf(r.entity) ?? null,
            created: r.created ?? null,
          })),
        };
      },
    },
    Query: {
      listServiceAccounts: (
        _r: unknown,
        args: { input: { start?: number | null; count?: number | null; query?: string | null } },
        ctx: GraphQLContext,
      ) => accounts(ctx).list(ctx.auth, args.input),
      getServiceAccount: (_r: unknown, args: { urn: string }, ctx: GraphQLContext) =>
        accounts(ctx).get(ctx.auth, args.urn),
    },
    Mutation: {
      createServiceAccount: (
        _r: unknown,
        args: { input: { displayName?: string | null; description?: string | null } },
        ctx: GraphQLContext,
      ) => accounts(ctx).create(ctx.auth, args.input),
      deleteServiceAccount: (_r: unknown, args: { urn: string }, ctx: GraphQLContext) =>
        accounts(ctx).delete(ctx.auth, args.urn),
      updateServiceAccountDefaultView: (
        _r: unknown,
        args: { input: { urn: string; defaultView?: string | null } },
        ctx: GraphQLContext,
      ) => accounts(ctx).setDefaultView(ctx.auth, args.input.urn, args.input.defaultView ?? null),
    },
  };
}
