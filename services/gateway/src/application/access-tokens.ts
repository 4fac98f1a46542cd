import {
  ACCESS_TOKEN_URN_PREFIX,
  type AccessTokenDuration,
  type IssuedAccessToken,
  type RequestContext,
  type VerifiedToken,
} from '@catalog/auth';
import { ForbiddenError, isUrn, NotFoundError, parseUrn, ValidationError } from '@catalog/model';
import { matchesFilter, normalizeFilter, stripKeywordSuffix, type Filter } from '@catalog/search';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import type { AccessPolicy } from './access-policy.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import { writeDecided } from './aspect-changes.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

const ENTITY = 'dataHubAccessToken';
const INFO = 'dataHubAccessTokenInfo';
const KEY = 'dataHubAccessTokenKey';
const MANAGE_ACCESS_TOKENS = ['MANAGE_ACCESS_TOKENS'] as const;
const GENERATE_PERSONAL_ACCESS_TOKENS = ['GENERATE_PERSONAL_ACCESS_TOKENS'] as const;
const MANAGE_SERVICE_ACCOUNTS = ['MANAGE_SERVICE_ACCOUNTS'] as const;

/** The stored `dataHubAccessTokenInfo`. */
export interface TokenInfo {
  readonly name: string;
  readonly actorUrn: string;
  readonly ownerUrn: string;
  readonly createdAt: number;
  readonly expiresAt?: number;
  readonly description?: string;
}

/** A stored token: its entity urn and info. */
export interface StoredToken {
  readonly urn: string;
  readonly info: TokenInfo;
}

/** One criterion of a listing's filter (ANDed), as the ecosystem's clients send it. */
export interface FacetFilter {
  readonly field: string;
  readonly value?: string | null;
  readonly values?: readonly string[] | null;
  readonly negated?: boolean | null;
  readonly condition?: string | null;
}

/** What minting a token asks for. */
export interface MintRequest {
  /** PERSONAL (default), or SERVICE_ACCOUNT: a token of a service account, for who manages them. */
  readonly type?: 'PERSONAL' | 'SERVICE_ACCOUNT';
  /** The user the token acts as. */
  readonly actorUrn: string;
  readonly duration: AccessTokenDuration;
  readonly name: string;
  readonly description?: string | null;
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
export function byExpiryDescending(a: StoredToken, b: StoredToken): number {
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

/** The ANDed facet filters as one search filter. */
function filterOfFacets(filters: readonly FacetFilter[]): Filter {
  if (filters.length === 0) return { or: [] };
  const defined = (criterion: FacetFilter) =>
    Object.fromEntries(Object.entries(criterion).filter(([, v]) => v !== undefined && v !== null));
  return normalizeFilter({ or: [{ and: filters.map(defined) }] });
}

function requireUserUrn(urn: string, field: string): string {
  if (!isUrn(urn) || parseUrn(urn).entityType !== 'corpuser')
    throw new ValidationError(`${field} must be a corpuser urn, got ${JSON.stringify(urn)}`);
  return urn;
}

const forbidden = () => new ForbiddenError(UNAUTHORIZED_MESSAGE);

/**
 * Personal access tokens: minting, revoking, listing and reading their metadata. Who may: anyone with
 * MANAGE_ACCESS_TOKENS, for any user's tokens; a user with GENERATE_PERSONAL_ACCESS_TOKENS, for their
 * own (minting as themselves, listing with an ownerUrn filter of exactly themselves); the owner revokes
 * their token; the token's owner, actor or holder reads its metadata.
 */
export class AccessTokens {
  constructor(
    private readonly auth: Pick<GatewayAuth, 'tokens' | 'accessTokens'>,
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  private manages(ctx: RequestContext): Promise<boolean> {
    return this.policy.holds(ctx, MANAGE_ACCESS_TOKENS);
  }

  private generatesOwn(ctx: RequestContext): Promise<boolean> {
    return this.policy.holds(ctx, GENERATE_PERSONAL_ACCESS_TOKENS);
  }

  /**
   * Mints a token acting as `actorUrn` and records it (its info, the owner being the caller); a
   * NO_EXPIRY token has no expiry at all. Returns the signed token, shown this once only.
   */
  async mint(ctx: RequestContext, request: MintRequest): Promise<{ token: string } & StoredToken> {
    const actorUrn = requireUserUrn(request.actorUrn, 'actorUrn');
    const me = ctx.authentication.actorUrn;
    if (request.type === 'SERVICE_ACCOUNT') {
      if (!(await this.policy.holds(ctx, MANAGE_SERVICE_ACCOUNTS))) throw forbidden();
      const subTypes = await this.stored.aspect<{ typeNames?: string[] }>(actorUrn, 'subTypes');
      if (!(subTypes?.typeNames ?? []).includes('SERVICE_ACCOUNT'))
        throw new ValidationError(`The specified URN is not a service account: ${actorUrn}`);
    } else {
      const allowed = (await this.manages(ctx)) || (actorUrn === me && (await this.generatesOwn(ctx)));
      if (!allowed) throw forbidden();
    }
    const issued = await this.auth.tokens.issueAccessToken(parseUrn(actorUrn).id, request.duration);
    const info = tokenInfoOf(request, me, issued);
    // The info write stores the key aspect too (the token's id), in the same atomic step.
    await writeDecided(this.proposals, ctx, [
      { urn: issued.urn, entityType: ENTITY, aspect: INFO, value: info },
    ]);
    return { token: issued.token, urn: issued.urn, info };
  }

  /** Revokes the token with this id: its owner, or who manages tokens. It stops authenticating at once. */
  async revoke(ctx: RequestContext, tokenId: string): Promise<void> {
    const urn = tokenUrnOf(tokenId);
    if (!(await this.manages(ctx))) {
      const info = await this.stored.aspect<TokenInfo>(urn, INFO);
      if (info?.ownerUrn !== ctx.authentication.actorUrn) throw forbidden();
    }
    await writeDecided(this.proposals, ctx, [{ urn, entityType: ENTITY, aspect: KEY, changeType: 'DELETE' }]);
    this.auth.accessTokens.forget(urn);
  }

  /**
   * One page of the stored tokens matching the filters, latest expiry first: all of them for who
   * manages tokens, the caller's own (an ownerUrn filter of exactly the caller) for who generates them.
   */
  async list(
    ctx: RequestContext,
    query: { readonly filters: readonly FacetFilter[]; readonly start: number; readonly count: number },
  ): Promise<{ readonly total: number; readonly tokens: readonly StoredToken[] }> {
    const allowed =
      (await this.manages(ctx)) ||
      (isListingOwnTokens(query.filters, ctx.authentication.actorUrn) && (await this.generatesOwn(ctx)));
    if (!allowed) throw forbidden();
    const filter = filterOfFacets(query.filters);
    const matching = (await this.stored.all(ENTITY, INFO))
      .map((t) => ({ urn: t.urn, info: t.info as unknown as TokenInfo }))
      .filter((t) => tokenMatches(t.urn, t.info, filter))
      .sort(byExpiryDescending);
    return { total: matching.length, tokens: matching.slice(query.start, query.start + query.count) };
  }

  /**
   * The metadata of a token the caller holds, owns or acts through, or any for who manages tokens. A
   * session token has none (400); a revoked one is a 404.
   */
  async metadata(ctx: RequestContext, token: string): Promise<StoredToken> {
    const claims = await this.verified(token);
    if (claims.tokenUrn === undefined)
      throw new ValidationError('Not a personal access token: session tokens have no stored metadata');
    const urn = claims.tokenUrn;
    const me = ctx.authentication.actorUrn;
    const info = await this.stored.aspect<TokenInfo>(urn, INFO);
    const mayRead =
      `urn:li:corpuser:${claims.actorId}` === me ||
      info?.ownerUrn === me ||
      info?.actorUrn === me ||
      (await this.manages(ctx));
    if (!mayRead) throw forbidden();
    if (info === undefined) throw new NotFoundError(`Access token ${urn} does not exist: it was revoked`);
    return { urn, info };
  }

  private async verified(token: string): Promise<VerifiedToken> {
    try {
      return await this.auth.tokens.verify(token);
    } catch (error) {
      throw new ValidationError(`Invalid access token: ${(error as Error).message}`);
    }
  }
}
