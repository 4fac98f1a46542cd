import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { startTestCatalog, type TestCatalog } from './harness.js';

async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'Content-Type': contentType, accept: 'application/json' },
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
      expect(batch).toEqual({
        status: 200,
        body: [{ urn: other, aspects: { status: { value: { removed: false } } } }],
      });
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
