import { ACCESS_TOKEN_DURATION_MS } from '@catalog/auth';
import { normalizeFilter } from '@catalog/search';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN_DURATIONS,
  byExpiryDescending,
  isListingOwnTokens,
  tokenInfoOf,
  tokenMatches,
  tokenUrnOf,
  type TokenInfo,
} from './access-tokens.js';

const ME = 'urn:li:corpuser:alice';
const OTHER = 'urn:li:corpuser:bob';

describe('ACCESS_TOKEN_DURATIONS', () => {
  it('offers exactly the durations the token service maps', () => {
    expect([...ACCESS_TOKEN_DURATIONS].sort()).toEqual(Object.keys(ACCESS_TOKEN_DURATION_MS).sort());
  });
});

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
