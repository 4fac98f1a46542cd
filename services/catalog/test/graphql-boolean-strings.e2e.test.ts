import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql } from './graphql-client.js';
import { SYSTEM_AUTH_HEADERS, datasetUrn, proposal, startTestCatalog, type TestCatalog } from './harness.js';

/**
 * GraphQL variables may carry a Boolean as the string "true" or "false", as the ecosystem's smoke tests
 * send `negated` in their filters; any other string there is still refused. On both families.
 */

const SEARCH = `query($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) { total searchResults { entity { urn } } }
}`;

interface Found {
  searchAcrossEntities: { total: number; searchResults: { entity: { urn: string } }[] };
}

for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping GraphQL boolean strings on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`GraphQL boolean strings on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    const run = Math.random().toString(36).slice(2, 8);
    const orders = datasetUrn(`bools_${run}.orders`, 'postgres');
    const clicks = datasetUrn(`bools_${run}.clicks`, 'hive');

    const search = (negated: unknown) =>
      graphql(base, SEARCH, {
        input: {
          query: run,
          types: ['DATASET'],
          orFilters: [
            { and: [{ field: 'platform.keyword', values: ['urn:li:dataPlatform:postgres'], negated }] },
          ],
        },
      });
    const urnsOf = (res: { data?: unknown }) =>
      (res.data as Found).searchAcrossEntities.searchResults.map((r) => r.entity.urn);

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      const res = await fetch(`${base}/aspects?action=ingestProposalBatch`, {
        method: 'POST',
        headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', 'X-Wait-For-Index': 'true' },
        body: JSON.stringify({
          proposals: [
            proposal(orders, 'datasetProperties', { name: `orders ${run}` }),
            proposal(clicks, 'datasetProperties', { name: `clicks ${run}` }),
          ],
          async: 'false',
        }),
      });
      if (res.status !== 200) throw new Error(`write failed: ${res.status} ${await res.text()}`);
    });
    afterAll(async () => catalog?.dispose());

    it('runs searchAcrossEntities with negated: "false" in its orFilters variable as negated: false', async () => {
      const res = await search('false');
      expect(res.errors).toBeUndefined();
      expect(urnsOf(res)).toEqual([orders]);
      expect(urnsOf(await search(false))).toEqual([orders]);
    });

    it('takes negated: "true" as negated: true', async () => {
      const res = await search('true');
      expect(res.errors).toBeUndefined();
      expect(urnsOf(res)).toEqual([clicks]);
    });

    it('still refuses a string that is no boolean', async () => {
      const res = await search('maybe');
      expect(res.status).toBe(200);
      expect(res.errors?.[0]?.message).toContain('Boolean cannot represent a non boolean value: "maybe"');
    });
  });
}
