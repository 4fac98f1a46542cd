import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql, graphqlData as data } from './graphql-client.js';
import { SYSTEM_AUTH_HEADERS, datasetUrn, proposal, startTestCatalog, type TestCatalog } from './harness.js';

async function write(base: string, proposals: Record<string, unknown>[]): Promise<void> {
  const res = await fetch(`${base}/aspects?action=ingestProposalBatch`, {
    method: 'POST',
    headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', 'X-Wait-For-Index': 'true' },
    body: JSON.stringify({ proposals, async: 'false' }),
  });
  if (res.status !== 200) throw new Error(`write failed: ${res.status} ${await res.text()}`);
}

const SCROLL = `query scrollUrnsWithFilters($types: [EntityType!], $query: String!, $orFilters: [AndFilterInput!],
  $batchSize: Int!, $scrollId: String, $skipCache: Boolean!, $includeSoftDeleted: Boolean) {
  scrollAcrossEntities(input: {query: $query, count: $batchSize, scrollId: $scrollId, types: $types,
    orFilters: $orFilters, searchFlags: {skipHighlighting: true, skipAggregates: true, skipCache: $skipCache,
    includeSoftDeleted: $includeSoftDeleted}}) {
    nextScrollId
    searchResults { entity { urn } extraProperties { name value } }
  }
}`;

for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping GraphQL e2e on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`GraphQL on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    const run = Math.random().toString(36).slice(2, 8);
    const orders = datasetUrn(`gql_${run}.orders`, 'postgres');
    const customers = datasetUrn(`gql_${run}.customers`, 'postgres');
    const gone = datasetUrn(`gql_${run}.gone`, 'postgres');
    const clicks = datasetUrn(`gql_${run}.clicks`, 'kafka', 'DEV');
    const flow = `urn:li:dataFlow:(airflow,gql_${run},prod)`;
    const job = `urn:li:dataJob:(${flow},load)`;
    const chart = `urn:li:chart:(looker,gql_${run})`;

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      await write(base, [
        proposal(orders, 'datasetProperties', {
          name: 'orders',
          description: `Orders of ${run}`,
          customProperties: { team: 'sales' },
        }),
        proposal(orders, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
        proposal(orders, 'ownership', {
          owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'TECHNICAL_OWNER' }],
        }),
        proposal(orders, 'schemaMetadata', {
          schemaName: 'orders',
          platform: 'urn:li:dataPlatform:postgres',
          version: 0,
          cluster: 'pg-main',
          created: { time: 1_700_000_000_000, actor: 'urn:li:corpuser:jdoe' },
          hash: '',
          platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
          fields: [
            {
              fieldPath: 'id',
              nullable: false,
              nativeDataType: 'int',
              type: { type: { 'com.linkedin.schema.NumberType': {} } },
            },
          ],
        }),
        proposal(orders, 'upstreamLineage', {
          upstreams: [
            { dataset: customers, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:x' } },
          ],
        }),
        proposal(customers, 'datasetProperties', { name: 'customers', description: `Customers of ${run}` }),
        proposal(gone, 'datasetProperties', { name: 'gone', description: `Removed of ${run}` }),
        proposal(gone, 'status', { removed: true }),
        proposal(clicks, 'datasetProperties', { name: 'clicks', description: `Clicks of ${run}` }),
        proposal(flow, 'dataFlowInfo', { name: `gql_${run}` }),
        proposal(`urn:li:corpuser:owner_${run}`, 'corpUserInfo', { active: true, displayName: 'Owner' }),
        proposal(`urn:li:corpuser:other_${run}`, 'corpUserInfo', { active: true, displayName: 'Other' }),
        proposal(job, 'dataJobInfo', { name: 'load', type: { string: 'COMMAND' } }),
        proposal(job, 'dataJobInputOutput', { inputDatasets: [customers], outputDatasets: [orders] }),
        proposal(chart, 'chartInfo', {
          title: `Revenue ${run}`,
          description: 'Revenue by day',
          lastModified: {
            created: { time: 0, actor: 'urn:li:corpuser:x' },
            lastModified: { time: 0, actor: 'urn:li:corpuser:x' },
          },
        }),
      ]);
    });
    afterAll(async () => catalog?.dispose());

    describe('transport', () => {
      it('answers POST on /api/graphql and /api/v2/graphql, and 405 to GET', async () => {
        expect((await graphql(base, '{ __typename }')).data).toEqual({ __typename: 'Query' });
        const v2 = await graphql(base, '{ __typename }', {}, { path: '/api/v2/graphql' });
        expect(v2.data).toEqual({ __typename: 'Query' });
        const get = await fetch(`${base}/api/graphql?query=%7B__typename%7D`, {
          headers: SYSTEM_AUTH_HEADERS,
        });
        expect(get.status).toBe(405);
        expect(await get.text()).toContain('POST');
      });

      it('answers 400 to bad JSON and to a body without a query', async () => {
        const bad = await fetch(`${base}/api/graphql`, {
          method: 'POST',
          headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json' },
          body: '{nope',
        });
        expect(bad.status).toBe(400);
        const empty = await fetch(`${base}/api/graphql`, {
          method: 'POST',
          headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json' },
          body: '{}',
        });
        expect(empty.status).toBe(400);
      });

      it('serves introspection the SDK relies on', async () => {
        const res = await data<{ __type: { inputFields: { name: string }[] } }>(
          base,
          '{ __type(name: "SearchFlags") { inputFields { name } } }',
        );
        expect(res.__type.inputFields.map((f) => f.name)).toEqual(
          expect.arrayContaining(['skipCache', 'maxAggValues', 'includeSoftDeleted', 'skipAggregates']),
        );
      });
    });

    describe('errors', () => {
      it('shapes resolver errors as the ecosystem does: HTTP 200, code and type, the field null', async () => {
        const res = await graphql(base, '{ dataset(urn: "not a urn") { urn } }');
        expect(res.status).toBe(200);
        expect(res.data).toEqual({ dataset: null });
        expect(res.errors?.[0]).toMatchObject({
          message: 'Invalid urn: "not a urn"',
          path: ['dataset'],
          extensions: { code: 400, type: 'BAD_REQUEST', classification: 'DataFetchingException' },
        });
      });

      it('answers syntax, validation and variable errors without a 5xx', async () => {
        for (const query of [
          '{ dataset(urn: ',
          '{ nosuchfield }',
          'query($u: String!) { dataset(urn: $u) { urn } }',
        ]) {
          const res = await graphql(base, query, { u: 7 });
          expect(res.status).toBeLessThan(500);
          expect(res.errors?.length).toBeGreaterThan(0);
        }
      });

      it('names an unknown filter field, an unknown entity type and a count over the maximum', async () => {
        const unknownField = await graphql(
          base,
          '{ searchAcrossEntities(input: {query: "*", types: [DATASET], orFilters: [{and: [{field: "nosuch", values: ["x"]}]}]}) { total } }',
        );
        expect(unknownField.errors?.[0]).toMatchObject({ extensions: { code: 400 } });
        expect(unknownField.errors?.[0]?.message).toContain('nosuch');
        const unknownType = await graphql(base, '{ search(input: {type: OTHER, query: "*"}) { total } }');
        expect(unknownType.errors?.[0]?.message).toContain('Unknown entity type: OTHER');
        const tooMany = await graphql(
          base,
          '{ searchAcrossEntities(input: {query: "*", count: 20000}) { total } }',
        );
        expect(tooMany.errors?.[0]).toMatchObject({ extensions: { code: 400 } });
      });

      it('refuses a query deeper than the limit', async () => {
        let selection = 'urn';
        for (let i = 0; i < 10; i++)
          selection = `relationships(input: {types: ["DownstreamOf"], direction: OUTGOING}) { relationships { entity { urn ... on Dataset { ${selection} } } } }`;
        const res = await graphql(base, `{ dataset(urn: "${orders}") { ${selection} } }`);
        expect(res.status).toBeLessThan(500);
        expect(res.errors?.[0]?.message).toMatch(/depth|cost/i);
      });
    });

    describe('entities', () => {
      it('reads a dataset with its common and typed fields', async () => {
        const { dataset } = await data<{ dataset: Record<string, unknown> }>(
          base,
          `query($urn: String!) { dataset(urn: $urn) {
            urn type name origin __typename platform { urn name }
            properties { name description customProperties { key value associatedUrn } }
            tags { tags { tag { urn } associatedUrn } }
            ownership { owners { owner { __typename ... on CorpUser { urn username } } type associatedUrn } }
            schemaMetadata { createdAt cluster fields { fieldPath type nativeDataType nullable } }
            browsePathV2 { path { name } }
            dataPlatformInstance { platform { urn } }
            status { removed }
          } }`,
          { urn: orders },
        );
        expect(dataset).toMatchObject({
          urn: orders,
          type: 'DATASET',
          __typename: 'Dataset',
          name: `gql_${run}.orders`,
          origin: 'PROD',
          platform: { urn: 'urn:li:dataPlatform:postgres', name: 'postgres' },
          properties: {
            name: 'orders',
            description: `Orders of ${run}`,
            customProperties: [{ key: 'team', value: 'sales', associatedUrn: orders }],
          },
          tags: { tags: [{ tag: { urn: 'urn:li:tag:pii' }, associatedUrn: orders }] },
          ownership: {
            owners: [
              {
                owner: { __typename: 'CorpUser', urn: 'urn:li:corpuser:jdoe', username: 'jdoe' },
                type: 'TECHNICAL_OWNER',
                associatedUrn: orders,
              },
            ],
          },
          schemaMetadata: {
            // createdAt: the schema's `created` stamp (test_rapid.py reads it).
            createdAt: 1_700_000_000_000,
            cluster: 'pg-main',
            fields: [{ fieldPath: 'id', type: 'NUMBER', nativeDataType: 'int', nullable: false }],
          },
          browsePathV2: { path: [{ name: `gql_${run}` }] },
          dataPlatformInstance: { platform: { urn: 'urn:li:dataPlatform:postgres' } },
          status: null,
        });
      });

      it('resolves entity(urn) and entities(urns) to their types, and null for what does not exist', async () => {
        const res = await data<{
          entities: ({ __typename: string; urn: string } | null)[];
          entityExists: boolean;
        }>(
          base,
          `query($urns: [String!]!, $missing: String!) {
            entities(urns: $urns) { __typename urn }
            entityExists(urn: $missing)
          }`,
          {
            urns: [orders, chart, job, datasetUrn(`gql_${run}.missing`)],
            missing: datasetUrn(`gql_${run}.missing`),
          },
        );
        expect(res.entities).toEqual([
          { __typename: 'Dataset', urn: orders },
          { __typename: 'Chart', urn: chart },
          { __typename: 'DataJob', urn: job },
          null,
        ]);
        expect(res.entityExists).toBe(false);
      });

      it('lists the raw aspects, relationships and lineage of an entity', async () => {
        const { dataset } = await data<{
          dataset: {
            aspects: { aspectName: string; payload: string }[];
            relationships: { total: number; relationships: { type: string; entity: { urn: string } }[] };
            upstream: { relationships: { entity: { urn: string } }[] };
            downstream: { relationships: { entity: { urn: string } }[] };
          };
        }>(
          base,
          `query($urn: String!) { dataset(urn: $urn) {
            aspects(input: {aspectNames: ["datasetProperties"]}) { aspectName payload }
            relationships(input: {types: ["DownstreamOf"], direction: OUTGOING}) { total relationships { type entity { urn } } }
            upstream: lineage(input: {direction: UPSTREAM}) { relationships { entity { urn } } }
            downstream: lineage(input: {direction: DOWNSTREAM}) { relationships { entity { urn } } }
          } }`,
          { urn: orders },
        );
        expect(dataset.aspects).toHaveLength(1);
        expect(JSON.parse(dataset.aspects[0]!.payload)).toMatchObject({ name: 'orders' });
        expect(dataset.relationships).toMatchObject({
          total: 1,
          relationships: [{ type: 'DownstreamOf', entity: { urn: customers } }],
        });
        expect(dataset.upstream.relationships.map((r) => r.entity.urn).sort()).toEqual(
          [customers, job].sort(),
        );
        expect(dataset.downstream.relationships).toEqual([]);
      });
    });

    describe('search', () => {
      it('searches across entities with the filters the SDK sends, leaving soft-deleted out', async () => {
        const res = await data<{
          searchAcrossEntities: { total: number; searchResults: { entity: { urn: string } }[] };
        }>(
          base,
          `query($f: [AndFilterInput!]) { searchAcrossEntities(input: {query: "${run}", types: [DATASET], orFilters: $f}) {
            total searchResults { entity { urn } } } }`,
          {
            f: [
              {
                and: [
                  { field: 'platform.keyword', values: ['urn:li:dataPlatform:postgres'] },
                  { field: 'env', value: 'PROD' },
                  { field: 'removed', values: ['true'], condition: 'EQUAL', negated: true },
                ],
              },
            ],
          },
        );
        const urns = res.searchAcrossEntities.searchResults.map((r) => r.entity.urn).sort();
        expect(urns).toEqual([customers, orders].sort());
        expect(res.searchAcrossEntities.total).toBe(2);
      });

      it('scrolls as the SDK get_urns_by_filter does, ending with a null nextScrollId', async () => {
        const seen: string[] = [];
        let scrollId: string | null = null;
        for (let page = 0; page < 10; page++) {
          const res: {
            scrollAcrossEntities: {
              nextScrollId: string | null;
              searchResults: { entity: { urn: string } }[];
            };
          } = await data(base, SCROLL, {
            types: ['DATASET'],
            query: run,
            orFilters: [{ and: [{ field: 'removed', values: ['true'], condition: 'EQUAL', negated: true }] }],
            batchSize: 2,
            scrollId,
            skipCache: false,
            includeSoftDeleted: null,
          });
          seen.push(...res.scrollAcrossEntities.searchResults.map((r) => r.entity.urn));
          scrollId = res.scrollAcrossEntities.nextScrollId;
          if (scrollId === null) break;
        }
        expect(scrollId).toBeNull();
        expect(seen.sort()).toEqual([clicks, customers, orders].sort());
      });

      it('aggregates facets with counts, and limits their values', async () => {
        const res = await data<{
          aggregateAcrossEntities: {
            facets: { field: string; aggregations: { value: string; count: number }[] }[];
          };
        }>(
          base,
          `{ aggregateAcrossEntities(input: {query: "${run}", types: [DATASET], facets: ["platform", "origin", "_entityType"], searchFlags: {maxAggValues: 1}}) {
            facets { field aggregations { value count } } } }`,
        );
        const facets = Object.fromEntries(
          res.aggregateAcrossEntities.facets.map((f) => [f.field, f.aggregations]),
        );
        expect(facets['platform']).toEqual([{ value: 'urn:li:dataPlatform:postgres', count: 2 }]);
        expect(facets['entity']).toEqual([{ value: 'DATASET', count: 3 }]);
        expect(facets['origin']).toHaveLength(1);
      });

      it('browses the browsePathsV2 folders, counting the entities below each', async () => {
        const res = await data<{
          browseV2: { groups: { name: string; count: number; hasSubGroups: boolean }[]; total: number };
        }>(
          base,
          '{ browseV2(input: {types: [DATASET], path: []}) { groups { name count hasSubGroups } total } }',
        );
        expect(res.browseV2.groups).toContainEqual({ name: `gql_${run}`, count: 3, hasSubGroups: false });
        const inside = await data<{
          browseV2: { groups: unknown[]; metadata: { totalNumEntities: number } };
        }>(
          base,
          `{ browseV2(input: {types: [DATASET], path: ["gql_${run}"]}) { groups { name } metadata { totalNumEntities } } }`,
        );
        expect(inside.browseV2).toEqual({ groups: [], metadata: { totalNumEntities: 3 } });
      });

      it('searches across lineage with the degree of each entity, and scrolls it', async () => {
        const res = await data<{
          searchAcrossLineage: {
            total: number;
            searchResults: { entity: { urn: string }; degree: number }[];
          };
        }>(
          base,
          `{ searchAcrossLineage(input: {urn: "${orders}", direction: UPSTREAM, query: "*"}) {
            total searchResults { entity { urn } degree } } }`,
        );
        expect(res.searchAcrossLineage.searchResults.map((r) => [r.entity.urn, r.degree]).sort()).toEqual(
          [
            [customers, 1],
            [job, 1],
          ].sort(),
        );
        const down = await data<{
          scrollAcrossLineage: { nextScrollId: string | null; searchResults: { entity: { urn: string } }[] };
        }>(
          base,
          `{ scrollAcrossLineage(input: {urn: "${customers}", direction: DOWNSTREAM, count: 5}) {
            nextScrollId searchResults { entity { urn } } } }`,
        );
        expect(down.scrollAcrossLineage.nextScrollId).toBeNull();
        expect(down.scrollAcrossLineage.searchResults.map((r) => r.entity.urn).sort()).toEqual(
          [job, orders].sort(),
        );
      });

      it('autocompletes and browses', async () => {
        const res = await data<{
          autoComplete: { suggestions: string[] };
          browse: { entities: { urn: string }[]; groups: { name: string }[]; total: number };
          top: { groups: { name: string; count: number }[] };
        }>(
          base,
          `{ autoComplete(input: {type: DATASET, query: "custo"}) { suggestions }
             browse(input: {type: DATASET, path: ["prod", "postgres", "gql_${run}"]}) { entities { urn } groups { name } total }
             top: browse(input: {type: DATASET, path: ["prod", "postgres"]}) { groups { name count } } }`,
        );
        expect(res.autoComplete.suggestions).toContain('customers');
        expect(res.browse.entities.map((e) => e.urn).sort()).toEqual([customers, orders].sort());
        expect(res.top.groups).toContainEqual({ name: `gql_${run}`, count: 2 });
      });
    });

    describe('mutations', () => {
      const create = async (kind: 'createTag' | 'createGlossaryTerm' | 'createDomain', id: string) => {
        const type =
          kind === 'createTag'
            ? 'CreateTagInput'
            : kind === 'createDomain'
              ? 'CreateDomainInput'
              : 'CreateGlossaryEntityInput';
        const res = await data<Record<string, string>>(
          base,
          `mutation($i: ${type}!) { ${kind}(input: $i) }`,
          {
            i: { id, name: id },
          },
        );
        return res[kind]!;
      };

      it('adds tags as patches: concurrent mutations on one entity all keep their tag', async () => {
        const tags = await Promise.all([0, 1, 2, 3, 4].map((i) => create('createTag', `c${i}_${run}`)));
        await Promise.all(
          tags.map((tagUrn) =>
            data(base, 'mutation($i: TagAssociationInput!) { addTag(input: $i) }', {
              i: { tagUrn, resourceUrn: customers },
            }),
          ),
        );
        const read = await data<{ dataset: { tags: { tags: { tag: { urn: string } }[] } } }>(
          base,
          `{ dataset(urn: "${customers}") { tags { tags { tag { urn } } } } }`,
        );
        expect(read.dataset.tags.tags.map((t) => t.tag.urn).sort()).toEqual([...tags].sort());
        await data(base, 'mutation($i: TagAssociationInput!) { removeTag(input: $i) }', {
          i: { tagUrn: tags[0], resourceUrn: customers },
        });
        const after = await data<{ dataset: { tags: { tags: unknown[] } } }>(
          base,
          `{ dataset(urn: "${customers}") { tags { tags { tag { urn } } } } }`,
        );
        expect(after.dataset.tags.tags).toHaveLength(4);
      });

      it('tags a schema field, adds terms and owners, and keeps what was there', async () => {
        const tag = await create('createTag', `field_${run}`);
        const term = await create('createGlossaryTerm', `term_${run}`);
        await data(base, 'mutation($i: TagAssociationInput!) { addTag(input: $i) }', {
          i: { tagUrn: tag, resourceUrn: orders, subResourceType: 'DATASET_FIELD', subResource: 'id' },
        });
        await data(base, 'mutation($i: AddTermsInput!) { addTerms(input: $i) }', {
          i: { termUrns: [term], resourceUrn: orders },
        });
        await data(base, 'mutation($i: AddOwnersInput!) { addOwners(input: $i) }', {
          i: {
            resourceUrn: orders,
            owners: [
              {
                ownerUrn: `urn:li:corpuser:owner_${run}`,
                ownerEntityType: 'CORP_USER',
                type: 'BUSINESS_OWNER',
              },
              { ownerUrn: `urn:li:corpuser:other_${run}`, ownerEntityType: 'CORP_USER' },
            ],
          },
        });
        await data(base, 'mutation($i: RemoveOwnerInput!) { removeOwner(input: $i) }', {
          i: { ownerUrn: `urn:li:corpuser:other_${run}`, resourceUrn: orders },
        });
        const read = await data<{
          dataset: {
            editableSchemaMetadata: {
              editableSchemaFieldInfo: {
                fieldPath: string;
                globalTags: { tags: { tag: { urn: string } }[] };
              }[];
            };
            glossaryTerms: { terms: { term: { urn: string } }[] };
            ownership: { owners: { owner: { urn: string }; type: string }[] };
            tags: { tags: { tag: { urn: string } }[] };
          };
        }>(
          base,
          `{ dataset(urn: "${orders}") {
            editableSchemaMetadata { editableSchemaFieldInfo { fieldPath globalTags { tags { tag { urn } } } } }
            glossaryTerms { terms { term { urn } } }
            ownership { owners { owner { ... on CorpUser { urn } } type } }
            tags { tags { tag { urn } } }
          } }`,
        );
        expect(read.dataset.editableSchemaMetadata.editableSchemaFieldInfo).toEqual([
          { fieldPath: 'id', globalTags: { tags: [{ tag: { urn: tag } }] } },
        ]);
        expect(read.dataset.glossaryTerms.terms).toEqual([{ term: { urn: term } }]);
        expect(read.dataset.ownership.owners.map((o) => [o.owner.urn, o.type]).sort()).toEqual(
          [
            ['urn:li:corpuser:jdoe', 'TECHNICAL_OWNER'],
            [`urn:li:corpuser:owner_${run}`, 'BUSINESS_OWNER'],
          ].sort(),
        );
        expect(read.dataset.tags.tags).toEqual([{ tag: { urn: 'urn:li:tag:pii' } }]);
      });

      it('updates descriptions, names, deprecation, links and the domain', async () => {
        const domain = await create('createDomain', `dom_${run}`);
        const ops = [
          `updateDescription(input: {resourceUrn: "${clicks}", description: "edited"})`,
          `updateName(input: {urn: "${clicks}", name: "Clicks"})`,
          `updateDeprecation(input: {urn: "${clicks}", deprecated: true, note: "old"})`,
          `addLink(input: {resourceUrn: "${clicks}", linkUrl: "https://wiki/clicks", label: "Wiki"})`,
          `setDomain(entityUrn: "${clicks}", domainUrn: "${domain}")`,
          `updateDescription(input: {resourceUrn: "${clicks}", description: "the id", subResourceType: DATASET_FIELD, subResource: "id"})`,
        ];
        for (const op of ops) expect(Object.values(await data(base, `mutation { ${op} }`))).toEqual([true]);
        const read = await data<{ dataset: Record<string, unknown> }>(
          base,
          `{ dataset(urn: "${clicks}") {
            editableProperties { description name }
            deprecation { deprecated note }
            institutionalMemory { elements { url label } }
            domain { domain { urn } }
            editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description } }
          } }`,
        );
        expect(read.dataset).toEqual({
          editableProperties: { description: 'edited', name: 'Clicks' },
          deprecation: { deprecated: true, note: 'old' },
          institutionalMemory: { elements: [{ url: 'https://wiki/clicks', label: 'Wiki' }] },
          domain: { domain: { urn: domain } },
          editableSchemaMetadata: { editableSchemaFieldInfo: [{ fieldPath: 'id', description: 'the id' }] },
        });
        await data(
          base,
          `mutation { removeLink(input: {resourceUrn: "${clicks}", linkUrl: "https://wiki/clicks"}) unsetDomain(entityUrn: "${clicks}") }`,
        );
        const after = await data<{ dataset: Record<string, unknown> }>(
          base,
          `{ dataset(urn: "${clicks}") { institutionalMemory { elements { url } } domain { domain { urn } } } }`,
        );
        expect(after.dataset).toEqual({ institutionalMemory: { elements: [] }, domain: null });
      });

      it('refuses labels and resources that do not exist, writing nothing', async () => {
        const res = await graphql(base, 'mutation($i: TagAssociationInput!) { addTag(input: $i) }', {
          i: { tagUrn: `urn:li:tag:missing_${run}`, resourceUrn: customers },
        });
        expect(res.errors?.[0]).toMatchObject({ extensions: { code: 400 } });
        expect(res.errors?.[0]?.message).toContain('does not exist');
        const missing = await graphql(
          base,
          `mutation { updateDescription(input: {resourceUrn: "${datasetUrn(`gql_${run}.none`)}", description: "x"}) }`,
        );
        expect(missing.errors?.[0]?.message).toContain('does not exist');
      });

      it('creates a tag through the proposal path and deletes it', async () => {
        const id = `t_${run}`;
        const created = await data<{ createTag: string }>(
          base,
          'mutation($t: CreateTagInput!) { createTag(input: $t) }',
          { t: { id, name: 'Temporary', description: 'made by a test' } },
        );
        expect(created.createTag).toBe(`urn:li:tag:${id}`);
        const read = await data<{ tag: { properties: { name: string; description: string } } }>(
          base,
          `{ tag(urn: "urn:li:tag:${id}") { properties { name description } } }`,
        );
        expect(read.tag.properties).toEqual({ name: 'Temporary', description: 'made by a test' });
        expect((await data(base, `mutation { deleteTag(urn: "urn:li:tag:${id}") }`))['deleteTag']).toBe(true);
        // The typed getter still answers for the deleted tag, as an entity that does not exist.
        expect((await data(base, `{ tag(urn: "urn:li:tag:${id}") { urn exists } }`))['tag']).toEqual({
          urn: `urn:li:tag:${id}`,
          exists: false,
        });
      });
    });
  });
}
