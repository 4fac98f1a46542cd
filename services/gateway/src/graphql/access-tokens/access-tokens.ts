import {
  ACCESS_TOKEN_URN_PREFIX,
  type AccessTokenDuration,
  type IssuedAccessToken,
  type VerifiedToken,
} from '@catalog/auth';
import { ForbiddenError, isUrn, NotFoundError, parseUrn, ValidationError } from '@catalog/model';
import { matchesFilter, stripKeywordSuffix, type Filter } from '@catalog/search';
import { isAuthorized, UNAUTHORIZED_MESSAGE } from '../authorization.js';
import type { GraphQLContext } from '../context.js';
import type { EntityRef } from '../entities/entity-ref.js';
import { writeAspects } from '../mutations/write-proposals.js';
import { filterOf } from '../search/search-resolvers.js';
import { pageOf } from '../list-page.js';

const ENTITY = 'dataHubAccessToken';
const INFO = 'dataHubAccessTokenInfo';
const KEY = 'dataHubAccessTokenKey';
const MANAGE_ACCESS_TOKENS = ['MANAGE_ACCESS_TOKENS'] as const;
const GENERATE_PERSONAL_ACCESS_TOKENS = ['GENERATE_PERSONAL_ACCESS_TOKENS'] as const;

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
enum AccessTokenType { PERSONAL }
enum AccessTokenDuration { ${ACCESS_TOKEN_DURATIONS.join(' ')} }

input CreateAccessTokenInput {
  type: AccessTokenType!
  actorUrn: String!
  duration: AccessTokenDuration!
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

/** The stored `dataHubAccessTokenInfo`. */
export interface TokenInfo {
  readonly name: string;
  readonly actorUrn: string;
  readonly ownerUrn: string;
  readonly createdAt: number;
  readonly expiresAt?: number;
  readonly description?: string;
}

/** A GraphQL FacetFilterInput, as clients send it. */
export interface FacetFilter {
  readonly field: string;
  readonly value?: string | null;
  readonly values?: readonly string[] | null;
  readonly negated?: boolean | null;
  readonly condition?: string | null;
}

interface CreateAccessTokenInput {
  readonly type: 'PERSONAL';
  readonly actorUrn: string;
  readonly duration: AccessTokenDuration;
  readonly name: string;
  readonly description?: string | null;
}

interface ListAccessTokenInput {
  readonly start?: number | null;
  readonly count?: number | null;
  readonly filters?: readonly FacetFilter[] | null;
}

/** The info aspect of a newly issued token: the owner is who asked, the actor whom it acts as. */
export function tokenInfoOf(
  input: { readonly name: string; readonly description?: string | null; readonly actorUrn: string },
  ownerUrn: string,
  issued: Pick<IssuedAccessToken, 'createdAt' | 'expiresAt'>,
): TokenInfo {
  return {
    name: input.name,
    actorUrn: input.actorUrn,
    ownerUrn,
    createdAt: issued.createdAt,
    ...(issued.expiresAt === undefined ? {} : { expiresAt: issued.expiresAt }),
    ...(input.description === undefined || input.description === null
      ? {}
      : { description: input.description }),
  };
}

/**
 * Whether a listing asks only for the caller's own tokens: one of its filters (they are ANDed) is
 * `ownerUrn` equal to exactly the caller. A negated or non-EQUAL filter on ownerUrn selects other
 * people's tokens, so it does not count.
 */
export function isListingOwnTokens(filters: readonly FacetFilter[], actorUrn: string): boolean {
  return filters.some((f) => {
    if (stripKeywordSuffix(f.field) !== 'ownerUrn' || f.negated === true) return false;
    if (f.condition !== undefined && f.condition !== null && f.condition !== 'EQUAL') return false;
    const values = f.values ?? (f.value === undefined || f.value === null ? [] : [f.value]);
    return values.length === 1 && values[0] === actorUrn;
  });
}

/** Latest expiry first, tokens that never expire last (the ecosystem's expiresAt DESC); then by urn. */
export function byExpiryDescending(
  a: { readonly urn: string; readonly info: TokenInfo },
  b: { readonly urn: string; readonly info: TokenInfo },
): number {
  const ae = a.info.expiresAt;
  const be = b.info.expiresAt;
  if (ae !== be) {
    if (ae === undefined || ae === null) return 1;
    if (be === undefined || be === null) return -1;
    return be - ae;
  }
  return a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0;
}

/** Whether a stored token matches a listing's filter; its fields are those of the token index. */
export function tokenMatches(urn: string, info: TokenInfo, filter: Filter): boolean {
  const fields: Readonly<Record<string, unknown>> = { ...info, urn };
  return matchesFilter(filter, (field) => {
    const value = fields[field];
    return value === undefined || value === null ? [] : [value];
  });
}

/** The urn of the token entity with this id (the token's hash). */
export function tokenUrnOf(tokenId: string): string {
  const urn = ACCESS_TOKEN_URN_PREFIX + tokenId;
  if (tokenId.trim() === '' || !isUrn(urn) || parseUrn(urn).entityType !== ENTITY)
    throw new ValidationError(`Invalid token id ${JSON.stringify(tokenId)}`);
  return urn;
}

/** A token as GraphQL shows it: the entity, with its info when it is already known. */
function tokenRef(urn: string, info?: TokenInfo): EntityRef {
  return info === undefined ? { urn, entity: ENTITY } : { urn, entity: ENTITY, known: { info } };
}

async function infoOf(ctx: GraphQLContext, ref: EntityRef): Promise<Partial<TokenInfo> | undefined> {
  const known = ref.known?.['info'] as TokenInfo | undefined;
  return known ?? (await ctx.entities.aspect<Partial<TokenInfo>>(ref.urn, INFO));
}

function requireUserUrn(urn: string, field: string): string {
  if (!isUrn(urn) || parseUrn(urn).entityType !== 'corpuser')
    throw new ValidationError(`${field} must be a corpuser urn, got ${JSON.stringify(urn)}`);
  return urn;
}

/** Every stored token with its info, read from the store (a token listed right after its creation). */
async function storedTokens(ctx: GraphQLContext): Promise<{ urn: string; info: TokenInfo }[]> {
  const tokens: { urn: string; info: TokenInfo }[] = [];
  let after: string | undefined;
  do {
    const page = await ctx.services.store.scan({
      aspect: INFO,
      urnLike: 'urn:li:dataHubAccessToken:%',
      limit: 500,
      ...(after === undefined ? {} : { after }),
    });
    for (const item of page.items) tokens.push({ urn: item.urn, info: item.value as unknown as TokenInfo });
    after = page.next;
  } while (after !== undefined);
  return tokens;
}

function forbidden(): ForbiddenError {
  return new ForbiddenError(UNAUTHORIZED_MESSAGE);
}

async function verified(ctx: GraphQLContext, token: string): Promise<VerifiedToken> {
  try {
    return await ctx.services.auth.tokens.verify(token);
  } catch (error) {
    throw new ValidationError(`Invalid access token: ${(error as Error).message}`);
  }
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
        const filters = input.filters ?? [];
        const allowed =
          (await isAuthorized(ctx, MANAGE_ACCESS_TOKENS)) ||
          (isListingOwnTokens(filters, ctx.actor) &&
            (await isAuthorized(ctx, GENERATE_PERSONAL_ACCESS_TOKENS)));
        if (!allowed) throw forbidden();
        const { start, count } = pageOf(input);
        const filter = filterOf({ filters });
        const matching = (await storedTokens(ctx))
          .filter((t) => tokenMatches(t.urn, t.info, filter))
          .sort(byExpiryDescending);
        const tokens = matching.slice(start, start + count).map((t) => tokenRef(t.urn, t.info));
        return { start, count: tokens.length, total: matching.length, tokens };
      },
      getAccessTokenMetadata: async (_r: unknown, { token }: { token: string }, ctx: GraphQLContext) => {
        const claims = await verified(ctx, token);
        if (claims.tokenUrn === undefined)
          throw new ValidationError('Not a personal access token: session tokens have no stored metadata');
        const urn = claims.tokenUrn;
        const info = await ctx.entities.aspect<TokenInfo>(urn, INFO);
        const mayRead =
          `urn:li:corpuser:${claims.actorId}` === ctx.actor ||
          info?.ownerUrn === ctx.actor ||
          info?.actorUrn === ctx.actor ||
          (await isAuthorized(ctx, MANAGE_ACCESS_TOKENS));
        if (!mayRead) throw forbidden();
        if (info === undefined) throw new NotFoundError(`Access token ${urn} does not exist: it was revoked`);
        return tokenRef(urn, info);
      },
    },
    Mutation: {
      createAccessToken: async (
        _r: unknown,
        { input }: { input: CreateAccessTokenInput },
        ctx: GraphQLContext,
      ) => {
        const actorUrn = requireUserUrn(input.actorUrn, 'actorUrn');
        const allowed =
          (await isAuthorized(ctx, MANAGE_ACCESS_TOKENS)) ||
          (actorUrn === ctx.actor && (await isAuthorized(ctx, GENERATE_PERSONAL_ACCESS_TOKENS)));
        if (!allowed) throw forbidden();
        const issued = await ctx.services.auth.tokens.issueAccessToken(parseUrn(actorUrn).id, input.duration);
        const info = tokenInfoOf(input, ctx.actor, issued);
        // The info write stores the key aspect too (the token's id), in the same atomic step.
        await writeAspects(ctx, [{ urn: issued.urn, entityType: ENTITY, aspect: INFO, value: info }]);
        return { accessToken: issued.token, metadata: tokenRef(issued.urn, info) };
      },
      revokeAccessToken: async (_r: unknown, { tokenId }: { tokenId: string }, ctx: GraphQLContext) => {
        const urn = tokenUrnOf(tokenId);
        if (!(await isAuthorized(ctx, MANAGE_ACCESS_TOKENS))) {
          const info = await ctx.entities.aspect<TokenInfo>(urn, INFO);
          if (info?.ownerUrn !== ctx.actor) throw forbidden();
        }
        await writeAspects(ctx, [{ urn, entityType: ENTITY, aspect: KEY, changeType: 'DELETE' }]);
        ctx.services.auth.accessTokens.forget(urn);
        return true;
      },
    },
  };
}
