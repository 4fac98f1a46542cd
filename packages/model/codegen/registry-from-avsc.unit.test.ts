import { describe, expect, it } from 'vitest';
import { registryFromAvsc } from './registry-from-avsc.js';
import { renderRegistryModule } from './render-registry-module.js';

const SOURCE = { package: 'acryl-datahub', version: '0.0.0', sha256: 'test' } as const;
const AUDIT_STAMP = {
  type: 'record',
  name: 'AuditStamp',
  namespace: 'com.linkedin.pegasus2avro.common',
  fields: [
    { name: 'time', type: 'long', doc: 'when' },
    {
      name: 'actor',
      type: 'string',
      Urn: 'Urn',
      java: { class: 'com.linkedin.pegasus2avro.common.urn.Urn' },
    },
  ],
};

/** Three schemas shaped as the wheel ships them: docs, annotations, nested types inlined in each file. */
const FILES: Record<string, unknown> = {
  'FooKey.avsc': {
    type: 'record',
    name: 'FooKey',
    namespace: 'com.linkedin.pegasus2avro.metadata.key',
    Aspect: {
      name: 'fooKey',
      keyForEntity: 'foo',
      entityCategory: 'core',
      entityAspects: ['fooInfo', 'barStats'],
    },
    fields: [
      { name: 'platform', type: 'string', Urn: 'Urn' },
      { name: 'id', type: 'string', Searchable: { fieldType: 'WORD_GRAM', boostScore: 4 } },
    ],
  },
  'FooInfo.avsc': {
    type: 'record',
    name: 'FooInfo',
    namespace: 'com.linkedin.pegasus2avro.foo',
    Aspect: { name: 'fooInfo' },
    doc: 'dropped',
    fields: [
      {
        name: 'tags',
        Searchable: { '/*/tag': { fieldName: 'tags', fieldType: 'URN', hasValuesFieldName: 'hasTags' } },
        Relationship: { '/*/tag': { name: 'TaggedWith', entityTypes: ['tag'] } },
        type: {
          type: 'array',
          items: {
            type: 'record',
            name: 'TagAssociation',
            namespace: 'com.linkedin.pegasus2avro.common',
            fields: [
              {
                name: 'tag',
                type: 'string',
                Urn: 'TagUrn',
                Searchable: { fieldName: 'innerTag', fieldType: 'KEYWORD' },
              },
            ],
          },
        },
      },
      { name: 'created', type: AUDIT_STAMP },
      { name: 'notes', type: 'string', Searchable: { v3: { searchLabel: 'notes' } } },
      { name: 'props', type: { type: 'map', values: 'string' }, default: {}, Searchable: { '/*': {} } },
      {
        name: 'cost',
        type: {
          type: 'record',
          name: 'Cost',
          fields: [
            { name: 'costId', type: ['null', 'double'], default: null },
            { name: 'costCode', type: ['null', 'string'], default: null },
            {
              name: 'fieldDiscriminator',
              type: { type: 'enum', name: 'CostDiscriminator', symbols: ['costId', 'costCode'] },
            },
          ],
        },
      },
      { name: 'count', type: ['null', 'int'], default: null, Searchable: {} },
    ],
  },
  'BarStats.avsc': {
    type: 'record',
    name: 'BarStats',
    namespace: 'com.linkedin.pegasus2avro.foo',
    Aspect: { name: 'barStats', type: 'timeseries' },
    fields: [
      { name: 'timestampMillis', type: 'long' },
      { name: 'lastSeen', type: AUDIT_STAMP },
    ],
  },
};

const filesOf = (names: readonly string[]): Map<string, string> =>
  new Map(names.map((name) => [name, JSON.stringify(FILES[name])]));

describe('registryFromAvsc', () => {
  const data = registryFromAvsc(filesOf(Object.keys(FILES)), SOURCE);
  const aspect = (name: string) => data.aspects.find((a) => a.name === name)!;

  it('is deterministic: the same files in any order give the same module', () => {
    const names = Object.keys(FILES);
    const reversed = registryFromAvsc(filesOf([...names].reverse()), SOURCE);
    expect(renderRegistryModule(reversed)).toBe(renderRegistryModule(data));
    expect(renderRegistryModule(registryFromAvsc(filesOf(names), SOURCE))).toBe(renderRegistryModule(data));
  });

  it('takes entities from key aspects, with their aspects, category and kinds', () => {
    expect(data.entities).toEqual([
      { name: 'foo', keyAspect: 'fooKey', category: 'core', aspects: ['fooInfo', 'barStats'] },
    ]);
    expect(aspect('barStats').kind).toBe('timeseries');
    expect(aspect('fooInfo')).toMatchObject({ kind: 'versioned', recordName: 'com.linkedin.foo.FooInfo' });
  });

  it('writes wire names, drops docs, and defines a shared record once, referencing it after', () => {
    const text = JSON.stringify(data.aspects.map((a) => a.schema));
    expect(text).not.toContain('pegasus2avro');
    expect(text).not.toContain('dropped');
    expect(text.match(/"name":"com\.linkedin\.common\.AuditStamp"/g)).toHaveLength(1);
    const bar = aspect('barStats').schema as { fields: { name: string; type: unknown }[] };
    // BarStats sorts before FooInfo, so it defines the stamp and FooInfo refers to it.
    expect(bar.fields[1]?.type).toMatchObject({ name: 'com.linkedin.common.AuditStamp' });
    const foo = aspect('fooInfo').schema as { fields: { name: string; type: unknown }[] };
    expect(foo.fields.find((f) => f.name === 'created')?.type).toBe('com.linkedin.common.AuditStamp');
  });

  it('types URN fields, restricting typed URNs and a key platform to their entity type', () => {
    const key = aspect('fooKey').schema as { fields: { name: string; type: unknown }[] };
    expect(key.fields[0]?.type).toEqual({
      type: 'string',
      logicalType: 'urn',
      entityTypes: ['dataPlatform'],
    });
    const text = JSON.stringify(aspect('fooInfo').schema);
    expect(text).toContain(
      '{"name":"tag","type":{"type":"string","logicalType":"urn","entityTypes":["tag"]}}',
    );
    expect(JSON.stringify(aspect('barStats').schema)).toContain(
      '{"name":"actor","type":{"type":"string","logicalType":"urn"}}',
    );
  });

  it('flattens annotations to full paths; an outer one overrides the nested one at its path', () => {
    expect(aspect('fooInfo').searchable).toEqual([
      { fieldName: 'tags', path: 'tags/*/tag', type: 'URN', hasValuesFieldName: 'hasTags' },
      { fieldName: 'props', path: 'props', type: 'TEXT' },
      { fieldName: 'count', path: 'count', type: 'COUNT' },
    ]);
    expect(aspect('fooInfo').relationships).toEqual([
      { name: 'TaggedWith', path: 'tags/*/tag', entityTypes: ['tag'] },
    ]);
    expect(aspect('fooKey').searchable).toEqual([
      { fieldName: 'id', path: 'id', type: 'WORD_GRAM', boost: 4 },
    ]);
  });

  it('leaves the Avro discriminator of a Pegasus alias union off the wire schema', () => {
    const text = JSON.stringify(aspect('fooInfo').schema);
    expect(text).toContain('"costId"');
    expect(text).not.toContain('fieldDiscriminator');
  });

  it('refuses two different definitions under one name', () => {
    const other = structuredClone(FILES['BarStats.avsc']) as { fields: { type: { fields: unknown[] } }[] };
    other.fields[1]!.type.fields.push({ name: 'extra', type: 'string' });
    const files = filesOf(Object.keys(FILES));
    files.set('BarStats.avsc', JSON.stringify(other));
    expect(() => registryFromAvsc(files, SOURCE)).toThrow(
      /Two different definitions of com\.linkedin\.common\.AuditStamp/,
    );
  });
});
