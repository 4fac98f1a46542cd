import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql, graphqlData as data } from './graphql-client.js';
import {
  SYSTEM_AUTH_HEADERS,
  datasetUrn,
  proposal,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';

/**
 * The structured-property operations of GraphQL (spec 2.6, 2.7, 3.2, 3.3, 4.1) on each family: definitions
 * created, updated and deleted; values upserted, read and removed; soft delete and restore.
 */

/** The one error of a query that must fail. */
async function failure(base: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await graphql(base, query, variables);
  expect(res.status).toBe(200);
  expect(res.errors, JSON.stringify(res.data)).toHaveLength(1);
  return res.errors![0]!;
}

/** Writes proposals through the Rest.li batch, answered once stored and indexed. */
async function write(base: string, proposals: Record<string, unknown>[]): Promise<Response> {
  return fetch(`${base}/aspects?action=ingestProposalBatch`, {
    method: 'POST',
    headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', 'X-Wait-For-Index': 'true' },
    body: JSON.stringify({ proposals, async: 'false' }),
  });
}

async function mustWrite(base: string, proposals: Record<string, unknown>[]): Promise<void> {
  const res = await write(base, proposals);
  if (res.status !== 200) throw new Error(`write failed: ${res.status} ${await res.text()}`);
}

const CREATE = `mutation($input: CreateStructuredPropertyInput!) {
  createStructuredProperty(input: $input) { urn type exists definition { qualifiedName cardinality } }
}`;
const UPDATE = `mutation($input: UpdateStructuredPropertyInput!) {
  updateStructuredProperty(input: $input) {
    urn
    definition {
      qualifiedName displayName description cardinality immutable
      allowedValues { value { ...on StringValue { stringValue } ...on NumberValue { numberValue } } description }
      entityTypes { urn }
      typeQualifier { allowedTypes { urn } }
    }
    settings { isHidden showInSearchFilters showInAssetSummary showAsAssetBadge showInColumnsTable }
  }
}`;
const DELETE = `mutation($urn: String!) { deleteStructuredProperty(input: {urn: $urn}) }`;
const ENTRIES = `properties {
  structuredProperty { urn }
  values { ...on StringValue { stringValue } ...on NumberValue { numberValue } }
  valueEntities { urn type }
  associatedUrn
}`;
const VALUES = `structuredProperties { ${ENTRIES} }`;
const UPSERT = `mutation($input: UpsertStructuredPropertiesInput!) { upsertStructuredProperties(input: $input) { ${ENTRIES} } }`;
const REMOVE = `mutation($input: RemoveStructuredPropertiesInput!) { removeStructuredProperties(input: $input) { ${ENTRIES} } }`;
/** The read form of spec 2.7, whole. */
const READ_FORM = `structuredProperties {
  properties {
    structuredProperty {
      urn type exists
      definition {
        qualifiedName displayName description cardinality immutable
        valueType { urn type info { type qualifiedName displayName } }
        entityTypes { urn type info { type qualifiedName } }
        allowedValues { value { __typename ...on StringValue { stringValue } ...on NumberValue { numberValue } } description }
      }
      settings { isHidden showInSearchFilters showInAssetSummary showAsAssetBadge showInColumnsTable }
    }
    values { __typename ...on StringValue { stringValue } ...on NumberValue { numberValue } }
    valueEntities { urn type }
    associatedUrn
  }
}`;

interface Entry {
  structuredProperty: { urn: string };
  values: ({ stringValue: string } | { numberValue: number })[];
  valueEntities: { urn: string; type: string }[];
  associatedUrn: string;
}

const byUrn = (entries: readonly Entry[]) =>
  Object.fromEntries(entries.map((e) => [e.structuredProperty.urn, e.values]));

for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping structured-property GraphQL e2e on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`GraphQL structured properties on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    const run = Math.random().toString(36).slice(2, 8);
    const orders = datasetUrn(`sp_${run}.orders`, 'postgres');
    const customers = datasetUrn(`sp_${run}.customers`, 'postgres');
    const chart = `urn:li:chart:(looker,sp_${run})`;
    const steward = `urn:li:corpuser:steward_${run}`;
    const retentionName = `io.catalog.retention_${run}`;
    const retention = `urn:li:structuredProperty:${retentionName}`;
    const classification = `urn:li:structuredProperty:io.catalog.classification_${run}`;
    const owner = `urn:li:structuredProperty:io.catalog.owner_${run}`;
    const retired = `urn:li:structuredProperty:io.catalog.retired_${run}`;
    const dataset = 'urn:li:entityType:datahub.dataset';

    const datasetValues = async (urn = orders) =>
      (
        await data<{ dataset: { structuredProperties: { properties: Entry[] } | null } }>(
          base,
          `query($urn: String!) { dataset(urn: $urn) { ${VALUES} } }`,
          { urn },
        )
      ).dataset.structuredProperties?.properties ?? [];

    const upsert = (assetUrn: string, params: Record<string, unknown>[]) =>
      graphql(base, UPSERT, { input: { assetUrn, structuredPropertyInputParams: params } });

    const status = (urn: string, removed: boolean) => proposal(urn, 'status', { removed });

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      await mustWrite(base, [
        proposal(orders, 'datasetProperties', { name: 'orders', description: `Orders of ${run}` }),
        proposal(orders, 'schemaMetadata', {
          schemaName: 'orders',
          platform: 'urn:li:dataPlatform:postgres',
          version: 0,
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
        proposal(customers, 'datasetProperties', { name: 'customers' }),
        proposal(chart, 'chartInfo', {
          title: `Revenue ${run}`,
          description: 'Revenue by day',
          lastModified: {
            created: { time: 0, actor: 'urn:li:corpuser:x' },
            lastModified: { time: 0, actor: 'urn:li:corpuser:x' },
          },
        }),
        proposal(steward, 'corpUserInfo', { active: true, displayName: 'Steward' }),
      ]);
    });
    afterAll(async () => catalog?.dispose());

    describe('definitions', () => {
      it('creates a property from its qualified name and answers the StructuredPropertyEntity', async () => {
        const res = await data<{ createStructuredProperty: Record<string, unknown> }>(
          base,
          `mutation($input: CreateStructuredPropertyInput!) { createStructuredProperty(input: $input) {
            urn type exists
            definition {
              qualifiedName displayName description cardinality immutable
              valueType { urn type info { type qualifiedName displayName } }
              entityTypes { urn type info { type qualifiedName displayName } }
              allowedValues { value { __typename ...on NumberValue { numberValue } } description }
              typeQualifier { allowedTypes { urn } }
              created { time actor { urn } }
              lastModified { time }
              filterStatus
            }
            settings { isHidden showInSearchFilters showInAssetSummary showAsAssetBadge showInColumnsTable }
          } }`,
          {
            input: {
              qualifiedName: retentionName,
              displayName: 'Retention',
              description: 'Days to keep',
              valueType: 'urn:li:dataType:datahub.number',
              cardinality: 'SINGLE',
              entityTypes: [dataset],
              allowedValues: [
                { numberValue: 30, description: 'a month' },
                { numberValue: 90, description: 'a quarter' },
              ],
              settings: { showInSearchFilters: true },
            },
          },
        );
        const created = res.createStructuredProperty;
        expect(created).toMatchObject({
          urn: retention,
          type: 'STRUCTURED_PROPERTY',
          exists: true,
          definition: {
            qualifiedName: retentionName,
            displayName: 'Retention',
            description: 'Days to keep',
            cardinality: 'SINGLE',
            immutable: false,
            valueType: {
              urn: 'urn:li:dataType:datahub.number',
              type: 'DATA_TYPE',
              info: { type: 'NUMBER', qualifiedName: 'datahub.number', displayName: 'Number' },
            },
            entityTypes: [
              {
                urn: dataset,
                type: 'ENTITY_TYPE',
                info: { type: 'DATASET', qualifiedName: 'datahub.dataset', displayName: 'dataset' },
              },
            ],
            allowedValues: [
              { value: { __typename: 'NumberValue', numberValue: 30 }, description: 'a month' },
              { value: { __typename: 'NumberValue', numberValue: 90 }, description: 'a quarter' },
            ],
            typeQualifier: null,
            created: { actor: { urn: expect.stringMatching(/^urn:li:corpuser:/) } },
            filterStatus: 'ENABLED',
          },
          settings: {
            isHidden: false,
            showInSearchFilters: true,
            showInAssetSummary: false,
            showAsAssetBadge: false,
            showInColumnsTable: false,
          },
        });
        expect((created['definition'] as { created: { time: number } }).created.time).toBeGreaterThan(0);
      });

      it('takes the id as the qualified name, and a new UUID when neither is given', async () => {
        const byId = await data<{ createStructuredProperty: { urn: string; definition: unknown } }>(
          base,
          CREATE,
          {
            input: {
              id: `io.catalog.classification_${run}`,
              valueType: 'urn:li:dataType:datahub.string',
              entityTypes: [dataset, 'urn:li:entityType:datahub.chart'],
              allowedValues: [
                { stringValue: 'public' },
                { stringValue: 'internal', description: 'staff only' },
              ],
            },
          },
        );
        expect(byId.createStructuredProperty).toEqual({
          urn: classification,
          type: 'STRUCTURED_PROPERTY',
          exists: true,
          definition: { qualifiedName: `io.catalog.classification_${run}`, cardinality: 'SINGLE' },
        });
        const generated = await data<{
          createStructuredProperty: { urn: string; definition: { qualifiedName: string } };
        }>(base, CREATE, { input: { valueType: 'urn:li:dataType:datahub.string', entityTypes: [dataset] } });
        const id = generated.createStructuredProperty.urn.replace('urn:li:structuredProperty:', '');
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        expect(generated.createStructuredProperty.definition.qualifiedName).toBe(id);
        // An urn-typed property, for values that name entities.
        await data(base, CREATE, {
          input: {
            qualifiedName: `io.catalog.owner_${run}`,
            valueType: 'urn:li:dataType:datahub.urn',
            cardinality: 'MULTIPLE',
            entityTypes: [dataset, 'urn:li:entityType:datahub.schemaField'],
            typeQualifier: { allowedTypes: ['urn:li:entityType:datahub.corpuser'] },
          },
        });
      });

      it('refuses a second create of one urn, and an id that differs from the qualified name', async () => {
        const again = await failure(base, CREATE, {
          input: {
            qualifiedName: retentionName,
            valueType: 'urn:li:dataType:datahub.number',
            entityTypes: [dataset],
          },
        });
        expect(again).toMatchObject({
          message: 'A structured property already exists with this urn',
          path: ['createStructuredProperty'],
          extensions: { code: 400, type: 'BAD_REQUEST' },
        });
        const mismatch = await failure(base, CREATE, {
          input: {
            id: 'a',
            qualifiedName: 'b',
            valueType: 'urn:li:dataType:datahub.string',
            entityTypes: [dataset],
          },
        });
        expect(mismatch.message).toBe('Qualified name and the ID of a structured property must match');
        const hidden = await failure(base, CREATE, {
          input: {
            qualifiedName: `io.catalog.hidden_${run}`,
            valueType: 'urn:li:dataType:datahub.string',
            entityTypes: [dataset],
            settings: { isHidden: true, showAsAssetBadge: true },
          },
        });
        expect(hidden.message).toBe(
          'Cannot have property isHidden = true while other display location settings are also true.',
        );
        // Nothing of the refused create is stored (a typed getter answers an absent entity with exists: false).
        const lookup = await data<{ structuredProperty: unknown }>(
          base,
          `{ structuredProperty(urn: "urn:li:structuredProperty:io.catalog.hidden_${run}") { urn exists } }`,
        );
        expect(lookup.structuredProperty).toEqual({
          urn: `urn:li:structuredProperty:io.catalog.hidden_${run}`,
          exists: false,
        });
      });

      it('updates: appends allowed values and entity types, sets names, settings and SINGLE→MULTIPLE', async () => {
        const res = await data<{ updateStructuredProperty: Record<string, unknown> }>(base, UPDATE, {
          input: {
            urn: classification,
            displayName: 'Classification',
            description: 'How sensitive',
            newAllowedValues: [{ stringValue: 'secret', description: 'need to know' }],
            newEntityTypes: ['urn:li:entityType:datahub.chart', 'urn:li:entityType:datahub.dashboard'],
            setCardinalityAsMultiple: true,
            settings: { showInAssetSummary: true },
          },
        });
        expect(res.updateStructuredProperty).toEqual({
          urn: classification,
          definition: {
            qualifiedName: `io.catalog.classification_${run}`,
            displayName: 'Classification',
            description: 'How sensitive',
            cardinality: 'MULTIPLE',
            immutable: false,
            allowedValues: [
              { value: { stringValue: 'public' }, description: null },
              { value: { stringValue: 'internal' }, description: 'staff only' },
              { value: { stringValue: 'secret' }, description: 'need to know' },
            ],
            entityTypes: [
              { urn: dataset },
              { urn: 'urn:li:entityType:datahub.chart' },
              { urn: 'urn:li:entityType:datahub.dashboard' },
            ],
            typeQualifier: null,
          },
          settings: {
            isHidden: false,
            showInSearchFilters: false,
            showInAssetSummary: true,
            showAsAssetBadge: false,
            showInColumnsTable: false,
          },
        });
        const qualifier = await data<{
          updateStructuredProperty: { definition: { typeQualifier: unknown } };
        }>(base, UPDATE, {
          input: {
            urn: owner,
            typeQualifier: {
              newAllowedTypes: ['urn:li:entityType:datahub.corpGroup', 'urn:li:entityType:datahub.corpuser'],
            },
          },
        });
        expect(qualifier.updateStructuredProperty.definition.typeQualifier).toEqual({
          allowedTypes: [
            { urn: 'urn:li:entityType:datahub.corpuser' },
            { urn: 'urn:li:entityType:datahub.corpGroup' },
          ],
        });
      });

      it('refuses updates of what has no definition, and hidden settings shown elsewhere', async () => {
        const missing = await failure(base, UPDATE, {
          input: { urn: `urn:li:structuredProperty:nope_${run}`, displayName: 'x' },
        });
        expect(missing).toMatchObject({
          message: 'Attempting to update a structured property with no definition aspect.',
          extensions: { code: 400 },
        });
        const wrongType = await failure(base, UPDATE, { input: { urn: orders, displayName: 'x' } });
        expect(wrongType.message).toContain('must be a structured property urn');
        const hidden = await failure(base, UPDATE, {
          input: { urn: classification, settings: { isHidden: true } },
        });
        expect(hidden.message).toBe(
          'Cannot have property isHidden = true while other display location settings are also true.',
        );
        const ok = await data<{ updateStructuredProperty: { settings: Record<string, boolean> } }>(
          base,
          UPDATE,
          {
            input: { urn: classification, settings: { isHidden: true, showInAssetSummary: false } },
          },
        );
        expect(ok.updateStructuredProperty.settings).toMatchObject({
          isHidden: true,
          showInAssetSummary: false,
        });
      });

      it('looks a property up by structuredProperty(urn) and entity(urn), and finds it by search', async () => {
        const res = await data<{ structuredProperty: unknown; entity: unknown }>(
          base,
          `query($urn: String!) {
            structuredProperty(urn: $urn) { urn type definition { qualifiedName } }
            entity(urn: $urn) { __typename urn ...on StructuredPropertyEntity { definition { displayName } } }
          }`,
          { urn: retention },
        );
        expect(res).toEqual({
          structuredProperty: {
            urn: retention,
            type: 'STRUCTURED_PROPERTY',
            definition: { qualifiedName: retentionName },
          },
          entity: {
            __typename: 'StructuredPropertyEntity',
            urn: retention,
            definition: { displayName: 'Retention' },
          },
        });
        const found = await waitUntil(
          () =>
            data<{
              searchAcrossEntities: { searchResults: { entity: { urn: string; definition?: unknown } }[] };
            }>(
              base,
              `{ searchAcrossEntities(input: {types: [STRUCTURED_PROPERTY], query: "*", count: 100}) {
                searchResults { entity { urn ...on StructuredPropertyEntity { definition { qualifiedName } } } } } }`,
            ),
          (r) => r.searchAcrossEntities.searchResults.some((s) => s.entity.urn === retention),
          30_000,
        );
        expect(found.searchAcrossEntities.searchResults.find((s) => s.entity.urn === retention)).toEqual({
          entity: { urn: retention, definition: { qualifiedName: retentionName } },
        });
      });
    });

    describe('values', () => {
      it('upserts values on a dataset and answers its StructuredProperties', async () => {
        const res = await upsert(orders, [
          { structuredPropertyUrn: retention, values: [{ numberValue: 30 }] },
          {
            structuredPropertyUrn: classification,
            values: [{ stringValue: 'public' }, { stringValue: 'internal' }],
          },
        ]);
        expect(res.errors).toBeUndefined();
        const entries = (res.data!['upsertStructuredProperties'] as { properties: Entry[] }).properties;
        expect(byUrn(entries)).toEqual({
          [retention]: [{ numberValue: 30 }],
          [classification]: [{ stringValue: 'public' }, { stringValue: 'internal' }],
        });
        expect(entries.every((e) => e.associatedUrn === orders)).toBe(true);
      });

      it('replaces only the listed properties and keeps the others', async () => {
        const res = await upsert(orders, [
          { structuredPropertyUrn: retention, values: [{ numberValue: 90 }] },
        ]);
        expect(res.errors).toBeUndefined();
        expect(byUrn(await datasetValues())).toEqual({
          [retention]: [{ numberValue: 90 }],
          [classification]: [{ stringValue: 'public' }, { stringValue: 'internal' }],
        });
      });

      it('keeps both of two concurrent upserts of different properties (patches, not read-then-write)', async () => {
        const results = await Promise.all([
          upsert(customers, [{ structuredPropertyUrn: retention, values: [{ numberValue: 30 }] }]),
          upsert(customers, [{ structuredPropertyUrn: classification, values: [{ stringValue: 'secret' }] }]),
          upsert(customers, [{ structuredPropertyUrn: owner, values: [{ stringValue: steward }] }]),
        ]);
        for (const r of results) expect(r.errors).toBeUndefined();
        expect(byUrn(await datasetValues(customers))).toEqual({
          [retention]: [{ numberValue: 30 }],
          [classification]: [{ stringValue: 'secret' }],
          [owner]: [{ stringValue: steward }],
        });
      });

      it('shows the read form of spec 2.7 on the dataset, with the entities urn values name', async () => {
        await upsert(orders, [{ structuredPropertyUrn: owner, values: [{ stringValue: steward }] }]);
        const res = await data<{
          dataset: { structuredProperties: { properties: Record<string, unknown>[] } };
        }>(base, `query($urn: String!) { dataset(urn: $urn) { ${READ_FORM} } }`, { urn: orders });
        const entries = res.dataset.structuredProperties.properties;
        const ofUrn = (urn: string) =>
          entries.find((e) => (e['structuredProperty'] as { urn: string }).urn === urn) as Record<
            string,
            unknown
          >;
        expect(ofUrn(retention)).toEqual({
          structuredProperty: {
            urn: retention,
            type: 'STRUCTURED_PROPERTY',
            exists: true,
            definition: {
              qualifiedName: retentionName,
              displayName: 'Retention',
              description: 'Days to keep',
              cardinality: 'SINGLE',
              immutable: false,
              valueType: {
                urn: 'urn:li:dataType:datahub.number',
                type: 'DATA_TYPE',
                info: { type: 'NUMBER', qualifiedName: 'datahub.number', displayName: 'Number' },
              },
              entityTypes: [
                {
                  urn: dataset,
                  type: 'ENTITY_TYPE',
                  info: { type: 'DATASET', qualifiedName: 'datahub.dataset' },
                },
              ],
              allowedValues: [
                { value: { __typename: 'NumberValue', numberValue: 30 }, description: 'a month' },
                { value: { __typename: 'NumberValue', numberValue: 90 }, description: 'a quarter' },
              ],
            },
            settings: {
              isHidden: false,
              showInSearchFilters: true,
              showInAssetSummary: false,
              showAsAssetBadge: false,
              showInColumnsTable: false,
            },
          },
          values: [{ __typename: 'NumberValue', numberValue: 90 }],
          valueEntities: [],
          associatedUrn: orders,
        });
        expect(ofUrn(owner)).toMatchObject({
          values: [{ __typename: 'StringValue', stringValue: steward }],
          valueEntities: [{ urn: steward, type: 'CORP_USER' }],
        });
      });

      it('reads definitions of many values in one batched store call per level', async () => {
        const res = await graphql(
          base,
          `query($a: String!, $b: String!) {
            a: dataset(urn: $a) { ${READ_FORM} }
            b: dataset(urn: $b) { ${READ_FORM} }
          }`,
          { a: orders, b: customers },
          { headers: { ...SYSTEM_AUTH_HEADERS, 'x-catalog-store-calls': 'true' } },
        );
        expect(res.errors).toBeUndefined();
        // datasets; their properties; the properties' data and entity types (one batch per tick).
        expect(res.extensions?.['storeCalls']).toBeLessThanOrEqual(4);
      });

      it('upserts values on a chart and on a schema field, read through the field entity', async () => {
        const chartRes = await upsert(chart, [
          { structuredPropertyUrn: classification, values: [{ stringValue: 'internal' }] },
        ]);
        expect(chartRes.errors).toBeUndefined();
        const field = `urn:li:schemaField:(${orders},id)`;
        const fieldRes = await upsert(field, [
          { structuredPropertyUrn: owner, values: [{ stringValue: steward }] },
        ]);
        expect(fieldRes.errors).toBeUndefined();
        const read = await data<{
          chart: { structuredProperties: { properties: Entry[] } };
          dataset: {
            schemaMetadata: {
              fields: {
                fieldPath: string;
                schemaFieldEntity: { urn: string; structuredProperties: { properties: Entry[] } };
              }[];
            };
          };
          schemaField: { structuredProperties: { properties: Entry[] } };
        }>(
          base,
          `query($chart: String!, $orders: String!, $field: String!) {
            chart(urn: $chart) { ${VALUES} }
            dataset(urn: $orders) { schemaMetadata { fields { fieldPath schemaFieldEntity { urn ${VALUES} } } } }
            schemaField(urn: $field) { ${VALUES} }
          }`,
          { chart, orders, field },
        );
        expect(byUrn(read.chart.structuredProperties.properties)).toEqual({
          [classification]: [{ stringValue: 'internal' }],
        });
        const [idField] = read.dataset.schemaMetadata.fields;
        expect(idField!.schemaFieldEntity.urn).toBe(field);
        expect(byUrn(idField!.schemaFieldEntity.structuredProperties.properties)).toEqual({
          [owner]: [{ stringValue: steward }],
        });
        expect(read.schemaField.structuredProperties.properties[0]!.associatedUrn).toBe(field);
      });

      it('refuses values on an asset that does not exist, and values with neither or both members', async () => {
        const missing = datasetUrn(`sp_${run}.missing`, 'postgres');
        const res = await upsert(missing, [
          { structuredPropertyUrn: retention, values: [{ numberValue: 30 }] },
        ]);
        expect(res.errors?.[0]).toMatchObject({
          message: `Asset with provided urn ${missing} does not exist`,
          extensions: { code: 400 },
        });
        expect(res.data).toBeNull();
        const both = await upsert(orders, [
          { structuredPropertyUrn: retention, values: [{ numberValue: 30, stringValue: '30' }] },
        ]);
        expect(both.errors?.[0]?.message).toBe(
          'Each value must provide exactly one of stringValue or numberValue.',
        );
        const notAProperty = await upsert(orders, [{ structuredPropertyUrn: orders, values: [] }]);
        expect(notAProperty.errors?.[0]?.message).toContain('must be a structured property urn');
        const removeMissing = await graphql(base, REMOVE, {
          input: { assetUrn: missing, structuredPropertyUrns: [retention] },
        });
        expect(removeMissing.errors?.[0]?.message).toBe(`Asset with provided urn ${missing} does not exist`);
      });

      it('removes listed properties and keeps the others', async () => {
        const res = await data<{ removeStructuredProperties: { properties: Entry[] } }>(base, REMOVE, {
          input: { assetUrn: orders, structuredPropertyUrns: [classification] },
        });
        expect(byUrn(res.removeStructuredProperties.properties)).toEqual({
          [retention]: [{ numberValue: 90 }],
          [owner]: [{ stringValue: steward }],
        });
        expect(Object.keys(byUrn(await datasetValues())).sort()).toEqual([owner, retention].sort());
      });
    });

    describe('lifecycle (3.2)', () => {
      it('leaves values of a soft-deleted property out of reads, and shows them again once restored', async () => {
        await mustWrite(base, [status(retention, true)]);
        expect(Object.keys(byUrn(await datasetValues()))).toEqual([owner]);
        const removed = await data<{ upsertStructuredProperties: { properties: Entry[] } }>(base, UPSERT, {
          input: {
            assetUrn: customers,
            structuredPropertyInputParams: [
              { structuredPropertyUrn: owner, values: [{ stringValue: steward }] },
            ],
          },
        });
        expect(Object.keys(byUrn(removed.upsertStructuredProperties.properties)).sort()).toEqual(
          [classification, owner].sort(),
        );
        // The property itself is still there, soft-deleted.
        const property = await data<{ structuredProperty: { status: { removed: boolean } } }>(
          base,
          `query($urn: String!) { structuredProperty(urn: $urn) { status { removed } } }`,
          { urn: retention },
        );
        expect(property.structuredProperty.status.removed).toBe(true);
        await mustWrite(base, [status(retention, false)]);
        expect(byUrn(await datasetValues())).toEqual({
          [retention]: [{ numberValue: 90 }],
          [owner]: [{ stringValue: steward }],
        });
      });

      it('refuses to hard delete an active property, explaining what a hard delete does', async () => {
        const refused = await failure(base, DELETE, { urn: retention });
        expect(refused).toMatchObject({ path: ['deleteStructuredProperty'], extensions: { code: 400 } });
        expect(refused.message).toContain('Cannot hard delete the active Structured Property');
        expect(refused.message).toContain('Soft delete it first');
        expect(byUrn(await datasetValues())[retention]).toEqual([{ numberValue: 90 }]);
      });

      it('hard deletes a soft-deleted property; deleting it again succeeds', async () => {
        await data(base, CREATE, {
          input: {
            qualifiedName: `io.catalog.retired_${run}`,
            valueType: 'urn:li:dataType:datahub.string',
            entityTypes: [dataset],
            settings: { showInSearchFilters: true },
          },
        });
        await mustWrite(base, [status(retired, true)]);
        expect(await data(base, DELETE, { urn: retired })).toEqual({ deleteStructuredProperty: true });
        const gone = await data<{ structuredProperty: unknown; entityExists: boolean }>(
          base,
          `query($urn: String!) { structuredProperty(urn: $urn) { urn exists } entityExists(urn: $urn) }`,
          { urn: retired },
        );
        expect(gone).toEqual({ structuredProperty: { urn: retired, exists: false }, entityExists: false });
        expect(await data(base, DELETE, { urn: retired })).toEqual({ deleteStructuredProperty: true });
      });
    });

    /**
     * What the write path refuses (persistence-side validation of definitions and values); the mutations
     * only map its errors. Each case has entities of its own, so the cases above do not depend on these.
     */
    describe('refusals of the write path', () => {
      const tiers = `urn:li:structuredProperty:io.catalog.tiers_${run}`;
      const frozen = `urn:li:structuredProperty:io.catalog.frozen_${run}`;
      const checked = datasetUrn(`sp_${run}.checked`, 'postgres');

      beforeAll(async () => {
        await mustWrite(base, [proposal(checked, 'datasetProperties', { name: 'checked' })]);
        for (const [name, cardinality] of [
          [`io.catalog.tiers_${run}`, 'MULTIPLE'],
          [`io.catalog.frozen_${run}`, 'SINGLE'],
        ] as const)
          await data(base, CREATE, {
            input: {
              qualifiedName: name,
              valueType: 'urn:li:dataType:datahub.string',
              cardinality,
              entityTypes: [dataset],
              allowedValues: [{ stringValue: 'gold' }, { stringValue: 'silver' }],
            },
          });
        await upsert(checked, [{ structuredPropertyUrn: tiers, values: [{ stringValue: 'gold' }] }]);
      });

      it('never goes MULTIPLE→SINGLE: the mutation cannot ask it, and the write path refuses it (3.3)', async () => {
        const res = await data<{ updateStructuredProperty: { definition: { cardinality: string } } }>(
          base,
          UPDATE,
          {
            input: { urn: tiers, setCardinalityAsMultiple: false },
          },
        );
        expect(res.updateStructuredProperty.definition.cardinality).toBe('MULTIPLE');
        const refused = await write(base, [
          proposal(tiers, 'propertyDefinition', {
            qualifiedName: `io.catalog.tiers_${run}`,
            valueType: 'urn:li:dataType:datahub.string',
            cardinality: 'SINGLE',
            entityTypes: [dataset],
            allowedValues: [{ value: { string: 'gold' } }, { value: { string: 'silver' } }],
          }),
        ]);
        expect(refused.status).toBeGreaterThanOrEqual(400);
        const after = await data<{ structuredProperty: { definition: { cardinality: string } } }>(
          base,
          `query($urn: String!) { structuredProperty(urn: $urn) { definition { cardinality } } }`,
          { urn: tiers },
        );
        expect(after.structuredProperty.definition.cardinality).toBe('MULTIPLE');
      });

      it('refuses values outside the allowed ones, and more than one of a SINGLE property', async () => {
        const outside = await upsert(checked, [
          { structuredPropertyUrn: frozen, values: [{ stringValue: 'bronze' }] },
        ]);
        expect(outside.errors?.[0]?.message).toContain('should be one of [');
        expect(outside.errors?.[0]?.extensions?.['code']).toBe(400);
        const tooMany = await upsert(checked, [
          { structuredPropertyUrn: frozen, values: [{ stringValue: 'gold' }, { stringValue: 'silver' }] },
        ]);
        expect(tooMany.errors?.[0]?.extensions?.['code']).toBe(400);
        expect(byUrn(await datasetValues(checked))).toEqual({ [tiers]: [{ stringValue: 'gold' }] });
      });

      it('denies definition updates and new values of a soft-deleted property', async () => {
        await mustWrite(base, [status(frozen, true)]);
        const update = await failure(base, UPDATE, { input: { urn: frozen, displayName: 'changed' } });
        expect(update.message).toContain('Cannot mutate a soft deleted Structured Property Definition');
        const value = await upsert(checked, [
          { structuredPropertyUrn: frozen, values: [{ stringValue: 'gold' }] },
        ]);
        expect(value.errors?.[0]?.message).toContain('Cannot apply a soft deleted Structured Property value');
        await mustWrite(base, [status(frozen, false)]);
        expect(byUrn(await datasetValues(checked))).toEqual({ [tiers]: [{ stringValue: 'gold' }] });
      });
    });
  });
}
