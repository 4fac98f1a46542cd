import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { signUpUser } from './test-users.js';
import { callAs, logIn, startTestCatalog, type JsonResponse, type TestCatalog } from './harness.js';

/**
 * `/openapi/v1/registry/models/...` (the ecosystem's EntityRegistryController): the entity registry's
 * entity and aspect specifications, answered from the catalog's registry, paged as the ecosystem pages
 * them (sorted by name; `start` past the end refused), for callers with MANAGE_SYSTEM_OPERATIONS only.
 */

interface Page {
  elements: Record<string, unknown>[];
  start: number;
  count: number;
  total: number;
}

const BASE = '/openapi/v1/registry/models';

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`the entity registry's models (${family.name})`, () => {
    let catalog: TestCatalog;
    let admin: string;
    let noRole: string;
    let reader: string;
    const run = Date.now().toString(36);

    const read = (path: string, authorization = admin): Promise<JsonResponse> =>
      callAs(catalog.baseUrl, 'GET', `${BASE}${path}`, authorization);
    const ok = async (path: string) => {
      const res = await read(path);
      expect(res.status, res.text).toBe(200);
      return res.body as Record<string, unknown>;
    };

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      admin = `Bearer ${await logIn(catalog.baseUrl)}`;
      noRole = await signUpUser(catalog.baseUrl, admin, `registry_norole_${run}@example.com`);
      reader = await signUpUser(catalog.baseUrl, admin, `registry_reader_${run}@example.com`, 'Reader');
    }, 60_000);
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('pages the entity specifications sorted by name, 5 by default, each with its key and aspect specifications', async () => {
      const first = (await ok('/entity/specifications')) as unknown as Page;
      expect(first.start).toBe(0);
      expect(first.count).toBe(5);
      expect(first.elements).toHaveLength(5);
      expect(first.total).toBeGreaterThan(50);
      const names = first.elements.map((e) => e['name'] as string);
      expect(names).toEqual([...names].sort());
      const all = (await ok(`/entity/specifications?start=0&count=${first.total}`)) as unknown as Page;
      const dataset = all.elements.find((e) => e['name'] === 'dataset')!;
      expect(dataset).toMatchObject({
        name: 'dataset',
        keyAspectName: 'datasetKey',
        entityAnnotation: { name: 'dataset', keyAspect: 'datasetKey' },
        keyAspectSpec: { aspectAnnotation: { name: 'datasetKey', timeseries: false } },
        snapshotSchemaName: 'com.linkedin.metadata.snapshot.DatasetSnapshot',
        aspectTyperefSchemaName: 'com.linkedin.metadata.aspect.DatasetAspect',
      });
      expect(Object.keys(dataset['aspectSpecMap'] as object)).toContain('datasetProperties');
      expect((dataset['searchableFieldTypes'] as Record<string, string[]>)['name']).toContain('WORD_GRAM');
      const next = (await ok('/entity/specifications?start=5&count=5')) as unknown as Page;
      expect(next.elements[0]?.['name']).toBe(all.elements[5]?.['name']);
    });

    it("answers one entity's aspect specifications, by list and by name; 404 for an unknown entity", async () => {
      const dataset = await ok('/entity/specifications/dataset');
      const aspects = dataset['aspectSpecs'] as { aspectAnnotation: { name: string; timeseries: boolean } }[];
      expect(dataset['name']).toBe('dataset');
      expect(aspects.map((a) => a.aspectAnnotation.name)).toEqual(
        expect.arrayContaining(['datasetKey', 'datasetProperties', 'datasetProfile']),
      );
      expect(
        aspects.find((a) => a.aspectAnnotation.name === 'datasetProfile')?.aspectAnnotation.timeseries,
      ).toBe(true);
      const byName = await ok('/entity/specifications/dataset/aspects');
      expect(byName['globalTags']).toMatchObject({
        aspectAnnotation: { name: 'globalTags', timeseries: false },
        relationshipFieldSpec: {
          '/tags/*/tag': {
            pathComponents: ['tags', '*', 'tag'],
            fieldType: 'RelationshipFieldSpec',
            annotations: { relationshipAnnotation: { name: 'TaggedWith' } },
          },
        },
      });
      for (const path of [
        '/entity/specifications/noSuchEntity',
        '/entity/specifications/noSuchEntity/aspects',
      ])
        expect((await read(path)).status, path).toBe(404);
    });

    it('pages the aspect specifications (20 by default) and answers one by name; 404 for an unknown one', async () => {
      const page = (await ok('/aspect/specifications')) as unknown as Page;
      expect(page.count).toBe(20);
      const names = page.elements.map((e) => (e['aspectAnnotation'] as { name: string }).name);
      expect(names).toEqual([...names].sort());
      const properties = await ok('/aspect/specifications/datasetProperties');
      expect(properties).toMatchObject({
        aspectAnnotation: { name: 'datasetProperties', timeseries: false },
        searchableFieldSpec: { '/name': { annotations: { searchableAnnotation: { fieldName: 'name' } } } },
      });
      expect((await read('/aspect/specifications/noSuchAspect')).status).toBe(404);
    });

    it('answers an empty page of event specifications (the registry declares no events)', async () => {
      expect(await ok('/event/specifications')).toEqual({ elements: [], start: 0, count: 0, total: 0 });
    });

    it('refuses a start past the last element and a negative count (400)', async () => {
      const past = await read('/aspect/specifications?start=100000');
      expect(past.status).toBe(400);
      expect(past.text).toMatch(/Start offset 100000 exceeds total/);
      expect((await read('/entity/specifications?count=-1')).status).toBe(400);
    });

    it('needs MANAGE_SYSTEM_OPERATIONS: a user with no role and a Reader are refused (403)', async () => {
      for (const actor of [noRole, reader]) {
        for (const path of [
          '/entity/specifications',
          '/entity/specifications/dataset',
          '/aspect/specifications/status',
        ]) {
          const res = await read(path, actor);
          expect(res.status, `${path}: ${res.text}`).toBe(403);
          expect(res.text).not.toContain('aspectAnnotation');
        }
      }
      expect((await callAs(catalog.baseUrl, 'GET', `${BASE}/entity/specifications`, undefined)).status).toBe(
        401,
      );
    });
  });
}
