import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  datasetUrn,
  enc,
  get,
  proposal,
  request,
  startTestCatalog,
  waitUntil,
  type JsonResponse,
  type TestCatalog,
} from './harness.js';
import { FAMILIES } from './families.js';

/**
 * `POST /entities?action=delete` and `deleteReferences` (facts 5.1, 5.2): hard delete through the log
 * (every version, the search document, edges both ways, time-series values), range deletes of one
 * time-series aspect, reference removal, and a restore of a deleted entity leaving nothing behind.
 */
for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping hard delete e2e on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`hard delete on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    const run = `hd${Math.random().toString(36).slice(2, 8)}`;
    const dataset = (name: string) => datasetUrn(`${run}.${name}`);
    const tag = `urn:li:tag:${run}_pii`;
    const otherTag = `urn:li:tag:${run}_gold`;

    /** Every write below waits until it is indexed (X-Wait-For-Index). */
    const write = async (proposals: Record<string, unknown>[]) => {
      const res = await request(base, 'POST', '/aspects?action=ingestProposalBatch', {
        proposals,
        async: 'false',
      });
      if (res.status !== 200) throw new Error(`write: ${res.status} ${res.text}`);
    };
    const action = (name: string, body: Record<string, unknown>): Promise<JsonResponse> =>
      request(base, 'POST', `/entities?action=${name}`, body);
    const valueOf = (res: JsonResponse) => {
      if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
      return (res.body as { value: Record<string, unknown> }).value;
    };
    const profile = (urn: string, timestampMillis: number) =>
      proposal(urn, 'datasetProfile', { timestampMillis, rowCount: timestampMillis / 1000 });
    const profileTimes = async (urn: string) => {
      const res = await request(base, 'POST', '/aspects?action=getTimeseriesAspectValues', {
        urn,
        entity: 'dataset',
        aspect: 'datasetProfile',
        startTimeMillis: 0,
        endTimeMillis: 10_000_000,
      });
      const values = valueOf(res)['values'] as { aspect: { value: string } }[];
      return values.map((v) => (JSON.parse(v.aspect.value) as { timestampMillis: number }).timestampMillis);
    };
    const searchUrns = async (input: string) => {
      const res = await request(base, 'POST', '/entities?action=search', {
        entity: 'dataset',
        input,
        start: 0,
        count: 100,
      });
      return valueOf(res)['entities'] as string[];
    };
    const related = async (urn: string, direction: 'INCOMING' | 'OUTGOING', types: string) => {
      const res = await get(base, `/relationships?direction=${direction}&urn=${enc(urn)}&types=${types}`);
      expect(res.status).toBe(200);
      return (res.body as { entities: string[] }).entities;
    };
    const aspectStatus = async (urn: string, aspect: string, version: number) =>
      (await get(base, `/aspects/${enc(urn)}?aspect=${aspect}&version=${version}`)).status;
    const tagsOf = async (urn: string) => {
      const res = await get(base, `/aspects/${enc(urn)}?aspect=globalTags&version=0`);
      if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
      const aspect = (res.body as { aspect: Record<string, { tags: { tag: string }[] }> }).aspect;
      return Object.values(aspect)[0]!.tags.map((t) => t.tag);
    };

    const orders = dataset('orders');
    const customers = dataset('customers');
    const chart = `urn:li:chart:(looker,${run}_revenue)`;

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      await write([
        proposal(orders, 'datasetProperties', { name: `${run}_orders`, description: 'first' }),
        proposal(orders, 'globalTags', { tags: [{ tag: otherTag }] }),
        proposal(orders, 'upstreamLineage', {
          upstreams: [
            {
              dataset: customers,
              type: 'TRANSFORMED',
              auditStamp: { time: 0, actor: 'urn:li:corpuser:etl' },
            },
          ],
        }),
        proposal(customers, 'datasetProperties', { name: `${run}_customers` }),
        proposal(chart, 'chartInfo', {
          title: 'Revenue',
          description: 'Revenue by day',
          lastModified: {
            created: { time: 0, actor: 'urn:li:corpuser:x' },
            lastModified: { time: 0, actor: 'urn:li:corpuser:x' },
          },
          inputs: [{ string: orders }],
        }),
        profile(orders, 1_000),
        profile(orders, 2_000),
        profile(orders, 3_000),
      ]);
      // A second version of datasetProperties.
      await write([proposal(orders, 'datasetProperties', { name: `${run}_orders`, description: 'second' })]);
    }, 120_000);
    afterAll(async () => catalog?.dispose());

    it('hard-deletes every version, the document, edges both ways and the time-series values', async () => {
      expect(await aspectStatus(orders, 'datasetProperties', 1)).toBe(200);
      expect(await searchUrns(`${run}_orders`)).toEqual([orders]);
      expect(await related(orders, 'INCOMING', 'Consumes')).toEqual([chart]);
      expect(await related(orders, 'OUTGOING', 'DownstreamOf')).toEqual([customers]);
      expect(await profileTimes(orders)).toEqual([3_000, 2_000, 1_000]);

      const value = valueOf(await action('delete', { urn: orders }));
      expect(value['urn']).toBe(orders);
      // datasetKey, datasetProperties (2 versions), globalTags, upstreamLineage, and what creation added.
      expect(value['rows']).toBeGreaterThanOrEqual(5);
      expect(value['timeseriesRows']).toBe(3);

      for (const [aspect, version] of [
        ['datasetProperties', 0],
        ['datasetProperties', 1],
        ['globalTags', 0],
        ['datasetKey', 0],
      ] as const)
        expect(await aspectStatus(orders, aspect, version)).toBe(404);
      expect(await searchUrns(`${run}_orders`)).toEqual([]);
      expect(await related(orders, 'INCOMING', 'Consumes')).toEqual([]);
      expect(await related(orders, 'OUTGOING', 'DownstreamOf')).toEqual([]);
      expect(await related(customers, 'INCOMING', 'DownstreamOf')).toEqual([]);
      expect(await related(otherTag, 'INCOMING', 'TaggedWith')).toEqual([]);
      expect(await profileTimes(orders)).toEqual([]);
      // References from other entities stay (deleteReferences removes them).
      expect((await get(base, `/aspects/${enc(chart)}?aspect=chartInfo&version=0`)).status).toBe(200);

      // Deleting again (a missing urn) is 200 with zeros.
      expect(valueOf(await action('delete', { urn: orders }))).toEqual({
        urn: orders,
        rows: 0,
        timeseriesRows: 0,
      });
    });

    it('leaves no orphan when the indices of a deleted entity are restored', async () => {
      const res = await request(base, 'POST', '/gms/operations?action=restoreIndices', { urn: orders });
      expect(res.status).toBe(200);
      // A restore of an entity still referring to it, and of one it referred to, brings nothing back.
      await request(base, 'POST', '/gms/operations?action=restoreIndices', { urn: customers });
      const marker = dataset('marker');
      await write([proposal(marker, 'datasetProperties', { name: `${run}_marker` })]);
      await waitUntil(
        () => searchUrns(`${run}_marker`),
        (urns) => urns.length === 1,
      );
      expect(await searchUrns(`${run}_orders`)).toEqual([]);
      expect(await related(orders, 'OUTGOING', 'DownstreamOf')).toEqual([]);
      expect(await related(customers, 'INCOMING', 'DownstreamOf')).toEqual([]);
      expect(await searchUrns(`${run}_customers`)).toEqual([customers]);
    });

    it('deletes the values of one time-series aspect in an inclusive range', async () => {
      const metrics = dataset('metrics');
      await write([1_000, 2_000, 3_000, 4_000, 5_000].map((t) => profile(metrics, t)));
      const value = valueOf(
        await action('delete', {
          urn: metrics,
          aspectName: 'datasetProfile',
          startTimeMillis: 2_000,
          endTimeMillis: 4_000,
        }),
      );
      expect(value).toEqual({ urn: metrics, timeseriesRows: 3 });
      expect(await profileTimes(metrics)).toEqual([5_000, 1_000]);
      expect(valueOf(await action('delete', { urn: metrics, aspectName: 'datasetProfile' }))).toEqual({
        urn: metrics,
        timeseriesRows: 2,
      });
      expect(await profileTimes(metrics)).toEqual([]);
    });

    it('refuses an aspect that is not time-series, and an active structured property, with a 4xx', async () => {
      const res = await action('delete', { urn: customers, aspectName: 'datasetProperties' });
      expect(res.status).toBe(400);
      expect(res.text).toContain('Not supported for non-timeseries aspect datasetProperties');
      expect((await action('delete', { urn: 'not a urn' })).status).toBe(400);

      const property = `urn:li:structuredProperty:io.${run}.retention`;
      await write([
        proposal(property, 'propertyDefinition', {
          qualifiedName: `io.${run}.retention`,
          valueType: 'urn:li:dataType:datahub.string',
          cardinality: 'SINGLE',
          entityTypes: ['urn:li:entityType:datahub.dataset'],
        }),
      ]);
      const refused = await action('delete', { urn: property });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      expect((await get(base, `/aspects/${enc(property)}?aspect=propertyDefinition&version=0`)).status).toBe(
        200,
      );
      // Soft-deleted first, it goes.
      await write([proposal(property, 'status', { removed: true })]);
      expect(valueOf(await action('delete', { urn: property }))['rows']).toBeGreaterThanOrEqual(2);
    });

    it('finds references with a dry run and removes them for real', async () => {
      const tagged = dataset('tagged');
      await write([
        proposal(tag, 'tagProperties', { name: `${run}_pii` }),
        proposal(tagged, 'globalTags', { tags: [{ tag }, { tag: otherTag }] }),
      ]);
      const dry = valueOf(await action('deleteReferences', { urn: tag, dryRun: true }));
      expect(dry).toEqual({
        total: 1,
        relatedAspects: [{ relationship: 'TaggedWith', entity: tagged, aspect: 'globalTags' }],
      });
      expect(await tagsOf(tagged)).toEqual([tag, otherTag]);

      const real = valueOf(await action('deleteReferences', { urn: tag }));
      expect(real['total']).toBe(1);
      expect(await tagsOf(tagged)).toEqual([otherTag]);
      expect(valueOf(await action('deleteReferences', { urn: tag, dryRun: true }))).toEqual({
        total: 0,
        relatedAspects: [],
      });
      expect(await related(tag, 'INCOMING', 'TaggedWith')).toEqual([]);
      expect(await related(otherTag, 'INCOMING', 'TaggedWith')).toEqual([tagged]);
    });

    it('finds references through search once a hard delete has removed the edges (the CLI order)', async () => {
      // `datahub delete --hard` of a tag: `action=delete` first, `deleteReferences` second.
      const gone = `urn:li:tag:${run}_gone`;
      const first = dataset('first');
      const second = dataset('second');
      await write([
        proposal(gone, 'tagProperties', { name: `${run}_gone` }),
        proposal(first, 'globalTags', { tags: [{ tag: gone }, { tag: otherTag }] }),
        proposal(second, 'globalTags', { tags: [{ tag: gone }] }),
        // A soft-deleted referrer is cleaned too.
        proposal(second, 'status', { removed: true }),
      ]);
      expect(await related(gone, 'INCOMING', 'TaggedWith')).toContain(first);

      expect(valueOf(await action('delete', { urn: gone }))['rows']).toBeGreaterThanOrEqual(1);
      // The indexer removes the tag's edges both ways: the graph no longer knows who referred to it.
      await waitUntil(
        () => related(gone, 'INCOMING', 'TaggedWith'),
        (entities) => entities.length === 0,
        30_000,
      );

      const expected = [first, second]
        .sort()
        .map((entity) => ({ relationship: 'TaggedWith', entity, aspect: 'globalTags' }));
      expect(valueOf(await action('deleteReferences', { urn: gone, dryRun: true }))).toEqual({
        total: 2,
        relatedAspects: expected,
      });
      expect(await tagsOf(first)).toEqual([gone, otherTag]);

      expect(valueOf(await action('deleteReferences', { urn: gone }))).toEqual({
        total: 2,
        relatedAspects: expected,
      });
      expect(await tagsOf(first)).toEqual([otherTag]);
      expect(await tagsOf(second)).toEqual([]);
      expect(valueOf(await action('deleteReferences', { urn: gone, dryRun: true }))).toEqual({
        total: 0,
        relatedAspects: [],
      });
    });
  });
}
