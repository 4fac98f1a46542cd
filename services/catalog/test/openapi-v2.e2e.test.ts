import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { SYSTEM_AUTH_HEADERS, startTestCatalog, type TestCatalog } from './harness.js';

async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': contentType, accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping OpenAPI v2 e2e on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`OpenAPI v2 entity API on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    const run = Math.random().toString(36).slice(2, 8);
    const V2 = '/openapi/v2/entity';
    const retention = `urn:li:structuredProperty:io.catalog.retention_${run}`;
    const steward = `urn:li:structuredProperty:io.catalog.steward_${run}`;
    const dataset = `urn:li:dataset:(urn:li:dataPlatform:hive,v2_${run}.orders,PROD)`;

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
    });
    afterAll(async () => catalog?.dispose());

    it('scrolls every entity’s values of a time-series aspect newest first, resuming from scrollId', async () => {
      const t0 = 1_700_000_000_000;
      const first = `urn:li:dataset:(urn:li:dataPlatform:hive,ts_${run}.a,PROD)`;
      const second = `urn:li:dataset:(urn:li:dataPlatform:hive,ts_${run}.b,PROD)`;
      const profiles = [
        [first, 1],
        [first, 2],
        [first, 3],
        [second, 2],
        [second, 4],
      ] as const;
      const res = await fetch(`${base}/aspects?action=ingestProposalBatch`, {
        method: 'POST',
        headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', 'X-Wait-For-Index': 'true' },
        body: JSON.stringify({
          async: 'false',
          proposals: profiles.map(([urn, day]) => ({
            entityType: 'dataset',
            entityUrn: urn,
            changeType: 'UPSERT',
            aspectName: 'datasetProfile',
            aspect: {
              value: JSON.stringify({ timestampMillis: t0 + day * 86_400_000, rowCount: day * 100 }),
              contentType: 'application/json',
            },
            systemMetadata: { runId: `run-${run}` },
          })),
        }),
      });
      expect(res.status).toBe(200);
      const window = `startTimeMillis=${t0}&endTimeMillis=${t0 + 5 * 86_400_000}`;
      type Page = {
        scrollId?: string;
        results: {
          urn: string;
          timestampMillis: number;
          event: { rowCount: number };
          systemMetadata?: unknown;
        }[];
      };
      const seen: Page['results'] = [];
      let scrollId: string | undefined;
      for (let page = 0; page < 5; page++) {
        const got = await call(
          base,
          'GET',
          `/openapi/v2/timeseries/dataset/datasetProfile?count=2&${window}${scrollId ? `&scrollId=${scrollId}` : ''}`,
        );
        expect(got.status).toBe(200);
        const body = got.body as Page;
        seen.push(...body.results);
        scrollId = body.scrollId;
        if (scrollId === undefined) break;
      }
      expect(seen.map((r) => r.event.rowCount)).toEqual([400, 300, 200, 200, 100]);
      expect(new Set(seen.filter((r) => r.event.rowCount === 200).map((r) => r.urn))).toEqual(
        new Set([first, second]),
      );
      expect(seen[0]).toMatchObject({ urn: second, timestampMillis: t0 + 4 * 86_400_000 });
      expect(seen[0]!.systemMetadata).toBeUndefined();
      const withMetadata = await call(
        base,
        'GET',
        `/openapi/v2/timeseries/dataset/datasetProfile?count=1&systemMetadata=true&${window}`,
      );
      expect((withMetadata.body as Page).results[0]!.systemMetadata).toMatchObject({ runId: `run-${run}` });
      // A count above the maximum is clamped, as in the ecosystem: one page holds all five, with no scrollId.
      const clamped = await call(
        base,
        'GET',
        `/openapi/v2/timeseries/dataset/datasetProfile?count=99999&${window}`,
      );
      expect(clamped.status).toBe(200);
      expect((clamped.body as Page).results).toHaveLength(5);
      expect((clamped.body as Page).scrollId).toBeUndefined();
    });

    it('refuses a versioned aspect, an unknown entity, a foreign scrollId and a bad count with 400s naming them', async () => {
      const cases: [string, RegExp][] = [
        ['/openapi/v2/timeseries/dataset/datasetProperties', /Only timeseries aspects/],
        ['/openapi/v2/timeseries/nosuchentity/datasetProfile', /Unknown entity type: nosuchentity/],
        ['/openapi/v2/timeseries/dataset/datasetProfile?scrollId=bm9wZQ', /Invalid scrollId/],
        [
          '/openapi/v2/timeseries/dataset/datasetProfile?count=-1',
          /Query parameter count must be >= 0, got -1/,
        ],
        [
          '/openapi/v2/timeseries/dataset/datasetProfile?startTimeMillis=9&endTimeMillis=1',
          /startTimeMillis/,
        ],
      ];
      for (const [path, message] of cases) {
        const res = await call(base, 'GET', path);
        expect(res.status, path).toBe(400);
        expect(JSON.stringify(res.body), path).toMatch(message);
      }
    });

    it('creates structured property definitions and assigns values in the v2 forms of spec 4.13', async () => {
      for (const [urn, valueType, qualifiedName] of [
        [retention, 'urn:li:dataType:datahub.number', `io.catalog.retention_${run}`],
        [steward, 'urn:li:dataType:datahub.string', `io.catalog.steward_${run}`],
      ] as const) {
        const res = await call(
          base,
          'POST',
          `${V2}/structuredProperty/${encodeURIComponent(urn)}/propertyDefinition`,
          {
            qualifiedName,
            valueType,
            cardinality: 'SINGLE',
            displayName: qualifiedName,
            entityTypes: ['urn:li:entityType:datahub.dataset'],
          },
        );
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          urn,
          aspects: { propertyDefinition: { value: { qualifiedName } } },
        });
      }
      const assigned = await call(
        base,
        'POST',
        `${V2}/dataset/${encodeURIComponent(dataset)}/structuredProperties`,
        {
          properties: [
            { propertyUrn: retention, values: [{ double: 30 }] },
            { propertyUrn: steward, values: [{ string: 'jdoe' }] },
          ],
        },
      );
      expect(assigned.status).toBe(200);
      expect(assigned.body).toEqual({
        urn: dataset,
        aspects: {
          structuredProperties: {
            value: {
              properties: [
                { propertyUrn: retention, values: [{ double: 30 }] },
                { propertyUrn: steward, values: [{ string: 'jdoe' }] },
              ],
            },
          },
        },
      });
    });

    it('removes one property with a json-patch PATCH keyed by arrayPrimaryKeys, showing the rest', async () => {
      const res = await call(
        base,
        'PATCH',
        `${V2}/dataset/${encodeURIComponent(dataset)}/structuredProperties`,
        {
          patch: [{ op: 'remove', path: `/properties/${retention}` }],
          arrayPrimaryKeys: { properties: ['propertyUrn'] },
        },
        'application/json-patch+json',
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        urn: dataset,
        aspects: {
          structuredProperties: {
            value: { properties: [{ propertyUrn: steward, values: [{ string: 'jdoe' }] }] },
          },
        },
      });
    });

    it('reads, batch-writes, batch-reads and scrolls with aspects nested under `aspects`', async () => {
      const other = `urn:li:dataset:(urn:li:dataPlatform:hive,v2_${run}.customers,PROD)`;
      const batch = await call(base, 'POST', `${V2}/dataset?async=false`, [
        { urn: other, aspects: { status: { value: { removed: false } } } },
      ]);
      // A new entity is answered with everything its creation stored: the key and default aspects too.
      const platform = 'urn:li:dataPlatform:hive';
      expect(batch).toEqual({
        status: 200,
        body: [
          {
            urn: other,
            aspects: {
              status: { value: { removed: false } },
              datasetKey: { value: { platform, name: `v2_${run}.customers`, origin: 'PROD' } },
              browsePathsV2: { value: { path: [{ id: `v2_${run}` }] } },
              dataPlatformInstance: { value: { platform } },
            },
          },
        ],
      });
      // Written again, it exists: the answer is what this write stored.
      const again = await call(base, 'POST', `${V2}/dataset?async=false`, [
        { urn: other, aspects: { status: { value: { removed: false } } } },
      ]);
      expect(again.body).toEqual([{ urn: other, aspects: { status: { value: { removed: false } } } }]);
      const missing = await call(base, 'POST', `${V2}/dataset?async=false`, [{ urn: other }]);
      expect(missing).toMatchObject({ status: 400, body: { error: 'Missing `aspects` field' } });
      const read = await call(base, 'GET', `${V2}/dataset/${encodeURIComponent(other)}`);
      expect(read.body).toMatchObject({ urn: other, aspects: { status: { value: { removed: false } } } });
      const many = await call(base, 'POST', `${V2}/batch/dataset`, {
        urns: [dataset, other],
        aspectNames: ['status', 'structuredProperties'],
      });
      expect(many.body).toEqual({
        entities: [
          {
            urn: dataset,
            aspects: {
              structuredProperties: {
                value: { properties: [{ propertyUrn: steward, values: [{ string: 'jdoe' }] }] },
              },
            },
          },
          { urn: other, aspects: { status: { value: { removed: false } } } },
        ],
      });
    });
  });
}
