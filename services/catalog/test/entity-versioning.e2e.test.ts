import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql } from './graphql-client.js';
import { datasetUrn, enc, proposal, request, startTestCatalog, type TestCatalog } from './harness.js';

const VERSIONS = `query($urn: String!) {
  versionSet(urn: $urn) {
    urn type latestVersion { urn }
    versionsSearch(input: { query: "*", count: 20 }) { total searchResults { entity { urn } } }
  }
}`;

/**
 * Entity versioning as the ecosystem's clients see it: writing an entity's versionProperties keeps its
 * version set (versionSetProperties: latest, versioningScheme) and every version's isLatest in step by
 * sortId, and GraphQL's versionSet lists the versions, highest sortId first. Both families.
 */
for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping entity versioning e2e on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`entity versioning on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    const run = `ver${Math.random().toString(36).slice(2, 8)}`;
    const set = `urn:li:versionSet:(${run},dataset)`;
    const versions = ['v1', 'v2', 'v3'].map((v) => datasetUrn(`${run}.${v}`));

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
    });
    afterAll(async () => catalog?.dispose());

    const writeVersion = async (urn: string, tag: string, sortId: string) => {
      const res = await request(base, 'POST', '/aspects?action=ingestProposal', {
        proposal: proposal(urn, 'versionProperties', {
          versionSet: set,
          version: { versionTag: tag },
          sortId,
          versioningScheme: 'LEXICOGRAPHIC_STRING',
        }),
        async: 'false',
      });
      expect(res.status).toBe(200);
    };
    const aspectOf = async (urn: string, aspect: string) => {
      const res = await request(base, 'GET', `/openapi/v3/entity/${urn.split(':')[2]}/${enc(urn)}/${aspect}`);
      return res.status === 200 ? (res.body as { value: Record<string, unknown> }).value : undefined;
    };

    it('creates the set with its first version as latest; a lower sortId does not take it, a higher one does', async () => {
      await writeVersion(versions[1]!, 'second', 'bbb');
      expect(await aspectOf(set, 'versionSetProperties')).toEqual({
        latest: versions[1],
        versioningScheme: 'LEXICOGRAPHIC_STRING',
      });
      expect(await aspectOf(versions[1]!, 'versionProperties')).toMatchObject({ isLatest: true });

      await writeVersion(versions[0]!, 'first', 'aaa');
      expect(await aspectOf(versions[0]!, 'versionProperties')).toMatchObject({ isLatest: false });
      expect(await aspectOf(set, 'versionSetProperties')).toMatchObject({ latest: versions[1] });

      await writeVersion(versions[2]!, 'third', 'ccc');
      expect(await aspectOf(versions[2]!, 'versionProperties')).toMatchObject({ isLatest: true });
      expect(await aspectOf(versions[1]!, 'versionProperties')).toMatchObject({ isLatest: false });
      expect(await aspectOf(set, 'versionSetProperties')).toMatchObject({ latest: versions[2] });
    });

    it('GraphQL versionSet answers its latest version and its versions, highest sortId first', async () => {
      const res = await graphql(base, VERSIONS, { urn: set });
      expect(res.errors).toBeUndefined();
      expect(res.data?.['versionSet']).toEqual({
        urn: set,
        type: 'VERSION_SET',
        latestVersion: { urn: versions[2] },
        versionsSearch: {
          total: 3,
          searchResults: [...versions].reverse().map((urn) => ({ entity: { urn } })),
        },
      });
      const absent = await graphql(base, VERSIONS, { urn: `urn:li:versionSet:(${run}-none,dataset)` });
      // As the ecosystem's typed getters: an absent set answers as an entity without versions.
      expect(absent.data?.['versionSet']).toMatchObject({
        latestVersion: null,
        versionsSearch: { total: 0, searchResults: [] },
      });
    });
  });
}
