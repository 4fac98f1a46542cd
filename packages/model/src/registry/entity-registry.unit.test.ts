import type { Type, types } from 'avsc';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { UrnType } from '../schemas/urn-type.js';
import { formatUrn, parseUrn } from '../urn.js';
import { entityRegistry } from './entity-registry.js';
import { CATALOG_REGISTRY_DATA } from './catalog-registry-data.js';
import { RESTRICTED_ASPECTS } from './restricted-aspects.js';

/** Hand-written URNs of the common shapes, as the ecosystem's SDK formats them. */
const SAMPLE_URNS: Record<string, string> = {
  dataset: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD)',
  chart: 'urn:li:chart:(looker,baz1)',
  dashboard: 'urn:li:dashboard:(looker,baz)',
  corpuser: 'urn:li:corpuser:jdoe',
  corpGroup: 'urn:li:corpGroup:bfoo',
  tag: 'urn:li:tag:pii',
  glossaryTerm: 'urn:li:glossaryTerm:Finance.Revenue',
  dataFlow: 'urn:li:dataFlow:(airflow,dag_abc,PROD)',
  dataJob: 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_123)',
  schemaField: 'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD),a.b)',
  structuredProperty: 'urn:li:structuredProperty:io.acryl.privacy.retentionTime',
  dataPlatformInstance: 'urn:li:dataPlatformInstance:(urn:li:dataPlatform:hive,warehouse)',
  mlModel: 'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)',
  mlFeatureTable: 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)',
  dataProcessInstance: 'urn:li:dataProcessInstance:0f9a8c',
  container: 'urn:li:container:0123456789abcdef',
  dataHubRetention: 'urn:li:dataHubRetention:(dataset,datasetProperties)',
  dataHubExecutionRequest: 'urn:li:dataHubExecutionRequest:file-2026_11_25-01_02_03-abc',
};

/**
 * A URN for every entity of the registry, made from its key schema: URN parts get a URN of the entity
 * type the part requires, enum parts their first symbol, strings a name of their own.
 */
function sampleUrnFor(entity: string): string {
  const spec = entityRegistry.requireEntity(entity);
  const fields = (spec.aspects.get(spec.keyAspect)?.schema as types.RecordType).fields;
  const parts = fields.map((field) => {
    const type = field.type as Type & { entityTypes?: readonly string[]; types?: readonly Type[] };
    const inner = type.typeName.startsWith('union')
      ? (type.types?.find((t) => t.typeName !== 'null') as typeof type)
      : type;
    if (inner instanceof UrnType) {
      const target = inner.entityTypes?.[0];
      return target === undefined || target === entity ? 'urn:li:corpuser:someone' : sampleUrnFor(target);
    }
    if (inner.typeName === 'enum') return (inner as unknown as types.EnumType).symbols[0] ?? '';
    return `${field.name}_1`;
  });
  return formatUrn(entity, parts);
}

describe('entityRegistry', () => {
  it("holds the pinned ecosystem registry (72 entities, 271 aspects) and the catalog's own entities", () => {
    const entities = entityRegistry.entities();
    expect(entities).toHaveLength(72 + CATALOG_REGISTRY_DATA.entities.length);
    const aspects = new Set(entities.flatMap((e) => [...e.aspects.keys()]));
    expect(aspects.size).toBeGreaterThan(250);
    for (const name of Object.keys(SAMPLE_URNS)) expect(entityRegistry.getEntity(name), name).toBeDefined();
  });

  it("registers the catalog's own webhook entity: its key round-trips, its secret is a restricted aspect", () => {
    const webhook = entityRegistry.requireEntity('webhook');
    expect([...webhook.aspects.keys()]).toEqual([
      'webhookKey',
      'webhookInfo',
      'webhookSecret',
      'webhookDeliveryState',
      'webhookReplay',
    ]);
    expect(webhook.aspects.get('webhookSecret')?.restricted).toBe(true);
    expect(webhook.aspects.get('webhookInfo')?.restricted).toBe(false);
    const key = entityRegistry.keyAspectFromUrn(parseUrn('urn:li:webhook:abc-123'));
    expect(key).toEqual({ name: 'webhookKey', value: { id: 'abc-123' } });
    expect(entityRegistry.urnFromKeyAspect('webhook', key.value)).toBe('urn:li:webhook:abc-123');
  });

  it.each(Object.entries(SAMPLE_URNS))('%s: urn → key → urn round-trips the ecosystem form', (name, raw) => {
    const entity = entityRegistry.requireEntity(name);
    expect(entity.aspects.get(entity.keyAspect)?.isKey).toBe(true);
    const derived = entityRegistry.keyAspectFromUrn(parseUrn(raw));
    expect(derived.name).toBe(entity.keyAspect);
    expect(entityRegistry.urnFromKeyAspect(name, derived.value)).toBe(raw);
  });

  it("carries each aspect's schema version from its @Aspect annotation, 1 when it names none", () => {
    expect(entityRegistry.getAspect('dataset', 'upstreamLineage')?.schemaVersion).toBe(2);
    expect(entityRegistry.getAspect('assertion', 'assertionInfo')?.schemaVersion).toBe(7);
    expect(entityRegistry.getAspect('dataset', 'datasetProperties')?.schemaVersion).toBe(1);
    expect(entityRegistry.getAspect('dataset', 'datasetKey')?.schemaVersion).toBe(1);
  });

  it('derives every entity key from its urn and back', () => {
    for (const entity of entityRegistry.entities()) {
      const raw = sampleUrnFor(entity.name);
      const derived = entityRegistry.keyAspectFromUrn(parseUrn(raw));
      expect(derived.name, raw).toBe(entity.keyAspect);
      expect(entityRegistry.urnFromKeyAspect(entity.name, derived.value), raw).toBe(raw);
    }
  });

  it('derives the ecosystem key fields', () => {
    expect(entityRegistry.keyAspectFromUrn(parseUrn(SAMPLE_URNS['dataset'] ?? '')).value).toEqual({
      platform: 'urn:li:dataPlatform:hive',
      name: 'db.table',
      origin: 'PROD',
    });
    expect(entityRegistry.keyAspectFromUrn(parseUrn('urn:li:chart:(looker,1)')).value).toEqual({
      dashboardTool: 'looker',
      chartId: '1',
    });
    expect(entityRegistry.keyAspectFromUrn(parseUrn(SAMPLE_URNS['dataJob'] ?? '')).value).toEqual({
      flow: 'urn:li:dataFlow:(airflow,dag_abc,PROD)',
      jobId: 'task_123',
    });
    expect(entityRegistry.keyAspectFromUrn(parseUrn(SAMPLE_URNS['schemaField'] ?? '')).value).toEqual({
      parent: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)',
      fieldPath: 'a.b',
    });
    expect(entityRegistry.keyAspectFromUrn(parseUrn('urn:li:corpuser:jdoe')).value).toEqual({
      username: 'jdoe',
    });
  });

  it.each([
    ['urn:li:dataset:(urn:li:dataPlatform:hive,db.t)', 'expected 3 id part(s)'],
    ['urn:li:dataset:db.t', 'expected 3 id part(s)'],
    ['urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PRODUCTION)', '"PRODUCTION" is not one of'],
    ['urn:li:dataset:(hive,db.t,PROD)', 'platform: not a valid urn'],
    ['urn:li:dataset:(urn:li:corpuser:hive,db.t,PROD)', 'expected a dataPlatform urn'],
    ['urn:li:dataJob:(urn:li:dataset:(urn:li:dataPlatform:x,y,PROD),t)', 'expected a dataFlow urn'],
    ['urn:li:corpuser:(a,b)', 'expected 1 id part(s)'],
    ['urn:li:nosuchthing:x', 'Unknown entity type: nosuchthing'],
  ])('refuses %s when its parts do not fit the key', (raw, message) => {
    expect(() => entityRegistry.keyAspectFromUrn(parseUrn(raw))).toThrow(ValidationError);
    expect(() => entityRegistry.keyAspectFromUrn(parseUrn(raw))).toThrow(message);
  });

  it('refuses a key value that does not fit the key schema', () => {
    expect(() =>
      entityRegistry.urnFromKeyAspect('dataset', { platform: 'hive', name: 'x', origin: 'PROD' }),
    ).toThrow(ValidationError);
    expect(() => entityRegistry.urnFromKeyAspect('chart', { dashboardTool: 'looker' })).toThrow('chartId');
  });

  it('requireEntity throws a ValidationError naming the unknown type', () => {
    expect(() => entityRegistry.requireEntity('x')).toThrow(new ValidationError('Unknown entity type: x'));
    expect(entityRegistry.getEntity('x')).toBeUndefined();
  });

  it('every aspect spec has a com.linkedin record schema whose name is its recordName', () => {
    for (const entity of entityRegistry.entities()) {
      for (const spec of entity.aspects.values()) {
        // The catalog's own entities' records are in a namespace of their own.
        expect(spec.recordName).toMatch(/^(com\.linkedin|io\.catalog)\.[a-z.]+\.[A-Z][A-Za-z0-9]+$/);
        expect(spec.schema.typeName).toBe('record');
        expect(spec.schema.name).toBe(spec.recordName);
        expect(entityRegistry.aspectByRecordName(spec.recordName)).toBe(spec);
      }
    }
  });

  it('searchable and relationship paths name fields that exist in the schema', () => {
    for (const entity of entityRegistry.entities()) {
      for (const spec of entity.aspects.values()) {
        const fields = new Set((spec.schema as types.RecordType).fields.map((f) => f.name));
        for (const path of [...spec.searchable, ...spec.relationships].map((a) => a.path)) {
          expect(fields, `${spec.name}: ${path}`).toContain(path.split('/')[0]);
        }
      }
    }
  });

  it('marks the time-series aspects', () => {
    const timeseries = [
      'datasetProfile',
      'datasetUsageStatistics',
      'operation',
      'chartUsageStatistics',
      'dashboardUsageStatistics',
    ];
    for (const name of timeseries) {
      const spec = entityRegistry
        .entities()
        .flatMap((e) => [...e.aspects.values()])
        .find((a) => a.name === name);
      expect(spec?.kind, name).toBe('timeseries');
    }
    expect(entityRegistry.getAspect('dataset', 'ownership')?.kind).toBe('versioned');
  });

  it('carries the ecosystem search annotations and relationships', () => {
    const key = entityRegistry.getAspect('dataset', 'datasetKey');
    expect(key?.searchable.find((s) => s.path === 'name')).toMatchObject({
      fieldName: 'id',
      type: 'WORD_GRAM',
      boost: 10,
    });
    expect(key?.searchable.find((s) => s.path === 'origin')).toMatchObject({ filterName: 'Environment' });
    const props = entityRegistry.getAspect('dataset', 'datasetProperties');
    expect(props?.searchable.find((s) => s.fieldName === 'name')).toMatchObject({
      fieldNameAliases: ['_entityName'],
    });
    expect(props?.searchable.find((s) => s.fieldName === 'description')).toMatchObject({
      hasValuesFieldName: 'hasDescription',
    });
    expect(entityRegistry.getAspect('dataset', 'ownership')?.relationships).toContainEqual({
      name: 'OwnedBy',
      path: 'owners/*/owner',
      entityTypes: ['corpuser', 'corpGroup'],
    });
    expect(entityRegistry.getAspect('dataJob', 'dataJobKey')?.relationships[0]).toMatchObject({
      name: 'IsPartOf',
    });
    expect(entityRegistry.getAspect('corpuser', 'groupMembership')?.relationships[0]?.name).toBe(
      'IsMemberOfGroup',
    );
    expect(entityRegistry.getAspect('corpuser', 'corpUserKey')?.searchable[0]?.fieldName).toBe('ldap');
  });

  it('names the legacy snapshot records', () => {
    expect(entityRegistry.getEntity('dataset')?.snapshotName).toBe(
      'com.linkedin.metadata.snapshot.DatasetSnapshot',
    );
    expect(entityRegistry.getEntity('corpuser')?.snapshotName).toBe(
      'com.linkedin.metadata.snapshot.CorpUserSnapshot',
    );
    expect(entityRegistry.getEntity('structuredProperty')?.snapshotName).toBeUndefined();
  });

  it('shares one definition of common records across aspects', () => {
    const fieldType = (aspect: string, field: string) =>
      (entityRegistry.getAspect('dataset', aspect)?.schema as types.RecordType).field(field).type;
    expect(fieldType('ownership', 'lastModified')).toBe(fieldType('editableDatasetProperties', 'created'));
  });
});

describe('restricted aspects', () => {
  it('names only aspects the registry has, and marks exactly those', () => {
    const everyAspect = new Map(
      entityRegistry.entities().flatMap((entity) => [...entity.aspects.values()].map((a) => [a.name, a])),
    );
    for (const name of RESTRICTED_ASPECTS) expect(everyAspect.get(name)?.restricted, name).toBe(true);
    const marked = [...everyAspect.values()].filter((a) => a.restricted).map((a) => a.name);
    expect(marked.sort()).toEqual([...RESTRICTED_ASPECTS].sort());
  });

  it('restricts the password credentials of native users', () => {
    expect(entityRegistry.getAspect('corpuser', 'corpUserCredentials')?.restricted).toBe(true);
    expect(entityRegistry.getAspect('corpuser', 'corpUserInfo')?.restricted).toBe(false);
  });
});
