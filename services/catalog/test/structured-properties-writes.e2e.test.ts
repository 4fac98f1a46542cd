import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { SYSTEM_AUTH_HEADERS, startTestCatalog, type TestCatalog } from './harness.js';

/**
 * The structured-property write rules (persistence) as every write route meets them: Rest.li
 * ingestProposal, OpenAPI v3 and the v2 entity API of spec 4.13, on both families. A write that breaks
 * a rule is refused with the rule's message (Rest.li 422; OpenAPI 400 "Validation Error") and stores
 * nothing; the type entities the rules name are bootstrapped at start.
 */

interface Reply {
  readonly status: number;
  readonly body: unknown;
}

async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<Reply> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': contentType, 'X-RestLi-Protocol-Version': '2.0.0' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, body: parsed };
}

const enc = encodeURIComponent;
const STRING = 'urn:li:dataType:datahub.string';
const NUMBER = 'urn:li:dataType:datahub.number';
const DATASET_TYPE = 'urn:li:entityType:datahub.dataset';

for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping structured property write e2e on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`structured property writes on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    const run = Math.random().toString(36).slice(2, 8);
    const sp = (name: string) => `urn:li:structuredProperty:io.e2e_${run}.${name}`;
    const fqn = (urn: string) => urn.slice('urn:li:structuredProperty:'.length);
    const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,sp_${run}.${name},PROD)`;

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
    });
    afterAll(async () => catalog?.dispose());

    /** Rest.li ingestProposal, synchronous. */
    const ingest = (
      entityType: string,
      urn: string,
      aspectName: string,
      value: unknown,
      changeType = 'UPSERT',
    ) =>
      call(base, 'POST', '/aspects?action=ingestProposal', {
        proposal: {
          entityType,
          entityUrn: urn,
          changeType,
          aspectName,
          aspect: {
            contentType: changeType === 'PATCH' ? 'application/json-patch+json' : 'application/json',
            value: JSON.stringify(value),
          },
        },
        async: 'false',
      });
    /** OpenAPI v3: one aspect, synchronous, an upsert. */
    const v3 = (entityType: string, urn: string, aspect: string, value: unknown) =>
      call(
        base,
        'POST',
        `/openapi/v3/entity/${entityType}/${enc(urn)}/${aspect}?async=false&createIfNotExists=false`,
        { value },
      );
    /** OpenAPI v2: one aspect from its raw value, an upsert. */
    const v2 = (entityType: string, urn: string, aspect: string, value: unknown) =>
      call(
        base,
        'POST',
        `/openapi/v2/entity/${entityType}/${enc(urn)}/${aspect}?createIfNotExists=false`,
        value,
      );
    const read = async (entityType: string, urn: string, aspect: string) =>
      call(base, 'GET', `/openapi/v3/entity/${entityType}/${enc(urn)}/${aspect}`);

    const definition = (urn: string, overrides: Record<string, unknown> = {}) => ({
      qualifiedName: fqn(urn),
      valueType: STRING,
      cardinality: 'MULTIPLE',
      entityTypes: [DATASET_TYPE],
      ...overrides,
    });

    const expectRestliRefusal = (res: Reply, message: string) => {
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ status: 422, message: expect.stringContaining(message) });
    };
    const expectOpenApiRefusal = (res: Reply, message: string) => {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Validation Error', message: expect.stringContaining(message) });
    };

    it('bootstraps the data-type and entity-type entities at start', async () => {
      const deadline = Date.now() + 30_000;
      let found: Reply | undefined;
      for (;;) {
        found = await read('dataType', 'urn:li:dataType:datahub.string', 'dataTypeInfo');
        const entityType = await read(
          'entityType',
          'urn:li:entityType:datahub.schemaField',
          'entityTypeInfo',
        );
        if ((found.status === 200 && entityType.status === 200) || Date.now() > deadline) {
          expect(entityType.body).toMatchObject({
            value: { qualifiedName: 'datahub.schemaField', displayName: 'schemaField' },
          });
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(found.body).toMatchObject({
        value: {
          qualifiedName: 'datahub.string',
          displayName: 'String',
          description: 'A string of characters.',
        },
      });
    });

    it('Rest.li ingestProposal: definitions and values are judged, refusals are 422s naming the rule', async () => {
      const tier = sp('tier');
      const allowed = [{ value: { string: 'gold' } }, { value: { string: 'silver' } }];
      expect(
        (
          await ingest(
            'structuredProperty',
            tier,
            'propertyDefinition',
            definition(tier, { allowedValues: allowed }),
          )
        ).status,
      ).toBe(200);

      const spaced = 'urn:li:structuredProperty:has spaces';
      expectRestliRefusal(
        await ingest(
          'structuredProperty',
          spaced,
          'propertyDefinition',
          definition(spaced, { qualifiedName: 'x' }),
        ),
        'Urn ID cannot have spaces',
      );
      expectRestliRefusal(
        await ingest(
          'structuredProperty',
          tier,
          'propertyDefinition',
          definition(tier, { allowedValues: allowed.slice(1) }),
        ),
        'Cannot restrict values that were previously allowed',
      );

      const target = dataset('restli');
      const value = (v: string) => ({ properties: [{ propertyUrn: tier, values: [{ string: v }] }] });
      expectRestliRefusal(
        await ingest('dataset', target, 'structuredProperties', value('bronze')),
        `Property: ${tier}, value: {string=bronze} should be one of [{string=gold}, {string=silver}]`,
      );
      expect((await read('dataset', target, 'structuredProperties')).status).toBe(404);
      expect((await ingest('dataset', target, 'structuredProperties', value('gold'))).status).toBe(200);

      // An orphan assignment is dropped (the default); a write of orphans only fails.
      const orphan = sp('orphan');
      const withOrphan = {
        properties: [...value('silver').properties, { propertyUrn: orphan, values: [{ string: 'x' }] }],
      };
      expect((await ingest('dataset', target, 'structuredProperties', withOrphan)).status).toBe(200);
      expect((await read('dataset', target, 'structuredProperties')).body).toMatchObject({
        value: value('silver'),
      });
      expectRestliRefusal(
        await ingest('dataset', target, 'structuredProperties', { properties: [withOrphan.properties[1]] }),
        `no valid property assignments remain after removing values for non-existent properties: [${orphan}]`,
      );

      // The SDK's patch builder, validated on its result.
      expectRestliRefusal(
        await ingest(
          'dataset',
          target,
          'structuredProperties',
          {
            patch: [
              {
                op: 'add',
                path: `/properties/${tier}`,
                value: { propertyUrn: tier, values: [{ double: 1 }] },
              },
            ],
            arrayPrimaryKeys: { properties: ['propertyUrn'] },
          },
          'PATCH',
        ),
        `Property: ${tier}, value: {double=1.0} should be a string`,
      );
      // A definition and its first value in one batch.
      const fresh = sp('fresh');
      const other = dataset('batch');
      const batch = await call(base, 'POST', '/aspects?action=ingestProposalBatch', {
        proposals: [
          {
            entityType: 'structuredProperty',
            entityUrn: fresh,
            changeType: 'UPSERT',
            aspectName: 'propertyDefinition',
            aspect: { contentType: 'application/json', value: JSON.stringify(definition(fresh)) },
          },
          {
            entityType: 'dataset',
            entityUrn: other,
            changeType: 'UPSERT',
            aspectName: 'structuredProperties',
            aspect: {
              contentType: 'application/json',
              value: JSON.stringify({ properties: [{ propertyUrn: fresh, values: [{ string: 'first' }] }] }),
            },
          },
        ],
        async: 'false',
      });
      expect(batch.status).toBe(200);
      expect((await read('dataset', other, 'structuredProperties')).body).toMatchObject({
        value: { properties: [{ propertyUrn: fresh, values: [{ string: 'first' }] }] },
      });
    });

    it('OpenAPI v3: refusals are 400 "Validation Error" with the rule, nothing stored', async () => {
      const days = sp('days');
      const created = await v3(
        'structuredProperty',
        days,
        'propertyDefinition',
        definition(days, {
          valueType: NUMBER,
          cardinality: 'SINGLE',
          allowedValues: [{ value: { double: 30 } }, { value: { double: 90 } }],
        }),
      );
      expect(created.status).toBe(200);
      expectOpenApiRefusal(
        await v3('structuredProperty', days, 'propertyDefinition', definition(days, { valueType: STRING })),
        'Value type cannot be changed as this is a backwards incompatible change',
      );
      expectOpenApiRefusal(
        await v3(
          'structuredProperty',
          sp('bad_type'),
          'propertyDefinition',
          definition(sp('bad_type'), {
            valueType: 'urn:li:dataType:datahub.boolean',
          }),
        ),
        'Invalid valueType urn:li:dataType:datahub.boolean',
      );
      // '.' and '_' name the same search field: a second property may not take the other form.
      const collide = `urn:li:structuredProperty:io.e2e_${run}_days`;
      expectOpenApiRefusal(
        await v3(
          'structuredProperty',
          collide,
          'propertyDefinition',
          definition(collide, { qualifiedName: `io_e2e_${run}_days` }),
        ),
        `collides with ${days}`,
      );
      expect((await read('structuredProperty', collide, 'propertyDefinition')).status).toBe(404);

      const target = dataset('v3');
      expectOpenApiRefusal(
        await v3('dataset', target, 'structuredProperties', {
          properties: [{ propertyUrn: days, values: [{ double: 30 }, { double: 90 }] }],
        }),
        `Property: ${days} has cardinality 1, but multiple values were assigned: [{double=30.0}, {double=90.0}]`,
      );
      expectOpenApiRefusal(
        await v3('dataset', target, 'structuredProperties', {
          properties: [{ propertyUrn: days, values: [{ double: 60 }] }],
        }),
        'should be one of [{double=30.0}, {double=90.0}]',
      );
      expect(
        (
          await v3('dataset', target, 'structuredProperties', {
            properties: [{ propertyUrn: days, values: [{ double: 90 }] }],
          })
        ).status,
      ).toBe(200);
      // A v3 PATCH is judged on its result.
      const patched = await call(
        base,
        'PATCH',
        `/openapi/v3/entity/dataset/${enc(target)}/structuredProperties`,
        {
          patch: [{ op: 'add', path: `/properties/${days}/values/-`, value: { double: 30 } }],
          arrayPrimaryKeys: { properties: ['propertyUrn'] },
        },
      );
      expectOpenApiRefusal(patched, `Property: ${days} has cardinality 1`);
      // An explicit empty aspect clears the values.
      expect((await v3('dataset', target, 'structuredProperties', { properties: [] })).status).toBe(200);
      expect((await read('dataset', target, 'structuredProperties')).body).toMatchObject({
        value: { properties: [] },
      });
    });

    it('OpenAPI v2: soft-deleted properties take no definition update and no new value', async () => {
      const owner = sp('owner');
      expect((await v2('structuredProperty', owner, 'propertyDefinition', definition(owner))).status).toBe(
        200,
      );
      const target = dataset('v2');
      expectOpenApiRefusal(
        await v2('dataset', target, 'structuredProperties', {
          properties: [{ propertyUrn: owner, values: [{ double: 5 }] }],
        }),
        `Property: ${owner}, value: {double=5.0} should be a string`,
      );
      expect((await v2('structuredProperty', owner, 'status', { removed: true })).status).toBe(200);
      expectOpenApiRefusal(
        await v2(
          'structuredProperty',
          owner,
          'propertyDefinition',
          definition(owner, { description: 'late' }),
        ),
        'Cannot mutate a soft deleted Structured Property Definition',
      );
      expectOpenApiRefusal(
        await v2('dataset', target, 'structuredProperties', {
          properties: [{ propertyUrn: owner, values: [{ string: 'jdoe' }] }],
        }),
        'Cannot apply a soft deleted Structured Property value',
      );
      expect((await v2('structuredProperty', owner, 'status', { removed: false })).status).toBe(200);
      expect(
        (
          await v2('dataset', target, 'structuredProperties', {
            properties: [{ propertyUrn: owner, values: [{ string: 'jdoe' }] }],
          })
        ).status,
      ).toBe(200);
    });
  });
}
