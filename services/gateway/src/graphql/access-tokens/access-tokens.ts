import { ACCESS_TOKEN_URN_PREFIX, type AccessTokenDuration } from '@catalog/auth';
import { ValidationError } from '@catalog/model';
import type { FacetFilter, StoredToken, TokenInfo } from '../../application/access-tokens.js';
import type { GraphQLContext } from '../context.js';
import type { EntityRef } from '../entities/entity-ref.js';
import { pageOf } from '../list-page.js';

const ENTITY = 'dataHubAccessToken';
const INFO = 'dataHubAccessTokenInfo';

/** The lifetimes createAccessToken offers; the token service maps each to milliseconds. */
export const ACCESS_TOKEN_DURATIONS: readonly AccessTokenDuration[] = [
  'ONE_HOUR',
  'ONE_DAY',
  'ONE_WEEK',
  'ONE_MONTH',
  'THREE_MONTHS',
  'SIX_MONTHS',
  'ONE_YEAR',
  'NO_EXPIRY',
];

/** Personal access tokens (auth.graphql). */
export const accessTokenSchema = `
enum AccessTokenType { PERSONAL SERVICE_ACCOUNT }
enum AccessTokenDuration { ${ACCESS_TOKEN_DURATIONS.join(' ')} }

input CreateAccessTokenInput {
  type: AccessTokenType!
  actorUrn: String!
  duration: AccessTokenDuration
  name: String!
  description: String
}
input ListAccessTokenInput { start: Int count: Int filters: [FacetFilterInput!] }

type AccessToken { accessToken: String! metadata: AccessTokenMetadata }
type ListAccessTokenResult { start: Int! count: Int! total: Int! tokens: [AccessTokenMetadata!]! }

extend type AccessTokenMetadata {
  id: String!
  name: String!
  description: String
  actorUrn: String!
  ownerUrn: String!
  createdAt: Long!
  expiresAt: Long
}

extend type Query {
  listAccessTokens(input: ListAccessTokenInput!): ListAccessTokenResult!
  getAccessTokenMetadata(token: String!): AccessTokenMetadata!
}

extend type Mutation {
  createAccessToken(input: CreateAccessTokenInput!): AccessToken
  revokeAccessToken(tokenId: String!): Boolean!
}
`;

interface CreateAccessTokenInput {
  readonly type: 'PERSONAL' | 'SERVICE_ACCOUNT';
  readonly actorUrn: string;
  readonly duration?: AccessTokenDuration | null;
  readonly name: string;
  readonly description?: string | null;
}

interface ListAccessTokenInput {
  readonly start?: number | null;
  readonly count?: number | null;
  readonly filters?: readonly FacetFilter[] | null;
}

/** A token as GraphQL shows it: the entity, with its info when it is already known. */
function tokenRef(token: StoredToken): EntityRef {
  return { urn: token.urn, entity: ENTITY, known: { info: token.info } };
}

async function infoOf(ctx: GraphQLContext, ref: EntityRef): Promise<Partial<TokenInfo> | undefined> {
  const known = ref.known?.['info'] as TokenInfo | undefined;
  return known ?? (await ctx.entities.aspect<Partial<TokenInfo>>(ref.urn, INFO));
}

type Field = (ref: EntityRef, args: unknown, ctx: GraphQLContext) => Promise<unknown>;

const METADATA_FIELDS: Record<string, Field> = {
  id: async (ref) => ref.urn.slice(ACCESS_TOKEN_URN_PREFIX.length),
  name: async (ref, _a, ctx) => (await infoOf(ctx, ref))?.name ?? '',
  description: async (ref, _a, ctx) => (await infoOf(ctx, ref))?.description ?? null,
  actorUrn: async (ref, _a, ctx) => (await infoOf(ctx, ref))?.actorUrn ?? '',
  ownerUrn: async (ref, _a, ctx) => (await infoOf(ctx, ref))?.ownerUrn ?? '',
  createdAt: async (ref, _a, ctx) => (await infoOf(ctx, ref))?.createdAt ?? 0,
  expiresAt: async (ref, _a, ctx) => (await infoOf(ctx, ref))?.expiresAt ?? null,
};

export function accessTokenResolvers(): Record<string, Record<string, unknown>> {
  return {
    AccessTokenMetadata: METADATA_FIELDS,
    Query: {
      listAccessTokens: async (
        _r: unknown,
        { input }: { input: ListAccessTokenInput },
        ctx: GraphQLContext,
      ) => {
        const { start, count } = pageOf(input);
        const page = await ctx.services.app.accessTokens.list(ctx.auth, {
          filters: input.filters ?? [],
          start,
          count,
        });
        const tokens = page.tokens.map(tokenRef);
        return { start, count: tokens.length, total: page.total, tokens };
      },
      getAccessTokenMetadata: async (_r: unknown, { token }: { token: string }, ctx: GraphQLContext) =>
        tokenRef(await ctx.services.app.accessTokens.metadata(ctx.auth, token)),
    },
    Mutation: {
      createAccessToken: async (
        _r: unknown,
        { input }: { input: CreateAccessTokenInput },
        ctx: GraphQLContext,
      ) => {
        const { duration } = input;
        // The ecosystem's input takes the lifetime as this enum or an ISO-8601 duration; only the enum here.
        if (duration === undefined || duration === null)
          throw new ValidationError('duration must be provided when creating an access token');
        const minted = await ctx.services.app.accessTokens.mint(ctx.auth, { ...input, duration });
        return { accessToken: minted.token, metadata: tokenRef(minted) };
      },
      revokeAccessToken: async (_r: unknown, { tokenId }: { tokenId: string }, ctx: GraphQLContext) => {
        await ctx.services.app.accessTokens.revoke(ctx.auth, tokenId);
        return true;
      },
    },
  };
}
