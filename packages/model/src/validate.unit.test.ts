import { describe, expect, it } from 'vitest';
import { entityRegistry } from './registry/entity-registry.js';
import type { AspectSpec } from './types.js';
import { validateAspect } from './validate.js';

function spec(entity: string, aspect: string): AspectSpec {
  const found = entityRegistry.getAspect(entity, aspect);
  if (!found) throw new Error(`no aspect ${entity}.${aspect}`);
  return found;
}

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)';

function problemsOf(aspectSpec: AspectSpec, value: unknown) {
  const outcome = validateAspect(aspectSpec, value);
  if (outcome.ok) throw new Error('expected problems, got a valid outcome');
  return outcome.problems;
}

function valueOf(aspectSpec: AspectSpec, value: unknown) {
  const outcome = validateAspect(aspectSpec, value);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
  return outcome.value;
}

describe('validateAspect', () => {
  it('drops unknown fields at the root and inside nested records, arrays and unions', () => {
    const value = valueOf(spec('dataset', 'schemaMetadata'), {
      schemaName: 's',
      platform: 'urn:li:dataPlatform:hive',
      version: 0,
      hash: '',
      bogus: true,
      platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: 'x', extra: 1 } },
      fields: [
        {
          fieldPath: 'a',
          nativeDataType: 'int',
          type: { type: { 'com.linkedin.schema.NumberType': { junk: 2 } }, alsoJunk: 3 },
          unknownFieldProp: 'x',
        },
      ],
    });
    expect(value).not.toHaveProperty('bogus');
    expect(value['platformSchema']).toEqual({ 'com.linkedin.schema.OtherSchema': { rawSchema: 'x' } });
    expect(value['fields']).toEqual([
      {
        fieldPath: 'a',
        type: { type: { 'com.linkedin.schema.NumberType': {} } },
        nativeDataType: 'int',
      },
    ]);
  });

  it('reports every problem with its path, not only the first', () => {
    const problems = problemsOf(spec('dataset', 'ownership'), {
      owners: [
        { owner: 'urn:li:corpuser:ok', type: 'DATAOWNER' },
        { owner: 'not-a-urn', type: 'OVERLORD' },
        { type: 'TECHNICAL_OWNER' },
      ],
      lastModified: { time: 'yesterday', actor: 'urn:li:corpuser:x' },
    });
    expect(problems.map((p) => p.path)).toEqual([
      'owners[1].owner',
      'owners[1].type',
      'owners[2].owner',
      'lastModified.time',
    ]);
    expect(problems[0]?.message).toContain('not a valid urn');
    expect(problems[1]?.message).toContain('"OVERLORD" is not one of [');
    expect(problems[2]?.message).toBe('missing required field');
  });

  it('rejects a wrong primitive type', () => {
    expect(problemsOf(spec('dataset', 'status'), { removed: 'yes' })).toEqual([
      { path: 'removed', message: 'expected boolean, got string "yes"' },
    ]);
    expect(problemsOf(spec('dataset', 'datasetProperties'), { description: 5 })[0]?.path).toBe('description');
    expect(problemsOf(spec('dataset', 'datasetProperties'), { customProperties: { a: 1 } })[0]?.path).toBe(
      'customProperties.a',
    );
  });

  it('rejects non-integers and numeric strings for long and int', () => {
    const profile = spec('dataset', 'datasetProfile');
    expect(problemsOf(profile, { timestampMillis: 1.5 })[0]?.path).toBe('timestampMillis');
    expect(problemsOf(profile, { timestampMillis: '1700000000000' })[0]?.message).toContain('long');
    const usage = spec('dataset', 'datasetUsageStatistics');
    expect(problemsOf(usage, { timestampMillis: 1, uniqueUserCount: 2 ** 40 })[0]?.path).toBe(
      'uniqueUserCount',
    );
  });

  it('rejects a non-object where a record is expected, and a non-array where an array is', () => {
    expect(problemsOf(spec('dataset', 'ownership'), { owners: ['urn:li:corpuser:x'] })[0]).toMatchObject({
      path: 'owners[0]',
    });
    expect(problemsOf(spec('dataset', 'globalTags'), { tags: { tag: 'urn:li:tag:a' } })[0]?.path).toBe(
      'tags',
    );
    expect(problemsOf(spec('dataset', 'status'), [])[0]?.path).toBe('');
    expect(problemsOf(spec('dataset', 'status'), null)[0]?.path).toBe('');
  });

  it('reports a missing required field without a default every time, not only the first', () => {
    const ownership = spec('dataset', 'ownership');
    for (let i = 0; i < 3; i++)
      expect(problemsOf(ownership, { owners: [{ type: 'DATAOWNER' }] }).map((p) => p.path)).toEqual([
        'owners[0].owner',
      ]);
  });

  it('rejects null for a required field', () => {
    expect(problemsOf(spec('dataset', 'status'), { removed: null })[0]).toEqual({
      path: 'removed',
      message: 'expected boolean, got null',
    });
  });

  it('rejects a union key that is not a member, and a union that is not a single-key object', () => {
    const base = { schemaName: 's', platform: 'urn:li:dataPlatform:hive', version: 0, hash: '', fields: [] };
    const schemaMetadata = spec('dataset', 'schemaMetadata');
    const badKey = problemsOf(schemaMetadata, {
      ...base,
      platformSchema: { 'com.linkedin.schema.NoSuchSchema': {} },
    });
    expect(badKey[0]?.path).toBe('platformSchema');
    expect(badKey[0]?.message).toContain('union key "com.linkedin.schema.NoSuchSchema" is not one of [');
    const twoKeys = problemsOf(schemaMetadata, {
      ...base,
      platformSchema: {
        'com.linkedin.schema.Schemaless': {},
        'com.linkedin.schema.OtherSchema': { rawSchema: '' },
      },
    });
    expect(twoKeys[0]?.message).toContain('single-key object');
    const badFieldType = problemsOf(schemaMetadata, {
      ...base,
      platformSchema: { 'com.linkedin.schema.Schemaless': {} },
      fields: [{ fieldPath: 'a', nativeDataType: 'x', type: { type: { StringType: {} } } }],
    });
    expect(badFieldType[0]?.path).toBe('fields[0].type.type');
  });

  it('reports problems inside a union member under the member key', () => {
    const problems = problemsOf(spec('dataset', 'schemaMetadata'), {
      schemaName: 's',
      platform: 'urn:li:dataPlatform:hive',
      version: 0,
      hash: '',
      fields: [],
      platformSchema: { 'com.linkedin.schema.KafkaSchema': { keySchema: 'k' } },
    });
    expect(problems).toEqual([
      {
        path: 'platformSchema["com.linkedin.schema.KafkaSchema"].documentSchema',
        message: 'missing required field',
      },
    ]);
  });

  it('leaves a required field with a default absent when the writer leaves it out (as the ecosystem stores it)', () => {
    expect(valueOf(spec('dataset', 'status'), {})).toEqual({});
    expect(valueOf(spec('dataset', 'datasetProperties'), { description: 'd' })).toEqual({ description: 'd' });
    expect(valueOf(spec('dataset', 'ownership'), { owners: [] })).toEqual({ owners: [] });
    expect(
      valueOf(spec('dataset', 'globalTags'), {
        tags: [{ tag: 'urn:li:tag:t', attribution: { time: 0, actor: 'urn:li:corpuser:u' } }],
      }),
    ).toEqual({ tags: [{ tag: 'urn:li:tag:t', attribution: { time: 0, actor: 'urn:li:corpuser:u' } }] });
  });

  it('keeps a default-valued field the writer did send', () => {
    expect(valueOf(spec('dataset', 'status'), { removed: false })).toEqual({ removed: false });
  });

  it('still requires a required field without a default', () => {
    expect(problemsOf(spec('dataset', 'globalTags'), {})).toEqual([
      { path: 'tags', message: 'missing required field' },
    ]);
  });

  it('omits optional fields sent as null', () => {
    expect(valueOf(spec('dataset', 'datasetProperties'), { description: null, name: 'n' })).toEqual({
      name: 'n',
    });
  });

  it('checks urn fields inside arrays and unions', () => {
    const chart = spec('chart', 'chartInfo');
    const problems = problemsOf(chart, {
      title: 't',
      description: '',
      lastModified: {},
      inputs: [{ string: DATASET }, { string: 'nope' }, DATASET],
    });
    // The published schema keeps the union of `inputs` but not its DatasetUrn typeref: any string fits.
    expect(problems.map((p) => p.path)).toEqual(['inputs[2]']);
    const lineage = spec('dataset', 'upstreamLineage');
    const upstream = { auditStamp: { time: 0, actor: 'urn:li:corpuser:x' }, type: 'TRANSFORMED' };
    expect(
      problemsOf(lineage, {
        upstreams: [
          { ...upstream, dataset: DATASET },
          { ...upstream, dataset: 'nope' },
          { ...upstream, dataset: 'urn:li:chart:(looker,1)' },
        ],
      }).map((p) => p.path),
    ).toEqual(['upstreams[1].dataset', 'upstreams[2].dataset']);
  });

  it('accepts a structured property value keyed string or double, and rejects other keys', () => {
    const sp = spec('dataset', 'structuredProperties');
    const ok = valueOf(sp, {
      properties: [
        { propertyUrn: 'urn:li:structuredProperty:a', values: [{ string: 'x' }, { double: 3.5 }] },
      ],
    });
    expect(ok['properties']).toEqual([
      { propertyUrn: 'urn:li:structuredProperty:a', values: [{ string: 'x' }, { double: 3.5 }] },
    ]);
    const problems = problemsOf(sp, {
      properties: [
        { propertyUrn: 'urn:li:structuredProperty:a', values: [{ int: 1 }, { double: 'x' }, 'bare'] },
      ],
    });
    expect(problems.map((p) => p.path)).toEqual([
      'properties[0].values[0]',
      'properties[0].values[1].double',
      'properties[0].values[2]',
    ]);
  });
});
