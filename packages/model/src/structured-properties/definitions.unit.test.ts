import { describe, expect, it } from 'vitest';
import { SchemaValidationError } from '../errors.js';
import { StructuredPropertyRuleError } from './rule-error.js';
import {
  checkPropertyDefinition,
  DEFINITION_MESSAGES as M,
  definitionProblems,
  searchFieldNameOf,
  type DefinitionCheck,
} from './definitions.js';

const URN = 'urn:li:structuredProperty:io.acryl.privacy.retentionTime';
const STRING = 'urn:li:dataType:datahub.string';
const NUMBER = 'urn:li:dataType:datahub.number';

function definition(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    qualifiedName: 'io.acryl.privacy.retentionTime',
    valueType: STRING,
    cardinality: 'MULTIPLE',
    entityTypes: ['urn:li:entityType:datahub.dataset', 'urn:li:entityType:datahub.dataFlow'],
    ...overrides,
  };
}

const problems = (input: Partial<DefinitionCheck> & Pick<DefinitionCheck, 'next'>) =>
  definitionProblems({ urn: URN, removed: false, ...input });

describe('property definition rules: a new definition', () => {
  it('accepts a definition of each data type, with allowed values of its kind', () => {
    expect(problems({ next: definition() })).toEqual([]);
    expect(
      problems({ next: definition({ valueType: NUMBER, allowedValues: [{ value: { double: 30 } }] }) }),
    ).toEqual([]);
    expect(
      problems({
        next: definition({
          valueType: 'urn:li:dataType:datahub.date',
          allowedValues: [{ value: { string: '2024-02-29' } }],
        }),
      }),
    ).toEqual([]);
    for (const type of ['rich_text', 'urn'])
      expect(problems({ next: definition({ valueType: `urn:li:dataType:datahub.${type}` }) })).toEqual([]);
  });

  it('refuses spaces in the urn id and in the qualified name, with the ecosystem messages', () => {
    expect(problems({ urn: 'urn:li:structuredProperty:test me out', next: definition() })).toEqual([
      M.urnIdSpaces,
    ]);
    expect(problems({ next: definition({ qualifiedName: 'foo.bar with spaces' }) })).toEqual([
      M.qualifiedNameSpaces,
    ]);
    expect(M.urnIdSpaces).toBe('Urn ID cannot have spaces');
    expect(M.qualifiedNameSpaces).toBe('Qualified names cannot have spaces');
  });

  it('refuses a valueType that is not one of the five data-type urns', () => {
    for (const valueType of [
      'urn:li:dataType:datahub.boolean',
      'urn:li:dataType:datahub.STRING',
      'urn:li:dataType:string',
      'urn:li:entityType:datahub.dataset',
      'urn:li:logicalType:STRING',
      'string',
    ]) {
      expect(problems({ next: definition({ valueType }) })).toEqual([
        `Invalid valueType ${valueType}: it must be one of [urn:li:dataType:datahub.string, ` +
          'urn:li:dataType:datahub.number, urn:li:dataType:datahub.urn, urn:li:dataType:datahub.rich_text, ' +
          'urn:li:dataType:datahub.date]',
      ]);
    }
  });

  it('refuses entityTypes that are not entity-type urns of registry entities', () => {
    const entityTypes = [
      'urn:li:entityType:datahub.dataset',
      'dataset',
      'urn:li:entityType:dataset',
      'urn:li:entityType:datahub.notAnEntity',
      'urn:li:dataType:datahub.string',
    ];
    expect(problems({ next: definition({ entityTypes }) })).toEqual([
      'Invalid entityTypes [dataset, urn:li:entityType:dataset, urn:li:entityType:datahub.notAnEntity, ' +
        'urn:li:dataType:datahub.string]: each must be an entity type urn urn:li:entityType:datahub.<entity name> ' +
        'of a known entity type',
    ]);
    expect(
      problems({ next: definition({ entityTypes: ['urn:li:entityType:datahub.schemaField'] }) }),
    ).toEqual([]);
  });

  it('refuses allowed values whose kind does not fit the value type', () => {
    expect(
      problems({ next: definition({ valueType: NUMBER, allowedValues: [{ value: { string: '30' } }] }) }),
    ).toEqual([
      'Allowed value {string=30} does not fit valueType urn:li:dataType:datahub.number: it should be a number',
    ]);
    expect(problems({ next: definition({ allowedValues: [{ value: { double: 1 } }] }) })).toEqual([
      `Allowed value {double=1.0} does not fit valueType ${STRING}: it should be a string`,
    ]);
    expect(
      problems({
        next: definition({
          valueType: 'urn:li:dataType:datahub.date',
          allowedValues: [{ value: { string: '2024-02-30' } }],
        }),
      }),
    ).toEqual([
      'Allowed value {string=2024-02-30} does not fit valueType urn:li:dataType:datahub.date: ' +
        'it should be a date with format YYYY-MM-DD',
    ]);
  });

  it('checks typeQualifier.allowedTypes with the ecosystem messages', () => {
    const withTypes = (allowedTypes: string[]) =>
      problems({
        next: definition({ valueType: 'urn:li:dataType:datahub.urn', typeQualifier: { allowedTypes } }),
      });
    expect(withTypes(['urn:li:entityType:datahub.dataset'])).toEqual([]);
    expect(withTypes(['invalidUrn'])).toEqual([
      'Issue resolving allowedTypes inside of typeQualifier. These must be entity type urns. List of allowedTypes: [invalidUrn]',
    ]);
    expect(withTypes(['urn:li:entityType:datahub.dataset', 'urn:li:dataPlatform:snowflake'])).toEqual([
      'Provided allowedType that is not an entityType entity. List of allowedTypes: ' +
        '[urn:li:entityType:datahub.dataset, urn:li:dataPlatform:snowflake]',
    ]);
    expect(withTypes(['urn:li:entityType:datahub.fakeEntity'])).toEqual([
      'Provided allowedType that does not exist. List of allowedTypes: [urn:li:entityType:datahub.fakeEntity]',
    ]);
  });

  it('takes a version of any format (spec 3.3) but refuses blanks and the field-path separator', () => {
    expect(problems({ next: definition({ version: '2024' }) })).toEqual([]);
    expect(problems({ next: definition({ version: 'v2-beta' }) })).toEqual([]);
    expect(problems({ next: definition({ version: '20240101000000' }) })).toEqual([]);
    expect(problems({ next: definition({ version: '20240101.00000' }) })).toEqual([
      'Invalid version `20240101.00000` cannot contain the `.` character.',
    ]);
    expect(problems({ next: definition({ version: 'v 2' }) })).toEqual([M.versionFormat('v 2')]);
    expect(problems({ next: definition({ version: '' }) })).toEqual([M.versionFormat('')]);
  });

  it('refuses any write of a soft-deleted property', () => {
    expect(problems({ next: definition(), removed: true })).toEqual([
      'Cannot mutate a soft deleted Structured Property Definition',
    ]);
    expect(problems({ next: definition(), previous: definition(), removed: true })).toEqual([M.softDeleted]);
  });

  it("refuses a name that another property's search field already has ('.' and '_' collide)", () => {
    const others = new Map([
      [
        'certification_status',
        { urn: 'urn:li:structuredProperty:cs', qualifiedName: 'certification.status' },
      ],
    ]);
    const collidingWith = (normalized: string) => others.get(normalized);
    const create = (urn: string, qualifiedName: string) =>
      problems({ urn, next: definition({ qualifiedName }), collidingWith });
    expect(create('urn:li:structuredProperty:certification_status', 'certification_status')).toEqual([
      'Cannot create Structured Property urn:li:structuredProperty:certification_status: its qualifiedName ' +
        'certification_status collides with urn:li:structuredProperty:cs (qualifiedName certification.status); ' +
        "qualified names that differ only by '.' and '_' share one search field",
    ]);
    expect(create('urn:li:structuredProperty:x', 'certification.status')).toHaveLength(1);
    // The property itself (a create over a leftover name index entry of its own) and other names pass.
    expect(create('urn:li:structuredProperty:cs', 'certification.status')).toEqual([]);
    expect(create('urn:li:structuredProperty:y', 'certification.state')).toEqual([]);
    // An update is not a creation: the qualified name is immutable, so no collision is looked for.
    expect(
      problems({
        urn: 'urn:li:structuredProperty:z',
        next: definition({ qualifiedName: 'certification_status' }),
        previous: definition({ qualifiedName: 'certification_status' }),
        collidingWith,
      }),
    ).toEqual([]);
    expect(searchFieldNameOf('io.acryl.privacy.retentionTime')).toBe('io_acryl_privacy_retentionTime');
  });

  it("throws one rule error (SCHEMA_VALIDATION, as the ecosystem's ValidationException) naming every problem", () => {
    const call = () =>
      checkPropertyDefinition({
        urn: 'urn:li:structuredProperty:a b',
        next: definition({ qualifiedName: 'a b' }),
        removed: false,
      });
    expect(call).toThrow(StructuredPropertyRuleError);
    expect(call).toThrow(SchemaValidationError);
    expect(call).toThrow('Urn ID cannot have spaces; Qualified names cannot have spaces');
    expect(() => checkPropertyDefinition({ urn: URN, next: definition(), removed: false })).not.toThrow();
  });
});

describe('property definition rules: an update', () => {
  const update = (before: Record<string, unknown>, after: Record<string, unknown>) =>
    problems({ next: definition(after), previous: definition(before) });
  const V1 = '20240101000000';
  const V2 = '20240201000000';

  it('allows compatible changes: display name, description, SINGLE to MULTIPLE, added allowed values', () => {
    expect(update({}, { displayName: 'Retention', description: 'how long' })).toEqual([]);
    expect(update({ cardinality: 'SINGLE' }, { cardinality: 'MULTIPLE' })).toEqual([]);
    expect(update({ cardinality: undefined }, { cardinality: 'MULTIPLE' })).toEqual([]);
    expect(
      update(
        { allowedValues: [{ value: { string: 'a' } }] },
        {
          allowedValues: [
            { value: { string: 'a' }, description: 'now described' },
            { value: { string: 'b' } },
          ],
        },
      ),
    ).toEqual([]);
    // Dropping the list altogether allows every value: a widening.
    expect(update({ allowedValues: [{ value: { string: 'a' } }] }, {})).toEqual([]);
  });

  it('refuses breaking changes without a new version, naming each', () => {
    expect(update({}, { valueType: NUMBER })).toEqual([
      'Value type cannot be changed as this is a backwards incompatible change',
    ]);
    expect(update({ cardinality: 'MULTIPLE' }, { cardinality: 'SINGLE' })).toEqual([
      'Property definition cardinality cannot be changed from MULTI to SINGLE',
    ]);
    // Absent cardinality is the schema default, SINGLE.
    expect(update({ cardinality: 'MULTIPLE' }, { cardinality: undefined })).toEqual([M.cardinalityNarrowed]);
    expect(update({}, { allowedValues: [{ value: { string: 'a' } }] })).toEqual([
      'Cannot restrict values that were previously allowed',
    ]);
    expect(
      update(
        { allowedValues: [{ value: { string: 'a' } }, { value: { string: 'b' } }] },
        { allowedValues: [{ value: { string: 'a' } }] },
      ),
    ).toEqual([M.valuesRestricted]);
  });

  it('allows them with a new, greater version, and not with the same or a smaller one', () => {
    const narrowing = { cardinality: 'SINGLE', valueType: NUMBER, allowedValues: [{ value: { double: 1 } }] };
    expect(update({}, { ...narrowing, version: V1 })).toEqual([]);
    expect(update({ version: V1 }, { ...narrowing, version: V2 })).toEqual([]);
    expect(update({ version: V2 }, { ...narrowing, version: V2 })).toEqual([
      M.valueTypeChanged,
      M.cardinalityNarrowed,
      M.valuesRestricted,
    ]);
    expect(update({ version: V2 }, { ...narrowing, version: V1 })).toHaveLength(3);
    expect(update({ version: V2 }, { ...narrowing, version: undefined })).toHaveLength(3);
  });

  it('never allows a new qualified name, whatever the version', () => {
    expect(update({}, { qualifiedName: 'io.acryl.other' })).toEqual([
      'Cannot change the fully qualified name of a Structured Property',
    ]);
    expect(update({ version: V1 }, { qualifiedName: 'io.acryl.other', version: V2 })).toEqual([
      M.qualifiedNameChanged,
    ]);
  });
});
