import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql, graphqlData as data } from './graphql-client.js';
import { SYSTEM_AUTH_HEADERS, datasetUrn, proposal, startTestCatalog, type TestCatalog } from './harness.js';

/**
 * The GraphQL read fields the ecosystem's smoke suite reads, each answered from the catalog's data:
 * typed getters of absent entities, glossary hierarchies, schema and chart fields, process instances,
 * ML entities, dataset profiles and usage summaries, appConfig, and the `_entityType` filter as the SDK
 * sends it.
 */
async function write(base: string, proposals: Record<string, unknown>[]): Promise<void> {
  const res = await fetch(`${base}/aspects?action=ingestProposalBatch`, {
    method: 'POST',
    headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', 'X-Wait-For-Index': 'true' },
    body: JSON.stringify({ proposals, async: 'false' }),
  });
  if (res.status !== 200) throw new Error(`write failed: ${res.status} ${await res.text()}`);
}

const DAY = 24 * 60 * 60 * 1000;
const dayStart = (offset: number) => Math.floor(Date.now() / DAY) * DAY + offset * DAY;

for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping GraphQL read fields on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`GraphQL read fields on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    const run = Math.random().toString(36).slice(2, 8);
    const orders = datasetUrn(`rf_${run}.orders`, 'postgres');
    const root = `urn:li:glossaryNode:rf_${run}_root`;
    const branch = `urn:li:glossaryNode:rf_${run}_branch`;
    const leaf = `urn:li:glossaryNode:rf_${run}_leaf`;
    const term = `urn:li:glossaryTerm:rf_${run}_term`;
    const chart = `urn:li:chart:(looker,rf_${run})`;
    const container = `urn:li:container:rf_${run}`;
    const dpi = `urn:li:dataProcessInstance:rf_${run}_run`;
    const model = `urn:li:mlModel:(urn:li:dataPlatform:mlflow,rf_${run}_model,PROD)`;
    const group = `urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,rf_${run}_group,PROD)`;
    const feature = `urn:li:mlFeature:(rf_${run}_ns,amount)`;
    const user = `urn:li:corpuser:rf_${run}_user`;
    const [alice, bob] = [`urn:li:corpuser:rf_${run}_alice`, `urn:li:corpuser:rf_${run}_bob`];
    const field = `urn:li:schemaField:(${orders},id)`;

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      const usage = (day: number, queries: number, users: Record<string, number>) =>
        proposal(orders, 'datasetUsageStatistics', {
          timestampMillis: dayStart(day),
          eventGranularity: { unit: 'DAY', multiple: 1 },
          totalSqlQueries: queries,
          userCounts: Object.entries(users).map(([u, count]) => ({ user: u, count })),
        });
      await write(base, [
        proposal(orders, 'datasetProperties', { name: 'orders' }),
        proposal(orders, 'schemaMetadata', {
          schemaName: 'orders',
          platform: 'urn:li:dataPlatform:postgres',
          version: 0,
          hash: '',
          platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
          fields: [
            {
              fieldPath: 'id',
              nativeDataType: 'int',
              type: { type: { 'com.linkedin.schema.NumberType': {} } },
            },
          ],
        }),
        proposal(orders, 'datasetProfile', { timestampMillis: dayStart(-2), rowCount: 10, columnCount: 1 }),
        proposal(orders, 'datasetProfile', { timestampMillis: dayStart(-1), rowCount: 20, columnCount: 1 }),
        usage(-3, 5, { [alice]: 1, [bob]: 4 }),
        usage(-2, 7, { [alice]: 2 }),
        // Out of the 30-day window: not counted.
        usage(-40, 1000, { [user]: 99 }),
        proposal(root, 'glossaryNodeInfo', { name: 'root', definition: 'the root' }),
        proposal(branch, 'glossaryNodeInfo', { name: 'branch', definition: 'a branch', parentNode: root }),
        proposal(leaf, 'glossaryNodeInfo', { name: 'leaf', definition: 'a leaf', parentNode: branch }),
        proposal(term, 'glossaryTermInfo', {
          name: 'term',
          definition: 'a term',
          termSource: 'INTERNAL',
          parentNode: leaf,
        }),
        proposal(chart, 'chartInfo', {
          title: 'chart',
          description: '',
          lastModified: {
            created: { time: 0, actor: 'urn:li:corpuser:datahub' },
            lastModified: { time: 0, actor: 'urn:li:corpuser:datahub' },
          },
        }),
        proposal(chart, 'inputFields', {
          fields: [
            {
              schemaFieldUrn: field,
              schemaField: {
                fieldPath: 'id',
                nativeDataType: 'int',
                type: { type: { 'com.linkedin.schema.NumberType': {} } },
              },
            },
          ],
        }),
        proposal(chart, 'editableChartProperties', {
          description: 'edited',
          created: { time: 0, actor: 'urn:li:corpuser:datahub' },
          lastModified: { time: 0, actor: 'urn:li:corpuser:datahub' },
        }),
        proposal(container, 'containerProperties', { name: 'no platform' }),
        proposal(dpi, 'dataProcessInstanceProperties', {
          name: 'nightly run',
          created: { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' },
          customProperties: { attempt: '1' },
        }),
        proposal(dpi, 'mlTrainingRunProperties', {
          id: 'run-1',
          outputUrls: ['s3://bucket/out'],
          trainingMetrics: [{ name: 'accuracy', value: '0.9' }],
          hyperParams: [{ name: 'lr', value: '0.01' }],
        }),
        proposal(model, 'mlModelProperties', {
          name: 'model',
          description: 'a model',
          groups: [group],
          version: { versionTag: '3' },
          hyperParams: [{ name: 'depth', value: '4' }],
        }),
        proposal(group, 'mlModelGroupProperties', { description: 'a group' }),
        proposal(feature, 'mlFeatureProperties', { description: 'a feature' }),
        proposal(user, 'corpUserInfo', {
          active: true,
          displayName: 'User',
          managerUrn: alice,
          departmentId: 7,
        }),
      ]);
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    it('answers a typed getter of an absent entity with the entity, exists false', async () => {
      const absent = datasetUrn(`rf_${run}.absent`, 'postgres');
      const res = await data<{ dataset: unknown; chart: unknown }>(
        base,
        `query($d: String!, $c: String!) { dataset(urn: $d) { urn exists } chart(urn: $c) { urn exists } }`,
        { d: absent, c: chart },
      );
      expect(res).toEqual({ dataset: { urn: absent, exists: false }, chart: { urn: chart, exists: true } });
    });

    it('has a typed getter for each ML entity, process instances, notebooks and assertions', async () => {
      const urns = {
        mlFeature: `urn:li:mlFeature:(rf_${run},age)`,
        mlPrimaryKey: `urn:li:mlPrimaryKey:(rf_${run},id)`,
        mlFeatureTable: `urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,rf_${run})`,
        mlModelGroup: `urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,rf_${run},PROD)`,
        dataProcessInstance: `urn:li:dataProcessInstance:rf_${run}`,
        notebook: `urn:li:notebook:(querybook,rf_${run})`,
        assertion: `urn:li:assertion:rf_${run}`,
      };
      await write(base, [proposal(urns.mlFeature, 'mlFeatureProperties', { description: 'age' })]);
      const getters = Object.keys(urns);
      const res = await data<Record<string, unknown>>(
        base,
        `query(${getters.map((g) => `$${g}: String!`).join(', ')}) {
          ${getters.map((g) => `${g}(urn: $${g}) { urn exists }`).join('\n')}
        }`,
        urns,
      );
      expect(res).toEqual(
        Object.fromEntries(Object.entries(urns).map(([g, urn]) => [g, { urn, exists: g === 'mlFeature' }])),
      );
    });

    it('walks a term’s parent nodes up to the root, and counts and searches a node’s children', async () => {
      const res = await data<Record<string, unknown>>(
        base,
        `query($t: String!, $b: String!, $r: String!) {
          glossaryTerm(urn: $t) { parentNodes { count nodes { urn } } }
          glossaryNode(urn: $b) {
            childrenCount { termsCount nodesCount }
            glossaryChildrenSearch(input: { query: "*", count: 10 }) { total searchResults { entity { urn } } }
          }
          root: glossaryNode(urn: $r) { childrenCount { termsCount nodesCount } parentNodes { count } }
        }`,
        { t: term, b: branch, r: root },
      );
      expect(res['glossaryTerm']).toEqual({
        parentNodes: { count: 3, nodes: [{ urn: leaf }, { urn: branch }, { urn: root }] },
      });
      expect(res['glossaryNode']).toEqual({
        childrenCount: { termsCount: 0, nodesCount: 1 },
        glossaryChildrenSearch: { total: 1, searchResults: [{ entity: { urn: leaf } }] },
      });
      expect(res['root']).toEqual({
        childrenCount: { termsCount: 0, nodesCount: 1 },
        parentNodes: { count: 0 },
      });
    });

    it('shows when a schema version was written, a chart’s input fields and its editable properties', async () => {
      const res = await data<{
        dataset: { schemaMetadata: { createdAt: number } & Record<string, unknown> };
        chart: Record<string, unknown>;
      }>(
        base,
        `query($d: String!, $c: String!) {
          dataset(urn: $d) { schemaMetadata { name createdAt aspectVersion datasetUrn } }
          chart(urn: $c) {
            inputFields { fields { schemaFieldUrn schemaField { fieldPath type } } }
            editableProperties { __typename description }
          }
        }`,
        { d: orders, c: chart },
      );
      expect(res.dataset.schemaMetadata).toMatchObject({
        name: 'orders',
        aspectVersion: 0,
        datasetUrn: null,
      });
      expect(res.dataset.schemaMetadata.createdAt).toBeGreaterThan(Date.now() - 10 * 60_000);
      expect(res.chart).toEqual({
        inputFields: {
          fields: [{ schemaFieldUrn: field, schemaField: { fieldPath: 'id', type: 'NUMBER' } }],
        },
        editableProperties: { __typename: 'ChartEditableProperties', description: 'edited' },
      });
    });

    it('shows a container without a platform instance on the unknown platform, as the ecosystem', async () => {
      const res = await data<{ container: unknown }>(
        base,
        `query($u: String!) { container(urn: $u) { platform { urn } } }`,
        {
          u: container,
        },
      );
      expect(res.container).toEqual({ platform: { urn: 'urn:li:dataPlatform:unknown' } });
    });

    it('shows a process instance’s properties and training run', async () => {
      const res = await data<{ entity: unknown }>(
        base,
        `query($u: String!) { entity(urn: $u) { ... on DataProcessInstance {
          name
          properties { name externalUrl created { time } customProperties { key value } }
          mlTrainingRunProperties { id outputUrls trainingMetrics { name value } hyperParams { name value } }
        } } }`,
        { u: dpi },
      );
      expect(res.entity).toEqual({
        name: 'nightly run',
        properties: {
          name: 'nightly run',
          externalUrl: null,
          created: { time: 1_700_000_000_000 },
          customProperties: [{ key: 'attempt', value: '1' }],
        },
        mlTrainingRunProperties: {
          id: 'run-1',
          outputUrls: ['s3://bucket/out'],
          trainingMetrics: [{ name: 'accuracy', value: '0.9' }],
          hyperParams: [{ name: 'lr', value: '0.01' }],
        },
      });
    });

    it('shows ML models, groups and features with names, platforms and properties', async () => {
      const res = await data<Record<string, unknown>>(
        base,
        `query($m: String!, $g: String!, $f: String!) {
          model: entity(urn: $m) { ... on MLModel { name platform { urn } description
            properties { name version hyperParams { name value } groups { urn } } } }
          group: entity(urn: $g) { ... on MLModelGroup { name origin properties { description } } }
          feature: entity(urn: $f) { ... on MLFeature { name featureNamespace properties { description } } }
        }`,
        { m: model, g: group, f: feature },
      );
      expect(res).toEqual({
        model: {
          name: `rf_${run}_model`,
          platform: { urn: 'urn:li:dataPlatform:mlflow' },
          description: 'a model',
          properties: {
            name: 'model',
            version: '3',
            hyperParams: [{ name: 'depth', value: '4' }],
            groups: [{ urn: group }],
          },
        },
        group: { name: `rf_${run}_group`, origin: 'PROD', properties: { description: 'a group' } },
        feature: {
          name: 'amount',
          featureNamespace: `rf_${run}_ns`,
          properties: { description: 'a feature' },
        },
      });
    });

    it('shows the deprecated CorpUser.info as the ecosystem’s CorpUserInfo', async () => {
      const res = await data<{ corpUser: unknown }>(
        base,
        `query($u: String!) { corpUser(urn: $u) { info { __typename active displayName departmentId manager { urn } } } }`,
        { u: user },
      );
      expect(res.corpUser).toEqual({
        info: {
          __typename: 'CorpUserInfo',
          active: true,
          displayName: 'User',
          departmentId: 7,
          manager: { urn: alice },
        },
      });
    });

    it('reads dataset profiles newest first, and the 30-day usage summary', async () => {
      const res = await data<{ dataset: Record<string, unknown> }>(
        base,
        `query($u: String!) { dataset(urn: $u) {
          latest: datasetProfiles(limit: 1) { timestampMillis rowCount }
          all: datasetProfiles { rowCount }
          statsSummary { queryCountLast30Days uniqueUserCountLast30Days topUsersLast30Days { urn } }
        } }`,
        { u: orders },
      );
      expect(res.dataset).toEqual({
        latest: [{ timestampMillis: dayStart(-1), rowCount: 20 }],
        all: [{ rowCount: 20 }, { rowCount: 10 }],
        statsSummary: {
          queryCountLast30Days: 12,
          uniqueUserCountLast30Days: 2,
          topUsersLast30Days: [{ urn: bob }, { urn: alice }],
        },
      });
    });

    it('answers appConfig from the server configuration', async () => {
      const res = await data<{ appConfig: unknown }>(
        base,
        '{ appConfig { telemetryConfig { enableThirdPartyLogging } lineageConfig { supportsImpactAnalysis } } }',
      );
      expect(res.appConfig).toEqual({
        telemetryConfig: { enableThirdPartyLogging: false },
        lineageConfig: { supportsImpactAnalysis: false },
      });
    });

    it('filters on _entityType as the SDK sends it (the EntityType value)', async () => {
      const res = await data<{ searchAcrossEntities: { searchResults: { entity: { urn: string } }[] } }>(
        base,
        `query($q: String!) { searchAcrossEntities(input: { query: $q, count: 50,
          orFilters: [{ and: [{ field: "_entityType", values: ["DATASET"] }] }] }) { searchResults { entity { urn } } } }`,
        { q: `rf_${run}*` },
      );
      const urns = res.searchAcrossEntities.searchResults.map((r) => r.entity.urn);
      expect(urns).toContain(orders);
      expect(urns.every((u) => u.startsWith('urn:li:dataset:'))).toBe(true);
    });

    it('refuses a batch edit whose resources hold null with a 400 naming it', async () => {
      const res = await graphql(
        base,
        'mutation { batchAddTerms(input: { termUrns: ["urn:li:glossaryTerm:x"], resources: [null] }) }',
      );
      expect(res.errors?.[0]).toMatchObject({
        message: expect.stringContaining('resources must not contain null'),
        extensions: { code: 400 },
      });
    });
  });
}
