import type { AccessTokenDuration } from '@catalog/auth';
import { normalizeFilter } from '@catalog/search';
import { describe, expect, it, vi } from 'vitest';
import { fakeApplicationDeps, graphqlContext, MemoryStore, writesOf } from './admin-fakes.testing.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import {
  AccessTokens,
  byExpiryDescending,
  isListingOwnTokens,
  tokenInfoOf,
  tokenMatches,
  tokenUrnOf,
  type TokenInfo,
} from './access-tokens.js';

const ME = 'urn:li:corpuser:alice';
const OTHER = 'urn:li:corpuser:bob';

describe('isListingOwnTokens (who may list without MANAGE_ACCESS_TOKENS)', () => {
  it('accepts an ownerUrn filter of exactly the caller, beside other (ANDed) filters', () => {
    expect(isListingOwnTokens([{ field: 'ownerUrn', values: [ME] }], ME)).toBe(true);
    expect(isListingOwnTokens([{ field: 'ownerUrn', value: ME }], ME)).toBe(true);
    expect(isListingOwnTokens([{ field: 'ownerUrn', values: [ME], condition: 'EQUAL' }], ME)).toBe(true);
    expect(
      isListingOwnTokens(
        [
          { field: 'name', values: ['ci'] },
          { field: 'ownerUrn', values: [ME] },
        ],
        ME,
      ),
    ).toBe(true);
  });

  it('refuses no filter, another owner, several owners, a negated or non-EQUAL owner filter', () => {
    expect(isListingOwnTokens([], ME)).toBe(false);
    expect(isListingOwnTokens([{ field: 'actorUrn', values: [ME] }], ME)).toBe(false);
    expect(isListingOwnTokens([{ field: 'ownerUrn', values: [OTHER] }], ME)).toBe(false);
    expect(isListingOwnTokens([{ field: 'ownerUrn', values: [ME, OTHER] }], ME)).toBe(false);
    expect(isListingOwnTokens([{ field: 'ownerUrn', values: [ME], negated: true }], ME)).toBe(false);
    expect(isListingOwnTokens([{ field: 'ownerUrn', values: [ME], condition: 'START_WITH' }], ME)).toBe(
      false,
    );
  });
});

describe('tokenInfoOf', () => {
  it('records the caller as owner and leaves out what is absent', () => {
    expect(tokenInfoOf({ name: 'ci', actorUrn: OTHER }, ME, { createdAt: 5 })).toEqual({
      name: 'ci',
      actorUrn: OTHER,
      ownerUrn: ME,
      createdAt: 5,
    });
    expect(
      tokenInfoOf({ name: 'ci', actorUrn: ME, description: 'for CI' }, ME, { createdAt: 5, expiresAt: 9 }),
    ).toEqual({ name: 'ci', actorUrn: ME, ownerUrn: ME, createdAt: 5, expiresAt: 9, description: 'for CI' });
  });
});

describe('listing order and filters', () => {
  const token = (urn: string, expiresAt?: number): { urn: string; info: TokenInfo } => ({
    urn,
    info: {
      name: urn,
      actorUrn: ME,
      ownerUrn: ME,
      createdAt: 1,
      ...(expiresAt === undefined ? {} : { expiresAt }),
    },
  });

  it('sorts by expiry, latest first, never-expiring last, then by urn', () => {
    const sorted = [token('a', 10), token('b'), token('c', 30), token('d', 10), token('e')].sort(
      byExpiryDescending,
    );
    expect(sorted.map((t) => t.urn)).toEqual(['c', 'a', 'd', 'b', 'e']);
  });

  it('matches filters on the token fields', () => {
    const t = token('urn:li:dataHubAccessToken:x', 10);
    const owner = (urn: string) => normalizeFilter({ or: [{ and: [{ field: 'ownerUrn', values: [urn] }] }] });
    expect(tokenMatches(t.urn, t.info, owner(ME))).toBe(true);
    expect(tokenMatches(t.urn, t.info, owner(OTHER))).toBe(false);
    expect(tokenMatches(t.urn, t.info, { or: [] })).toBe(true);
  });
});

describe('tokenUrnOf', () => {
  it('names the token entity by its id, and refuses an empty id', () => {
    expect(tokenUrnOf('aB3+/x=')).toBe('urn:li:dataHubAccessToken:aB3+/x=');
    expect(() => tokenUrnOf(' ')).toThrow('Invalid token id');
  });
});

describe('AccessTokens (who may mint, revoke, list and read tokens)', () => {
  const ALICE = 'urn:li:corpuser:alice';
  const BOB = 'urn:li:corpuser:bob';
  const ADMIN = 'urn:li:corpuser:admin';
  const TOKEN_URN = 'urn:li:dataHubAccessToken:t1';

  function setup(tokenInfo?: TokenInfo) {
    const store = new MemoryStore();
    if (tokenInfo !== undefined) store.put(TOKEN_URN, 'dataHubAccessTokenInfo', { ...tokenInfo });
    const deps = fakeApplicationDeps(
      {
        [ALICE]: { '*': ['GENERATE_PERSONAL_ACCESS_TOKENS'] },
        [ADMIN]: { '*': ['MANAGE_ACCESS_TOKENS'] },
      },
      store,
    );
    const issued: string[] = [];
    const forgotten: string[] = [];
    const auth = {
      tokens: {
        issueAccessToken: vi.fn(async (actorId: string, duration: string) => {
          issued.push(`${actorId} ${duration}`);
          return {
            token: 'signed',
            urn: TOKEN_URN,
            createdAt: 5,
            ...(duration === 'NO_EXPIRY' ? {} : { expiresAt: 9 }),
          };
        }),
        verify: vi.fn(async (token: string) => {
          if (token !== 'signed') throw new Error('bad signature');
          return { actorId: 'alice', tokenUrn: TOKEN_URN };
        }),
      },
      accessTokens: { forget: (urn: string) => forgotten.push(urn) },
    } as unknown as ConstructorParameters<typeof AccessTokens>[0];
    const tokens = new AccessTokens(auth, deps.stored, deps.policy, deps.proposals);
    return { ...deps, tokens, issued, forgotten };
  }
  const info = (ownerUrn: string, actorUrn = ownerUrn): TokenInfo => ({
    name: 'ci',
    ownerUrn,
    actorUrn,
    createdAt: 1,
  });
  const mint = (actorUrn: string, duration: AccessTokenDuration = 'ONE_DAY') => ({
    actorUrn,
    duration,
    name: 'ci',
  });

  it('a user who generates tokens mints one as themselves, owned by them', async () => {
    const { tokens, written } = setup();
    const minted = await tokens.mint(graphqlContext(ALICE), mint(ALICE));
    expect(minted).toEqual({
      token: 'signed',
      urn: TOKEN_URN,
      info: { name: 'ci', actorUrn: ALICE, ownerUrn: ALICE, createdAt: 5, expiresAt: 9 },
    });
    expect(writesOf(written)).toEqual([`${TOKEN_URN} dataHubAccessTokenInfo UPSERT`]);
  });

  it('a NO_EXPIRY token is recorded without an expiry', async () => {
    const { tokens } = setup();
    const minted = await tokens.mint(graphqlContext(ALICE), mint(ALICE, 'NO_EXPIRY'));
    expect(minted.info).not.toHaveProperty('expiresAt');
  });

  it('minting a token that acts as another user is refused without MANAGE_ACCESS_TOKENS, and nothing is issued', async () => {
    const { tokens, issued, written } = setup();
    await expect(tokens.mint(graphqlContext(ALICE), mint(BOB))).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    await expect(tokens.mint(graphqlContext(BOB), mint(BOB))).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(issued).toEqual([]);
    expect(written).toEqual([]);
    const minted = await tokens.mint(graphqlContext(ADMIN), mint(BOB));
    expect(minted.info).toMatchObject({ actorUrn: BOB, ownerUrn: ADMIN });
  });

  it('revoking another user’s token is refused, its owner and token managers may', async () => {
    const { tokens, written, forgotten } = setup(info(ALICE));
    await expect(tokens.revoke(graphqlContext(BOB), 't1')).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(written).toEqual([]);
    await tokens.revoke(graphqlContext(ALICE), 't1');
    expect(writesOf(written)).toEqual([`${TOKEN_URN} dataHubAccessTokenKey DELETE`]);
    expect(forgotten).toEqual([TOKEN_URN]);
    await tokens.revoke(graphqlContext(ADMIN), 't1');
  });

  it('listing every token takes MANAGE_ACCESS_TOKENS; one’s own, an ownerUrn filter of oneself', async () => {
    const { tokens } = setup(info(ALICE));
    const page = { start: 0, count: 10 };
    await expect(tokens.list(graphqlContext(ALICE), { ...page, filters: [] })).rejects.toThrow(
      UNAUTHORIZED_MESSAGE,
    );
    await expect(
      tokens.list(graphqlContext(ALICE), { ...page, filters: [{ field: 'ownerUrn', values: [BOB] }] }),
    ).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    const own = await tokens.list(graphqlContext(ALICE), {
      ...page,
      filters: [{ field: 'ownerUrn', values: [ALICE] }],
    });
    expect(own.tokens.map((t) => t.urn)).toEqual([TOKEN_URN]);
    expect((await tokens.list(graphqlContext(ADMIN), { ...page, filters: [] })).total).toBe(1);
  });

  it('a token’s metadata is read by its holder, owner or actor, or a token manager; a bad token is a 400', async () => {
    const { tokens } = setup(info(BOB, BOB));
    expect((await tokens.metadata(graphqlContext(ALICE), 'signed')).urn).toBe(TOKEN_URN);
    expect((await tokens.metadata(graphqlContext(BOB), 'signed')).info.ownerUrn).toBe(BOB);
    await expect(tokens.metadata(graphqlContext('urn:li:corpuser:eve'), 'signed')).rejects.toThrow(
      UNAUTHORIZED_MESSAGE,
    );
    await expect(tokens.metadata(graphqlContext(ALICE), 'forged')).rejects.toThrow('Invalid access token');
  });
});
