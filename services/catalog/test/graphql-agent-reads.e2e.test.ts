import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql, graphqlData } from './graphql-client.js';
import {
  SYSTEM_AUTH_HEADERS,
  datasetUrn,
  logIn,
  proposal,
  startTestCatalog,
  type TestCatalog,
} from './harness.js';
import { signUpUser } from './test-users.js';

/**
 * The GraphQL the ecosystem's MCP server (mcp-server-datahub) sends beyond the UI's: `listQueries`, the
 * global default view, and the entity fields its entity query selects, each read from its aspect.
 */
async function write(base: string, proposals: Record<string, unknown>[]): Promise<void> {
  const res = await fetch(`${base}/aspects?action=ingestProposalBatch`, {
    method: 'POST',
    headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', 'X-Wait-For-Index': 'true' },
    body: JSON.stringify({ proposals, async: 'false' }),
  });
  if (res.status !== 200) throw new Error(`write failed: ${res.status} ${await res.text()}`);
}

const stamp = { time: 5, actor: 'urn:li:corpuser:datahub' };
const params = { value: { value: '10', type: 'NUMBER' } };

for (const family of FAMILIES) {
  describe.skipIf(family.skip !== undefined)(`GraphQL reads of agents on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    const run = Math.random().toString(36).slice(2, 8);
    const [table, view] = ['table', 'view'].map((n) => datasetUrn(`agent_${run}.${n}`, 'mysql')) as [
      string,
      string,
    ];
    const [manual, system] = [`urn:li:query:agent_${run}_m`, `urn:li:query:agent_${run}_s`];
    const chart = `urn:li:chart:(looker,agent_${run})`;
    const node = `urn:li:glossaryNode:agent_${run}`;
    const group = `urn:li:corpGroup:agent_${run}`;
    const ownershipType = `urn:li:ownershipType:agent_${run}`;
    const assertion = `urn:li:assertion:agent_${run}`;

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = `Bearer ${await logIn(base)}`;
      const query = (urn: string, source: string, sql: string) => [
        proposal(urn, 'queryProperties', {
          statement: { value: sql, language: 'SQL' },
          source,
          created: stamp,
          lastModified: stamp,
        }),
        proposal(urn, 'querySubjects', { subjects: [{ entity: table }] }),
      ];
      await write(base, [
        proposal(table, 'schemaMetadata', {
          schemaName: 't',
          platform: 'urn:li:dataPlatform:mysql',
          version: 0,
          hash: '',
          platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: 'create table t (id int)' } },
          fields: [
            {
              fieldPath: 'id',
              jsonPath: '$.id',
              isPartitioningKey: true,
              nativeDataType: 'int',
              type: { type: { 'com.linkedin.schema.NumberType': {} } },
            },
          ],
          foreignKeys: [
            {
              name: 'fk_view',
              foreignDataset: view,
              foreignFields: [`urn:li:schemaField:(${view},id)`],
              sourceFields: [`urn:li:schemaField:(${table},id)`],
            },
          ],
        }),
        proposal(table, 'deprecation', {
          deprecated: true,
          note: 'use the view',
          actor: 'urn:li:corpuser:datahub',
        }),
        proposal(view, 'viewProperties', {
          materialized: false,
          viewLogic: 'select * from t',
          viewLanguage: 'SQL',
        }),
        ...query(manual, 'MANUAL', 'select 1 from t'),
        ...query(system, 'SYSTEM', 'select 2 from t'),
        proposal(chart, 'chartInfo', {
          title: 'agent chart',
          description: '',
          type: 'BAR',
          access: 'PUBLIC',
          lastModified: { created: stamp, lastModified: stamp },
        }),
        proposal(node, 'glossaryNodeInfo', {
          definition: 'terms',
          name: 'Agents',
          customProperties: { owner: 'ml' },
        }),
        proposal(node, 'displayProperties', {
          colorHex: '#112233',
          icon: { iconLibrary: 'MATERIAL', name: 'Robot', style: 'outlined' },
        }),
        proposal(group, 'corpGroupInfo', {
          displayName: 'Agents',
          admins: ['urn:li:corpuser:datahub'],
          members: [],
          groups: [],
        }),
        proposal(ownershipType, 'ownershipTypeInfo', {
          name: 'Agent owner',
          created: stamp,
          lastModified: stamp,
        }),
        proposal(assertion, 'assertionInfo', {
          type: 'DATASET',
          datasetAssertion: {
            dataset: table,
            scope: 'DATASET_COLUMN',
            fields: [`urn:li:schemaField:(${table},id)`],
            aggregation: 'MAX',
            operator: 'LESS_THAN',
            parameters: params,
          },
        }),
        proposal(assertion, 'dataPlatformInstance', { platform: 'urn:li:dataPlatform:great-expectations' }),
      ]);
    }, 120_000);
    afterAll(async () => catalog?.dispose());

    it('listQueries lists the queries of a dataset, newest first, narrowed by source', async () => {
      const list = `query($input: ListQueriesInput!) { listQueries(input: $input) {
        start count total queries { urn properties { source statement { value } } subjects { dataset { urn } } } } }`;
      const all = await graphqlData<{ listQueries: { total: number; queries: { urn: string }[] } }>(
        base,
        list,
        {
          input: { datasetUrn: table },
        },
      );
      expect(all.listQueries.total).toBe(2);
      expect(all.listQueries.queries.map((q) => q.urn).sort()).toEqual([manual, system].sort());
      const manualOnly = await graphqlData<{ listQueries: { queries: unknown[] } }>(base, list, {
        input: { orFilters: [{ and: [{ field: 'entities', values: [table] }] }], source: 'MANUAL' },
      });
      expect(manualOnly.listQueries.queries).toEqual([
        {
          urn: manual,
          properties: { source: 'MANUAL', statement: { value: 'select 1 from t' } },
          subjects: [{ dataset: { urn: table } }],
        },
      ]);
    });

    it('the global default view is set by who manages global views and read by anyone', async () => {
      const read = '{ globalViewsSettings { defaultView } }';
      expect(
        (await graphqlData(base, read, {}, { headers: { Authorization: admin } }))['globalViewsSettings'],
      ).toEqual({ defaultView: null });
      const { createView } = await graphqlData<{ createView: { urn: string } }>(
        base,
        `mutation { createView(input: {viewType: GLOBAL, name: "agents ${run}",
          definition: {entityTypes: [DATASET], filter: {operator: AND, filters: []}}}) { urn } }`,
        {},
        { headers: { Authorization: admin } },
      );
      const set = 'mutation($v: String) { updateGlobalViewsSettings(input: {defaultView: $v}) }';
      const reader = await signUpUser(base, admin, `agent-reader-${run}@example.com`, 'Reader');
      const refused = await graphql(base, set, { v: createView.urn }, { headers: { Authorization: reader } });
      expect(refused.errors?.[0]?.message).toMatch(/unauthorized/i);
      await graphqlData(base, set, { v: createView.urn }, { headers: { Authorization: admin } });
      expect(
        (await graphqlData(base, read, {}, { headers: { Authorization: reader } }))['globalViewsSettings'],
      ).toEqual({ defaultView: createView.urn });
      const notAView = await graphql(base, set, { v: table }, { headers: { Authorization: admin } });
      expect(notAView.errors?.[0]?.message).toMatch(/dataHubView/);
      await graphqlData(base, set, { v: null }, { headers: { Authorization: admin } });
      expect((await graphqlData(base, read))['globalViewsSettings']).toEqual({ defaultView: null });
    });

    it('reads the entity fields the ecosystem MCP server selects from their aspects', async () => {
      const data = await graphqlData<Record<string, unknown>>(
        base,
        `query($table: String!, $view: String!, $chart: String!, $node: String!, $group: String!, $type: String!, $assertion: String!) {
          table: dataset(urn: $table) {
            deprecation { actorEntity { urn } }
            schemaMetadata {
              platformSchema { ... on TableSchema { schema } }
              foreignKeys { name foreignDataset { urn } foreignFields { fieldPath } sourceFields { urn } }
              fields { fieldPath jsonPath isPartitioningKey }
            }
          }
          view: dataset(urn: $view) { viewProperties { materialized logic language formattedLogic } }
          chart(urn: $chart) { properties { type access } }
          glossaryNode(urn: $node) {
            properties { customProperties { key value } }
            displayProperties { colorHex icon { iconLibrary name style } }
          }
          corpGroup(urn: $group) { info { displayName admins { urn } } }
          type: entity(urn: $type) { ... on OwnershipTypeEntity { info { name created { time } } } }
          assertion: entity(urn: $assertion) { ... on Assertion {
            platform { urn }
            info { datasetAssertion { datasetUrn scope aggregation operator fields { path } parameters { value { value type } } }
              fieldAssertion { type } volumeAssertion { type } sqlAssertion { type } }
          } }
        }`,
        { table, view, chart, node, group, type: ownershipType, assertion },
      );
      expect(data).toEqual({
        table: {
          deprecation: { actorEntity: { urn: 'urn:li:corpuser:datahub' } },
          schemaMetadata: {
            platformSchema: { schema: 'create table t (id int)' },
            foreignKeys: [
              {
                name: 'fk_view',
                foreignDataset: { urn: view },
                foreignFields: [{ fieldPath: 'id' }],
                sourceFields: [{ urn: `urn:li:schemaField:(${table},id)` }],
              },
            ],
            fields: [{ fieldPath: 'id', jsonPath: '$.id', isPartitioningKey: true }],
          },
        },
        view: {
          viewProperties: {
            materialized: false,
            logic: 'select * from t',
            language: 'SQL',
            formattedLogic: null,
          },
        },
        chart: { properties: { type: 'BAR', access: 'PUBLIC' } },
        glossaryNode: {
          properties: { customProperties: [{ key: 'owner', value: 'ml' }] },
          displayProperties: {
            colorHex: '#112233',
            icon: { iconLibrary: 'MATERIAL', name: 'Robot', style: 'outlined' },
          },
        },
        corpGroup: { info: { displayName: 'Agents', admins: [{ urn: 'urn:li:corpuser:datahub' }] } },
        type: { info: { name: 'Agent owner', created: { time: 5 } } },
        assertion: {
          platform: { urn: 'urn:li:dataPlatform:great-expectations' },
          info: {
            datasetAssertion: {
              datasetUrn: table,
              scope: 'DATASET_COLUMN',
              aggregation: 'MAX',
              operator: 'LESS_THAN',
              fields: [{ path: 'id' }],
              parameters: { value: { value: '10', type: 'NUMBER' } },
            },
            fieldAssertion: null,
            volumeAssertion: null,
            sqlAssertion: null,
          },
        },
      });
    });

    it('counts depth by fields, so fragments spread deep within the field limit validate', async () => {
      // Twenty fragments around five levels of fields: 25 levels if fragments counted, 5 as fields.
      const fragments = Array.from(
        { length: 20 },
        (_, i) =>
          `fragment f${i} on Dataset { urn ${i < 19 ? `...f${i + 1}` : 'schemaMetadata { fields { schemaFieldEntity { urn } } }'} }`,
      ).join('\n');
      const res = await graphql(
        base,
        `
          query ($u: String!) {
            dataset(urn: $u) {
              ...f0
            }
          }
          ${fragments}
        `,
        { u: table },
      );
      expect(res.errors).toBeUndefined();
      // 25 levels of fields under dataset: one more than the limit, whatever the fragments.
      const tooDeep = `{ dataset(urn: "x") { ${'container { '.repeat(24)} urn ${'} '.repeat(24)} } }`;
      const refused = await graphql(base, tooDeep);
      expect(refused.errors?.[0]?.message).toMatch(/depth limit of 24 exceeded/);
    });
  });
}
