import type { GraphQLContext } from '../context.js';

/** The ecosystem's secret operations (ingestion.graphql); application/secret-admin.ts decides and answers. */
export const secretSchema = `
input ListSecretsInput { start: Int count: Int query: String }
type Secret { urn: String! name: String! description: String }
type ListSecretsResult { start: Int count: Int total: Int secrets: [Secret!]! }
input CreateSecretInput { name: String! value: String! description: String }
input UpdateSecretInput { urn: String! name: String! value: String! description: String }
input GetSecretValuesInput { secrets: [String!]! }
type SecretValue { name: String! value: String! }

extend type Query {
  listSecrets(input: ListSecretsInput!): ListSecretsResult
  getSecretValues(input: GetSecretValuesInput!): [SecretValue!]
}

extend type Mutation {
  createSecret(input: CreateSecretInput!): String
  updateSecret(input: UpdateSecretInput!): String
  deleteSecret(urn: String!): String
}
`;

interface SecretInput {
  readonly name: string;
  readonly value: string;
  readonly description?: string | null;
}

export function secretResolvers() {
  const secrets = (ctx: GraphQLContext) => ctx.services.app.secrets;
  return {
    Query: {
      listSecrets: (
        _r: unknown,
        args: { input: { start?: number | null; count?: number | null; query?: string | null } },
        ctx: GraphQLContext,
      ) => secrets(ctx).list(ctx.auth, args.input),
      getSecretValues: (_r: unknown, args: { input: { secrets: string[] } }, ctx: GraphQLContext) =>
        secrets(ctx).values(ctx.auth, args.input.secrets),
    },
    Mutation: {
      createSecret: (_r: unknown, args: { input: SecretInput }, ctx: GraphQLContext) =>
        secrets(ctx).create(ctx.auth, args.input),
      updateSecret: (_r: unknown, args: { input: SecretInput & { urn: string } }, ctx: GraphQLContext) =>
        secrets(ctx).update(ctx.auth, args.input),
      deleteSecret: (_r: unknown, args: { urn: string }, ctx: GraphQLContext) =>
        secrets(ctx).delete(ctx.auth, args.urn),
    },
  };
}
