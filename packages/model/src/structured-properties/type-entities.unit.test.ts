import { describe, expect, it } from 'vitest';
import { entityRegistry } from '../registry/entity-registry.js';
import { validateAspect } from '../validate.js';
import { isNumericString, isValidDate } from './primitive-checks.js';
import {
  DEFAULT_STRUCTURED_PROPERTY_SETTINGS,
  readStructuredPropertySettings,
  type SettingsEnv,
} from './settings.js';
import {
  DATA_TYPE_URNS,
  entityNameOfTypeUrn,
  entityTypeUrn,
  logicalTypeOf,
  typeEntities,
  typeIdOf,
} from './type-entities.js';
import { javaDouble } from './values-format.js';

describe('type entities', () => {
  it('are the five data types and one entity type per registry entity, each a valid info aspect', () => {
    const all = typeEntities();
    const dataTypes = all.filter((t) => t.entityType === 'dataType');
    expect(dataTypes.map((t) => t.urn)).toEqual(DATA_TYPE_URNS);
    expect(dataTypes[0]).toEqual({
      entityType: 'dataType',
      urn: 'urn:li:dataType:datahub.string',
      aspectName: 'dataTypeInfo',
      value: {
        qualifiedName: 'datahub.string',
        displayName: 'String',
        description: 'A string of characters.',
      },
    });
    const entityTypes = all.filter((t) => t.entityType === 'entityType');
    expect(entityTypes).toHaveLength(entityRegistry.entities().length);
    expect(entityTypes.find((t) => t.urn === 'urn:li:entityType:datahub.dataset')?.value).toEqual({
      qualifiedName: 'datahub.dataset',
      displayName: 'dataset',
    });
    for (const t of all) {
      const spec = entityRegistry.getAspect(t.entityType, t.aspectName)!;
      expect(validateAspect(spec, t.value)).toMatchObject({ ok: true });
      expect(() =>
        entityRegistry.keyAspectFromUrn({
          raw: t.urn,
          entityType: t.entityType,
          id: t.urn.split(':')[3]!,
          parts: [t.urn.split(':')[3]!],
        }),
      ).not.toThrow();
    }
  });

  it('map urns to data types and entity names', () => {
    expect(logicalTypeOf('urn:li:dataType:datahub.rich_text')).toBe('rich_text');
    expect(logicalTypeOf('urn:li:dataType:datahub.Rich_text')).toBeUndefined();
    expect(entityNameOfTypeUrn(entityTypeUrn('glossaryTerm'))).toBe('glossaryTerm');
    expect(entityNameOfTypeUrn('urn:li:entityType:datahub.glossaryterm')).toBeUndefined();
    expect(entityNameOfTypeUrn('urn:li:entityType:glossaryTerm')).toBeUndefined();
    expect(typeIdOf('urn:li:entityType:datahub.glossaryTerm')).toBe('glossaryterm');
    expect(typeIdOf('urn:li:logicalType:STRING')).toBe('string');
  });
});

describe('primitive value checks', () => {
  it('dates', () => {
    expect(['2024-02-29', '2000-02-29', '1000-01-01', '9999-12-31'].every(isValidDate)).toBe(true);
    expect(
      ['1900-02-29', '2024-04-31', '999-01-01', '2024-00-10', '2024-01-00', ' 2024-01-01'].some(isValidDate),
    ).toBe(false);
  });

  it('numeric strings as Java parses doubles', () => {
    for (const ok of [
      '1',
      '-1.5',
      '.5',
      '5.',
      '1e10',
      '1E-3',
      '+2',
      '1.5d',
      '3f',
      'NaN',
      '-Infinity',
      ' 7 ',
      '0x1.8p1',
    ])
      expect(isNumericString(ok), ok).toBe(true);
    for (const bad of ['', 'abc', '1,000', '1e', '--1', '0x10', 'infinity', '1 2'])
      expect(isNumericString(bad), bad).toBe(false);
  });

  it('renders doubles as Java does in messages', () => {
    expect([30, 0.5, -2, 1e21, 1e-4, 1234567.5, 0].map(javaDouble)).toEqual([
      '30.0',
      '0.5',
      '-2.0',
      '1.0E21',
      '1.0E-4',
      '1234567.5',
      '0.0',
    ]);
  });
});

describe('structured property settings', () => {
  const env = (values: Record<string, string>): SettingsEnv => ({
    bool: (name, fallback) => (values[name] === undefined ? fallback : values[name] === 'true'),
    int: (name, fallback) => (values[name] === undefined ? fallback : Number(values[name])),
  });

  it('default to dropping orphans with a warning, the Lucene keyword limit, and refusing oversize values', () => {
    expect(readStructuredPropertySettings(env({}))).toEqual(DEFAULT_STRUCTURED_PROPERTY_SETTINGS);
    expect(DEFAULT_STRUCTURED_PROPERTY_SETTINGS).toEqual({
      dropMissingPropertyValuesWithWarning: true,
      keywordMaxLength: 32766,
      dropOversizedKeywordValuesFromIndex: false,
    });
  });

  it('read the ecosystem variable names', () => {
    expect(
      readStructuredPropertySettings(
        env({
          STRUCTURED_PROPERTIES_DROP_MISSING_PROPERTY_VALUES_WITH_WARNING: 'false',
          STRUCTURED_PROPERTIES_KEYWORD_MAX_LENGTH: '100',
          STRUCTURED_PROPERTIES_DROP_OVERSIZED_KEYWORD_VALUES_FROM_INDEX: 'true',
        }),
      ),
    ).toEqual({
      dropMissingPropertyValuesWithWarning: false,
      keywordMaxLength: 100,
      dropOversizedKeywordValuesFromIndex: true,
    });
  });
});
