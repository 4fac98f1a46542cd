import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql, graphqlData as data } from './graphql-client.js';
import {
  SYSTEM_AUTH_HEADERS,
  datasetUrn,
  post,
  proposal,
  startTestCatalog,
  type TestCatalog,
} from './harness.js';

async function write(base: string, proposals: Record<string, unknown>[]): Promise<void> {
  const res = await fetch(`${base}/aspects?action=ingestProposalBatch`, {
    method: 'POST',
    headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', 'X-Wait-For-Index': 'true' },
    body: JSON.stringify({ proposals, async: 'false' }),
  });
  if (res.status !== 200) throw new Error(`write failed: ${res.status} ${await res.text()}`);
}

const field = (parent: string, path: string) => `urn:li:schemaField:(${parent},${path})`;
const schema = (...paths: string[]) => ({
  schemaName: 's',
  platform: 'urn:li:dataPlatform:mysql',
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
  fields: paths.map((fieldPath) => ({
    fieldPath,
    nativeDataType: 'string',
    type: { type: { 'com.linkedin.schema.StringType': {} } },
  })),
});

const SEARCH = `query($input: SearchAcrossLineageInput!) {
  searchAcrossLineage(input: $input) {
    total
    searchResults { entity { urn type } degree degrees explored truncatedChildren ignoredAsHop paths { path { urn type } } }
  }
}`;
const COUNTS = `query($input: SearchAcrossLineageCountsInput!) { searchAcrossLineageCounts(input: $input) { total } }`;

interface SearchResult {
  readonly entity: { readonly urn: string };
  readonly degree: number;
  readonly paths: { readonly path: { readonly urn: string; readonly type: string }[] }[];
}

for (const family of FAMILIES) {
  describe.skipIf(family.skip !== undefined)(`lineage over GraphQL on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    const run = Math.random().toString(36).slice(2, 8);
    // a -[q1]-> b -[q2]-> c, column a.x -> b.y -> c.z through the same queries; b.w's upstreams are
    // a.x, a.declared (in a's schema only) and a.gone (only an edge).
    const [a, b, c] = ['a', 'b', 'c'].map((n) => datasetUrn(`lin_${run}.${n}`, 'mysql')) as [
      string,
      string,
      string,
    ];
    const [q1, q2] = [`urn:li:query:lin_${run}_1`, `urn:li:query:lin_${run}_2`];
    const chart = `urn:li:chart:(looker,lin_${run})`;

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      const lineage = (down: string, up: string, fine: [string[], string][], query: string) =>
        proposal(down, 'upstreamLineage', {
          upstreams: [{ dataset: up, type: 'TRANSFORMED', query }],
          fineGrainedLineages: fine.map(([ups, downstream]) => ({
            upstreamType: 'FIELD_SET',
            upstreams: ups,
            downstreamType: 'FIELD',
            downstreams: [downstream],
            query,
          })),
        });
      const statement = { statement: { value: 'select 1', language: 'SQL' }, source: 'SYSTEM' };
      const stamp = { time: 1, actor: 'urn:li:corpuser:datahub' };
      await write(base, [
        proposal(a, 'schemaMetadata', schema('x', 'declared')),
        proposal(b, 'schemaMetadata', schema('y', 'w')),
        proposal(c, 'schemaMetadata', schema('z')),
        proposal(q1, 'queryProperties', { ...statement, created: stamp, lastModified: stamp }),
        proposal(q2, 'queryProperties', { ...statement, created: stamp, lastModified: stamp }),
        proposal(field(a, 'x'), 'documentation', {
          documentations: [
            {
              documentation: 'the x column',
              attribution: { time: 5, actor: 'urn:li:corpuser:datahub', source: 'urn:li:dataHubAction:docs' },
            },
          ],
        }),
        lineage(
          b,
          a,
          [
            [[field(a, 'x')], field(b, 'y')],
            [[field(a, 'x'), field(a, 'declared'), field(a, 'gone')], field(b, 'w')],
          ],
          q1,
        ),
        lineage(c, b, [[[field(b, 'y')], field(c, 'z')]], q2),
        proposal(chart, 'chartInfo', {
          title: 'lin',
          description: '',
          lastModified: { created: stamp, lastModified: stamp },
        }),
        proposal(chart, 'inputFields', {
          fields: [
            {
              schemaFieldUrn: field(a, 'x'),
              schemaField: {
                fieldPath: 'x',
                nativeDataType: 'STRING',
                type: { type: { 'com.linkedin.schema.StringType': {} } },
              },
            },
          ],
        }),
      ]);
    }, 120_000);
    afterAll(async () => {
      await catalog?.dispose();
    });

    const search = async (input: Record<string, unknown>) =>
      (
        await data<{ searchAcrossLineage: { total: number; searchResults: SearchResult[] } }>(base, SEARCH, {
          input,
        })
      ).searchAcrossLineage.searchResults;
    const byDegree = (filter?: string[]) =>
      filter === undefined ? {} : { orFilters: [{ and: [{ field: 'degree', values: filter }] }] };

    it('paths go through the queries of the edges, which are not results; the degree filter picks the hops', async () => {
      const all = await search({ urn: c, direction: 'UPSTREAM', query: '*' });
      expect(
        all.map((r) => [r.entity.urn, r.degree, r.paths.map((p) => p.path.map((e) => e.urn))]).sort(),
      ).toEqual(
        [
          [a, 2, [[c, q2, b, q1, a]]],
          [b, 1, [[c, q2, b]]],
        ].sort(),
      );
      expect(
        (await search({ urn: c, direction: 'UPSTREAM', ...byDegree(['1']) })).map((r) => r.entity.urn),
      ).toEqual([b]);
      expect(
        (await search({ urn: c, direction: 'UPSTREAM', ...byDegree(['2']) })).map((r) => r.entity.urn),
      ).toEqual([a]);
      const bad = await graphql(base, SEARCH, {
        input: { urn: c, direction: 'UPSTREAM', ...byDegree(['3']) },
      });
      expect(bad.errors?.[0]?.message).toMatch(/not a valid filter value for degree filters/);
    });

    it('gives facets over what it found: the index facets and the degree counts', async () => {
      const res = await data<{
        searchAcrossLineage: {
          facets: { field: string; aggregations: { value: string; count: number }[] }[];
        };
      }>(
        base,
        `query($input: SearchAcrossLineageInput!) { searchAcrossLineage(input: $input) {
          facets { field aggregations { value count } } } }`,
        { input: { urn: c, direction: 'UPSTREAM', query: '*' } },
      );
      const facet = (field: string) =>
        res.searchAcrossLineage.facets.find((f) => f.field === field)?.aggregations;
      expect(facet('degree')).toEqual([
        { value: '1', count: 1 },
        { value: '2', count: 1 },
      ]);
      expect(facet('platform')).toEqual([{ value: 'urn:li:dataPlatform:mysql', count: 2 }]);
      expect(facet('urn')).toBeUndefined();
    });

    it('follows column lineage and shows the columns as their datasets, with each column path', async () => {
      const found = await search({ urn: field(a, 'x'), direction: 'DOWNSTREAM', query: '*' });
      const paths = Object.fromEntries(
        found.map((r) => [r.entity.urn, r.paths.map((p) => p.path.map((e) => e.urn))]),
      );
      expect(paths[b]?.sort()).toEqual([
        [field(a, 'x'), q1, field(b, 'w')],
        [field(a, 'x'), q1, field(b, 'y')],
      ]);
      expect(paths[c]).toEqual([[field(a, 'x'), q1, field(b, 'y'), q2, field(c, 'z')]]);
      expect(found.find((r) => r.entity.urn === b)?.paths[0]?.path[1]?.type).toBe('QUERY');
    });

    it("gives a column's one-hop lineage with the path through the query", async () => {
      const res = await data<{
        column: {
          lineage: {
            total: number;
            relationships: { type: string; entity: { urn: string }; paths: { path: { urn: string }[] }[] }[];
          };
        };
      }>(
        base,
        `query($urn: String!) { column: entity(urn: $urn) { ... on SchemaFieldEntity {
          lineage(input: {direction: DOWNSTREAM}) { total relationships { type entity { urn } paths { path { urn } } } } } } }`,
        { urn: field(a, 'x') },
      );
      const downstream = (f: string) => ({
        type: 'DownstreamOf',
        entity: { urn: f },
        paths: [{ path: [{ urn: field(a, 'x') }, { urn: q1 }, { urn: f }] }],
      });
      expect(res.column.lineage.total).toBe(2);
      expect(
        [...res.column.lineage.relationships].sort((x, y) => x.entity.urn.localeCompare(y.entity.urn)),
      ).toEqual([downstream(field(b, 'w')), downstream(field(b, 'y'))]);
    });

    it('counts columns off the graph, validated against their parent schema or not, and from the index', async () => {
      const count = async (input: Record<string, unknown>) =>
        (
          await data<{ searchAcrossLineageCounts: { total: number } }>(base, COUNTS, {
            input: { urn: field(b, 'w'), direction: 'UPSTREAM', types: ['SCHEMA_FIELD'], ...input },
          })
        ).searchAcrossLineageCounts.total;
      expect(await count({ includeGhostEntities: true, validateSchemaFields: 'NONE' })).toBe(3);
      expect(await count({ includeGhostEntities: true, validateSchemaFields: 'ALWAYS' })).toBe(2);
      expect(await count({ includeGhostEntities: true })).toBe(2);
      // Only a.x has aspects of its own (its documentation): the one the index holds.
      expect(await count({ includeGhostEntities: false })).toBe(1);
      const refused = await graphql(base, COUNTS, {
        input: {
          urn: field(b, 'w'),
          direction: 'UPSTREAM',
          includeGhostEntities: true,
          orFilters: [{ and: [{ field: 'description', values: ['x'], condition: 'CONTAIN' }] }],
        },
      });
      expect(refused.errors?.[0]?.message).toMatch(/cannot filter on "description"/);
    });

    it("lists a chart's input fields with the schema field entity and its documentation", async () => {
      const res = await data<{
        chart: {
          inputFields: {
            fields: {
              schemaFieldUrn: string;
              schemaField: {
                schemaFieldEntity: {
                  urn: string;
                  fieldPath: string;
                  documentation: {
                    documentations: {
                      documentation: string;
                      attribution: { time: number; actor: { urn: string } };
                    }[];
                  };
                };
              };
            }[];
          };
        };
      }>(
        base,
        `query($urn: String!) { chart(urn: $urn) { inputFields { fields { schemaFieldUrn schemaField {
          schemaFieldEntity { urn fieldPath documentation { documentations { documentation attribution { time actor { urn } } } } } } } } } }`,
        { urn: chart },
      );
      const [only] = res.chart.inputFields.fields;
      expect(only?.schemaFieldUrn).toBe(field(a, 'x'));
      expect(only?.schemaField.schemaFieldEntity).toEqual({
        urn: field(a, 'x'),
        fieldPath: 'x',
        documentation: {
          documentations: [
            {
              documentation: 'the x column',
              attribution: { time: 5, actor: { urn: 'urn:li:corpuser:datahub' } },
            },
          ],
        },
      });
    });

    it('updateLineage draws an edge the lineage search then follows, and removes it', async () => {
      const update = (add: unknown[], remove: unknown[]) =>
        data(base, 'mutation($i: UpdateLineageInput!) { updateLineage(input: $i) }', {
          i: { edgesToAdd: add, edgesToRemove: remove },
        });
      const edge = { downstreamUrn: a, upstreamUrn: c };
      // Edges are indexed after the write: wait (bounded) until the search sees it.
      const upstreamOfA = async () =>
        (await search({ urn: a, direction: 'UPSTREAM', ...byDegree(['1']) })).map((r) => r.entity.urn);
      const until = async (want: string[]) => {
        for (let i = 0; i < 100 && JSON.stringify(await upstreamOfA()) !== JSON.stringify(want); i++)
          await new Promise((r) => setTimeout(r, 100));
        return upstreamOfA();
      };
      expect(await update([edge], [])).toEqual({ updateLineage: true });
      expect(await until([c])).toEqual([c]);
      await update([], [edge]);
      expect(await until([])).toEqual([]);
      const missing = await graphql(base, 'mutation($i: UpdateLineageInput!) { updateLineage(input: $i) }', {
        i: {
          edgesToAdd: [{ downstreamUrn: a, upstreamUrn: datasetUrn(`lin_${run}.nowhere`) }],
          edgesToRemove: [],
        },
      });
      expect(missing.errors?.[0]?.message).toMatch(/does not exist/);
    });

    it('gives the raw search documents with the lineage fields', async () => {
      const res = await post(base, '/openapi/operations/elasticSearch/entity/raw', [
        a,
        b,
        datasetUrn(`lin_${run}.none`),
      ]);
      expect(res.status).toBe(200);
      const docs = res.body as Record<string, Record<string, unknown>>;
      expect(Object.keys(docs).sort()).toEqual([a, b].sort());
      expect(docs[b]?.['hasUpstreams']).toBe(true);
      expect(docs[b]?.['hasFineGrainedUpstreams']).toBe(true);
      expect(docs[a]?.['hasUpstreams'] ?? false).toBe(false);
      const bad = await post(base, '/openapi/operations/elasticSearch/entity/raw', { urns: [a] });
      expect(bad.status).toBe(400);
    });
  });
}
