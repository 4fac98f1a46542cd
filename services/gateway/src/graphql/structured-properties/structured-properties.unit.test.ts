import { describe, expect, it } from 'vitest';
import { ID_MISMATCH, propertyIdOf } from '../../application/structured-property-admin.js';
import { definitionView, propertyValue, settingsView } from './structured-properties-views.js';

describe('propertyIdOf (the ecosystem getPropertyId)', () => {
  it('takes the qualified name, else the id, else a new UUID', () => {
    expect(propertyIdOf(null, 'io.a.b')).toBe('io.a.b');
    expect(propertyIdOf('io.a.b', undefined)).toBe('io.a.b');
    expect(propertyIdOf('same', 'same')).toBe('same');
    expect(propertyIdOf()).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses an id that differs from the qualified name', () => {
    expect(() => propertyIdOf('a', 'b')).toThrow(ID_MISMATCH);
  });
});

describe('propertyValue', () => {
  it('maps the stored union members to the PropertyValue union', () => {
    expect(propertyValue({ string: 'x' })).toEqual({ __typename: 'StringValue', stringValue: 'x' });
    expect(propertyValue({ double: 2.5 })).toEqual({ __typename: 'NumberValue', numberValue: 2.5 });
    expect(propertyValue(3)).toEqual({ __typename: 'NumberValue', numberValue: 3 });
    expect(propertyValue('y')).toEqual({ __typename: 'StringValue', stringValue: 'y' });
  });
});

describe('definitionView', () => {
  it('maps a stored definition, with filterStatus from the settings', () => {
    const view = definitionView(
      {
        qualifiedName: 'io.a',
        valueType: 'urn:li:dataType:datahub.number',
        entityTypes: ['urn:li:entityType:datahub.dataset'],
        allowedValues: [{ value: { double: 1 }, description: 'one' }],
        typeQualifier: { allowedTypes: ['urn:li:entityType:datahub.corpuser'] },
        cardinality: 'MULTIPLE',
        immutable: true,
        created: { time: 5, actor: 'urn:li:corpuser:a' },
      },
      { showInSearchFilters: true },
    );
    expect(view).toMatchObject({
      qualifiedName: 'io.a',
      cardinality: 'MULTIPLE',
      immutable: true,
      valueType: { urn: 'urn:li:dataType:datahub.number', entity: 'dataType' },
      entityTypes: [{ urn: 'urn:li:entityType:datahub.dataset', entity: 'entityType' }],
      allowedValues: [{ value: { __typename: 'NumberValue', numberValue: 1 }, description: 'one' }],
      typeQualifier: { allowedTypes: [{ urn: 'urn:li:entityType:datahub.corpuser', entity: 'entityType' }] },
      created: { time: 5, actor: { urn: 'urn:li:corpuser:a', entity: 'corpuser' } },
      lastModified: null,
      filterStatus: 'ENABLED',
    });
  });

  it('answers the ecosystem placeholder for a property without a definition', () => {
    expect(definitionView(undefined, undefined)).toMatchObject({
      qualifiedName: '',
      cardinality: 'SINGLE',
      immutable: true,
      valueType: { urn: 'urn:li:dataType:datahub.string' },
      entityTypes: [{ urn: 'urn:li:entityType:datahub.dataset' }],
      filterStatus: 'DISABLED',
    });
  });

  it('shows settings only when stored, every flag defaulting to false', () => {
    expect(settingsView(undefined)).toBeNull();
    expect(settingsView({ isHidden: true })).toEqual({
      isHidden: true,
      showInSearchFilters: false,
      showInAssetSummary: false,
      hideInAssetSummaryWhenEmpty: false,
      showAsAssetBadge: false,
      showInColumnsTable: false,
    });
  });
});
