import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { datasetUrn, enc, startTestCatalog, SYSTEM_AUTH_HEADERS, type TestCatalog } from './harness.js';

const JSON_HEADERS = { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json' };

/** The raw text of a response: what a client that tells 30 from 30.0 (Python's json) reads. */
async function text(res: Response): Promise<string> {
  const body = await res.text();
  expect(res.status, body).toBeLessThan(300);
  return body;
}

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`aspect values as the ecosystem writes them back (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    const run = Date.now().toString(36);
    const property = `urn:li:structuredProperty:io.test.retention_${run}`;
    const dataset = datasetUrn(`aspect_json_${run}`, 'test');
    const definition = {
      qualifiedName: `io.test.retention_${run}`,
      valueType: 'urn:li:dataType:datahub.number',
      cardinality: 'MULTIPLE',
      entityTypes: ['urn:li:entityType:datahub.dataset'],
      allowedValues: [{ value: { double: 30 } }, { value: { double: 2.5 } }],
    };

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
    }, 60_000);
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('writes an integral double as 30.0 and adds no default the writer did not send (OpenAPI v2, v3, Rest.li)', async () => {
      const written = await text(
        await fetch(
          `${base}/openapi/v2/entity/structuredProperty/${enc(property)}/propertyDefinition?createIfNotExists=false&createIfNotExists=false`,
          {
            method: 'POST',
            headers: JSON_HEADERS,
            body: JSON.stringify(definition),
          },
        ),
      );
      expect(written).toContain('{"double":30.0}');
      expect(written).toContain('{"double":2.5}');
      expect(written).not.toContain('immutable');

      const v3 = await text(
        await fetch(`${base}/openapi/v3/entity/structuredProperty/${enc(property)}/propertyDefinition`, {
          headers: SYSTEM_AUTH_HEADERS,
        }),
      );
      expect(v3).toContain('{"double":30.0}');
      expect(v3).not.toContain('immutable');
      expect(JSON.parse(v3)).toMatchObject({ value: definition });

      const restli = await text(
        await fetch(`${base}/entitiesV2/${enc(property)}`, {
          headers: { ...SYSTEM_AUTH_HEADERS, 'X-RestLi-Protocol-Version': '2.0.0' },
        }),
      );
      expect(restli).toContain('{"double":30.0}');
      expect(restli).not.toContain('immutable');

      const graphql = (await (
        await fetch(`${base}/api/graphql`, {
          method: 'POST',
          headers: JSON_HEADERS,
          body: JSON.stringify({
            query:
              'query($urn: String!) { entity(urn: $urn) { ... on StructuredPropertyEntity { aspects(input: { aspectNames: ["propertyDefinition"] }) { payload } } } }',
            variables: { urn: property },
          }),
        })
      ).json()) as { data: { entity: { aspects: { payload: string }[] } } };
      expect(graphql.data.entity.aspects[0]!.payload).toContain('{"double":30.0}');
    });

    it('keeps integers integers: a long is never written with a decimal point', async () => {
      const body = await text(
        await fetch(
          `${base}/openapi/v3/entity/structuredProperty/${enc(property)}/propertyDefinition?systemMetadata=true`,
          {
            headers: SYSTEM_AUTH_HEADERS,
          },
        ),
      );
      expect(body).toMatch(/"lastObserved":\d+[,}]/);
    });

    it('patches attributed tags without adding the attribution defaults (sourceDetail)', async () => {
      const patched = await fetch(`${base}/openapi/v3/entity/dataset?async=false`, {
        method: 'PATCH',
        headers: JSON_HEADERS,
        body: JSON.stringify([
          {
            urn: dataset,
            globalTags: {
              value: {
                patch: [
                  {
                    op: 'add',
                    path: '/tags/urn:li:platformResource:s1/urn:li:tag:t1',
                    value: {
                      tag: 'urn:li:tag:t1',
                      attribution: {
                        source: 'urn:li:platformResource:s1',
                        actor: 'urn:li:corpuser:u',
                        time: 0,
                      },
                    },
                  },
                ],
                arrayPrimaryKeys: { tags: ['attribution\u241fsource', 'tag'] },
              },
            },
          },
        ]),
      });
      await text(patched);
      const read = JSON.parse(
        await text(
          await fetch(`${base}/openapi/v3/entity/dataset/${enc(dataset)}/globalTags`, {
            headers: SYSTEM_AUTH_HEADERS,
          }),
        ),
      ) as { value: unknown };
      expect(read.value).toEqual({
        tags: [
          {
            tag: 'urn:li:tag:t1',
            attribution: { source: 'urn:li:platformResource:s1', actor: 'urn:li:corpuser:u', time: 0 },
          },
        ],
      });
    });
  });
}
