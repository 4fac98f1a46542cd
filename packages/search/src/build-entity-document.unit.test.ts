import { entityRegistry } from '@catalog/model';
import { describe, expect, it } from 'vitest';
import { buildEntityDocument } from './build-entity-document.js';
import { browseEntityName, defaultBrowsePath } from './default-browse-path.js';

const dataset = entityRegistry.requireEntity('dataset');
const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.sales.orders,PROD)';
const build = (aspects: Record<string, Record<string, unknown>>, entity = dataset, of = urn) =>
  buildEntityDocument(entity, of, new Map(Object.entries(aspects)));

describe('buildEntityDocument', () => {
  it('walks every annotated path of a full dataset', () => {
    const doc = build({
      datasetProperties: {
        name: 'orders',
        description: 'All orders',
        customProperties: { team: 'sales', tier: 'gold' },
        created: { time: 1_700_000_000_000 },
      },
      globalTags: { tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:gold' }] },
      ownership: { owners: [{ owner: 'urn:li:corpuser:alice', type: 'DATAOWNER' }] },
      glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:Revenue' }] },
      status: { removed: true },
      browsePaths: { paths: ['/prod/hive/sales/orders', 'custom/path/orders/'] },
      schemaMetadata: {
        fields: [
          { fieldPath: 'id', description: 'key', globalTags: { tags: [{ tag: 'urn:li:tag:key' }] } },
          { fieldPath: 'amount' },
        ],
      },
      upstreamLineage: { upstreams: [{ dataset: 'urn:li:dataset:(urn:li:dataPlatform:hive,raw,PROD)' }] },
    });
    expect(doc).toMatchObject({ urn, entityType: 'dataset' });
    expect(doc.fields).toMatchObject({
      urn,
      _entityType: 'dataset',
      removed: true,
      platform: 'urn:li:dataPlatform:hive',
      id: 'db.sales.orders',
      origin: 'PROD',
      name: 'orders',
      description: 'All orders',
      hasDescription: true,
      customProperties: ['team=sales', 'tier=gold'],
      createdAt: 1_700_000_000_000,
      tags: ['urn:li:tag:pii', 'urn:li:tag:gold'],
      hasTags: true,
      owners: ['urn:li:corpuser:alice'],
      hasOwners: true,
      glossaryTerms: ['urn:li:glossaryTerm:Revenue'],
      browsePaths: ['/prod/hive/sales/orders', '/custom/path/orders'],
      fieldPaths: ['id', 'amount'],
      fieldDescriptions: ['key'],
      fieldTags: ['urn:li:tag:key'],
      upstreams: ['urn:li:dataset:(urn:li:dataPlatform:hive,raw,PROD)'],
      hasUpstreams: true,
    });
    expect(doc.fields['_entityName']).toBeUndefined();
  });

  it('sets hasX false, removed false and a default browse path when aspects are absent', () => {
    const doc = build({});
    expect(doc.fields).toMatchObject({
      removed: false,
      hasDescription: false,
      hasTags: false,
      hasOwners: false,
      id: 'db.sales.orders',
      browsePaths: ['/prod/hive/db/sales'],
    });
    expect(doc.fields['description']).toBeUndefined();
    expect(doc.fields['tags']).toBeUndefined();
    expect(build({ status: { removed: false } }).fields['removed']).toBe(false);
  });

  it('counts values for numX fields and keeps union-keyed chart inputs out of the document', () => {
    const job = build(
      {
        dataJobInputOutput: {
          inputDatasets: ['urn:li:dataset:a', 'urn:li:dataset:b'],
          outputDatasets: ['urn:li:dataset:c'],
        },
      },
      entityRegistry.requireEntity('dataJob'),
      'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,prod),load)',
    );
    expect(job.fields).toMatchObject({
      inputs: ['urn:li:dataset:a', 'urn:li:dataset:b'],
      numInputDatasets: 2,
      outputs: ['urn:li:dataset:c'],
      numOutputDatasets: 1,
    });
    const chart = build(
      { chartInfo: { title: 'Revenue', inputs: [{ string: 'urn:li:dataset:a' }] } },
      entityRegistry.requireEntity('chart'),
      'urn:li:chart:(looker,c1)',
    );
    expect(chart.fields).toMatchObject({ title: 'Revenue', tool: 'looker', browsePaths: ['/looker'] });
    expect(chart.fields['inputs']).toBeUndefined();
  });

  it('indexes corpuser info and dataJob key fields', () => {
    const user = build(
      { corpUserInfo: { active: true, displayName: 'Alice A', email: 'a@x.io' } },
      entityRegistry.requireEntity('corpuser'),
      'urn:li:corpuser:alice',
    );
    expect(user.fields).toMatchObject({
      ldap: 'alice',
      active: true,
      displayName: 'Alice A',
      email: 'a@x.io',
    });
    const job = build(
      {},
      entityRegistry.requireEntity('dataJob'),
      'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,prod),load)',
    );
    expect(job.fields).toMatchObject({ dataFlow: 'urn:li:dataFlow:(airflow,etl,prod)', jobId: 'load' });
    expect(job.fields['browsePaths']).toEqual(['/airflow/prod']);
  });
});

describe('defaultBrowsePath', () => {
  it('derives the folder an entity is listed in from its URN, as the ecosystem does', () => {
    expect(defaultBrowsePath('urn:li:dataset:(urn:li:dataPlatform:hive,sales.orders,PROD)')).toBe(
      '/prod/hive/sales',
    );
    expect(defaultBrowsePath('urn:li:dataset:(urn:li:dataPlatform:kafka,topic,DEV)')).toBe('/dev/kafka');
    expect(defaultBrowsePath('urn:li:dataset:(urn:li:dataPlatform:Hive,DB.Sales.Orders,PROD)')).toBe(
      '/prod/hive/db/sales',
    );
    expect(defaultBrowsePath('urn:li:chart:(Looker,c1)')).toBe('/Looker');
    expect(defaultBrowsePath('urn:li:dashboard:(Looker,d1)')).toBe('/looker');
    expect(defaultBrowsePath('urn:li:dataFlow:(Airflow,etl,PROD)')).toBe('/airflow/prod');
    expect(defaultBrowsePath('urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,prod),load)')).toBe(
      '/airflow/prod',
    );
    expect(defaultBrowsePath('urn:li:corpuser:alice')).toBeUndefined();
    expect(defaultBrowsePath('not a urn')).toBeUndefined();
  });
});

describe('browseEntityName', () => {
  it("lists an entity under its document name, else its URN's name", () => {
    expect(browseEntityName('urn:li:dataset:(urn:li:dataPlatform:hive,sales.orders,PROD)', 'Orders')).toBe(
      'Orders',
    );
    expect(browseEntityName('urn:li:dataset:(urn:li:dataPlatform:hive,sales.orders,PROD)', undefined)).toBe(
      'sales.orders',
    );
    expect(browseEntityName('urn:li:chart:(looker,c1)', '')).toBe('c1');
  });

  it('indexes structured property values under their definitions, with the assigned property urns', () => {
    const score = {
      urn: 'urn:li:structuredProperty:io.x.score',
      qualifiedName: 'io.x.score',
      valueType: 'number' as const,
      removed: false,
    };
    const aspects = new Map(
      Object.entries({
        structuredProperties: {
          properties: [
            { propertyUrn: score.urn, values: [{ double: 42 }] },
            { propertyUrn: 'urn:li:structuredProperty:orphan', values: [{ string: 'a' }] },
          ],
        },
      }),
    );
    const doc = buildEntityDocument(dataset, urn, aspects, {
      structuredProperties: {
        definitions: new Map([[score.urn, score]]),
        writtenAt: 0,
        limits: { keywordMaxLength: 32_766, dropOversizedKeywordValuesFromIndex: false },
      },
    });
    expect(doc.fields['structuredPropertyUrns']).toEqual([score.urn, 'urn:li:structuredProperty:orphan']);
    expect(doc.fields['structuredProperties.io_x_score']).toEqual([42]);
    expect(
      buildEntityDocument(dataset, urn, aspects).fields['structuredProperties.io_x_score'],
    ).toBeUndefined();
  });
});

describe('search documents of entities with restricted aspects', () => {
  /** Values of every restricted aspect, each string and time a marker the document must not hold. */
  const RESTRICTED_VALUES: Record<string, { entity: string; urn: string; value: Record<string, unknown> }> = {
    corpUserCredentials: {
      entity: 'corpuser',
      urn: 'urn:li:corpuser:jdoe',
      value: { salt: 'MARK-salt', hashedPassword: 'MARK-hash', passwordResetToken: 'MARK-reset' },
    },
    dataHubSecretValue: {
      entity: 'dataHubSecret',
      urn: 'urn:li:dataHubSecret:db_password',
      value: {
        name: 'MARK-name',
        value: 'MARK-value',
        description: 'MARK-description',
        created: { time: 4242 },
      },
    },
    inviteToken: {
      entity: 'inviteToken',
      urn: 'urn:li:inviteToken:abc',
      value: { token: 'MARK-token', role: 'urn:li:dataHubRole:MARK-role' },
    },
    dataHubConnectionDetails: {
      entity: 'dataHubConnection',
      urn: 'urn:li:dataHubConnection:warehouse',
      value: { type: 'JSON', name: 'MARK-connection', json: { encryptedBlob: 'MARK-blob' } },
    },
    webhookSecret: {
      entity: 'webhook',
      urn: 'urn:li:webhook:alerts',
      value: { value: 'MARK-encrypted-key', format: 'RAW' },
    },
  };

  it('covers every restricted aspect of the registry', () => {
    const restricted = entityRegistry
      .entities()
      .flatMap((e) => [...e.aspects.values()].filter((a) => a.restricted).map((a) => a.name));
    expect(new Set(restricted)).toEqual(new Set(Object.keys(RESTRICTED_VALUES)));
  });

  it.each(Object.entries(RESTRICTED_VALUES))(
    'copies nothing of %s into the document, though its schema marks fields searchable',
    (aspect, { entity, urn: of, value }) => {
      const doc = build({ [aspect]: value }, entityRegistry.requireEntity(entity), of);
      const text = JSON.stringify(doc);
      expect(text).not.toContain('MARK');
      expect(text).not.toContain('4242');
      expect(doc.fields).toMatchObject({ urn: of, _entityType: entity });
    },
  );
});
