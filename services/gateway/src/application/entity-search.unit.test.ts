import type { RequestContext } from '@catalog/auth';
import type { SearchIndex, SearchResponse } from '@catalog/search';
import { describe, expect, it } from 'vitest';
import type { AccessPolicy } from './access-policy.js';
import { EntitySearch } from './entity-search.js';

const ctx: RequestContext = {
  authentication: {
    actorUrn: 'urn:li:corpuser:bob',
    actorId: 'bob',
    method: 'session-token',
    isSystem: false,
  },
  origin: { sourceIp: '', userAgent: '', eventSource: 'GRAPHQL', traceId: '0'.repeat(32) },
};

const hit = (urn: string) => ({ urn, entityType: 'dataHubAccessToken', score: 1, matchedFields: [] });

function searchOver(response: SearchResponse, unreadable: readonly string[]): EntitySearch {
  const index = {
    search: async () => response,
    autocomplete: async () => ({ suggestions: ['deploy key'], entities: response.hits.map((h) => h.urn) }),
  } as unknown as SearchIndex;
  const policy = {
    readable: async (_ctx: RequestContext, urns: readonly string[]) =>
      urns.filter((u) => !unreadable.includes(u)),
  } as unknown as AccessPolicy;
  return new EntitySearch(index, policy);
}

describe('EntitySearch', () => {
  const response = { total: 3, hits: [hit('urn:a'), hit('urn:b'), hit('urn:c')], aggregations: [] };

  it('leaves hits the actor may not read out of the page and its total, and keeps where the index page ended', async () => {
    const page = await searchOver(response, ['urn:b', 'urn:c']).search(ctx, {
      entityTypes: ['dataHubAccessToken'],
      input: '*',
      start: 0,
      count: 3,
    });
    expect(page.hits.map((h) => h.urn)).toEqual(['urn:a']);
    expect(page.total).toBe(1);
    expect(page.scanned).toMatchObject({ count: 3, total: 3, last: { urn: 'urn:c' } });
  });

  it('suggests nothing when an entity the suggestions may come from is unreadable', async () => {
    const result = await searchOver(response, ['urn:b']).autocomplete(ctx, {
      entityType: 'dataHubAccessToken',
      query: 'dep',
      limit: 10,
    });
    expect(result).toEqual({ suggestions: [], entities: ['urn:a', 'urn:c'] });
  });
});
