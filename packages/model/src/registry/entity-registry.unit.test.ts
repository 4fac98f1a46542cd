import type { types } from 'avsc';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { parseUrn } from '../urn.js';
import { entityRegistry } from './entity-registry.js';

/** One sample URN per entity; the test below fails when an entity has none. */
const SAMPLE_URNS: Record<string, string> = {
  dataset: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD)',
  chart: 'urn:li:chart:(looker,baz1)',
  dashboard: 'urn:li:dashboard:(looker,baz)',
  corpuser: 'urn:li:corpuser:jdoe',
  corpGroup: 'urn:li:corpGroup:bfoo',
  tag: 'urn:li:tag:pii',
  glossaryTerm: 'urn:li:glossaryTerm:Finance.Revenue',
  glossaryNode: 'urn:li:glossaryNode:Finance',
  dataFlow: 'urn:li:dataFlow:(airflow,dag_abc,PROD)',
  dataJob: 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_123)',
  schemaField: 'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD),a.b)',
  structuredProperty: 'urn:li:structuredProperty:io.acryl.privacy.retentionTime',
  dataPlatform: 'urn:li:dataPlatform:hive',
  test: 'urn:li:test:my-test',
  dataHubPolicy: 'urn:li:dataHubPolicy:7',
  dataHubAccessToken: 'urn:li:dataHubAccessToken:abc123',
  dataHubIngestionSource: 'urn:li:dataHubIngestionSource:src1',
  container: 'urn:li:container:0123456789abcdef',
  domain: 'urn:li:domain:marketing',
  dataType: 'urn:li:dataType:datahub.string',
  entityType: 'urn:li:entityType:datahub.dataset',
};

describe('entityRegistry', () => {
  it('holds exactly the expected entities', () => {
    expect(
      entityRegistry
        .entities()
        .map((e) => e.name)
        .sort(),
    ).toEqual(Object.keys(SAMPLE_URNS).sort());
  });

  it.each(Object.entries(SAMPLE_URNS))(
    '%s: key aspect exists and round-trips urn → key → urn',
    (name, raw) => {
      const entity = entityRegistry.requireEntity(name);
      const key = entity.aspects.get(entity.keyAspect);
      expect(key?.isKey).toBe(true);
      const derived = entityRegistry.keyAspectFromUrn(parseUrn(raw));
      expect(derived.name).toBe(entity.keyAspect);
      expect(entityRegistry.urnFromKeyAspect(name, derived.value)).toBe(raw);
    },
  );

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
        expect(spec.recordName).toMatch(/^com\.linkedin\.[a-z.]+\.[A-Z][A-Za-z0-9]+$/);
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
      expect(spec?.searchable.map((s) => s.fieldName)).toContain('timestampMillis');
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
