import { describe, expect, it } from 'vitest';
import {
  dateToEpochMillis,
  epochMillisToDate,
  formatStructuredFacetValue,
  propertyNameOfField,
  structuredFieldMapping,
  structuredFieldReference,
  structuredPropertyFieldName,
  structuredValueTypeOf,
} from './structured-property-fields.js';

const retention = {
  urn: 'urn:li:structuredProperty:io.acryl.privacy.retentionTime',
  qualifiedName: 'io.acryl.privacy.retentionTime',
  valueType: 'number' as const,
  removed: false,
};

describe('structured property fields', () => {
  it('names fields as the ecosystem does: dots to underscores, versions under _versioned', () => {
    expect(structuredPropertyFieldName(retention)).toBe(
      'structuredProperties.io_acryl_privacy_retentionTime',
    );
    expect(
      structuredPropertyFieldName({ ...retention, valueType: 'rich_text', version: '20240614080000' }),
    ).toBe('structuredProperties._versioned.io_acryl_privacy_retentionTime.20240614080000.rich_text');
  });

  it('finds the property name a document field belongs to, plain or versioned', () => {
    expect(propertyNameOfField('structuredProperties.io_acryl_tier')).toBe('io_acryl_tier');
    expect(propertyNameOfField('structuredProperties._versioned.io_acryl_tier.20240614080000.number')).toBe(
      'io_acryl_tier',
    );
    expect(propertyNameOfField('structuredProperties._versioned.io_acryl_tier')).toBeUndefined();
    expect(propertyNameOfField('structuredProperties._versioned')).toBeUndefined();
    expect(propertyNameOfField('structuredProperties.io.acryl')).toBeUndefined();
    expect(propertyNameOfField('name')).toBeUndefined();
  });

  it('types values by valueType: number double, date date, rich_text text, the rest keyword', () => {
    expect(structuredValueTypeOf('urn:li:dataType:datahub.number')).toBe('number');
    expect(structuredValueTypeOf('urn:li:dataType:datahub.rich_text')).toBe('rich_text');
    expect(structuredValueTypeOf('urn:li:dataType:other.thing')).toBe('unknown');
    const typeOf = (
      valueType: typeof retention.valueType | 'date' | 'rich_text' | 'urn' | 'string' | 'unknown',
    ) => structuredFieldMapping({ ...retention, valueType }).type;
    expect([
      typeOf('number'),
      typeOf('date'),
      typeOf('rich_text'),
      typeOf('urn'),
      typeOf('string'),
      typeOf('unknown'),
    ]).toEqual(['DOUBLE', 'DATETIME', 'TEXT', 'KEYWORD', 'KEYWORD', 'KEYWORD']);
  });

  it('reads request names in every form, and none of other fields', () => {
    expect(structuredFieldReference('structuredProperties.io.acryl.privacy.retentionTime')).toEqual({
      normalizedName: 'io_acryl_privacy_retentionTime',
    });
    expect(structuredFieldReference('structuredProperties.io_acryl_privacy_retentionTime.delimited')).toEqual(
      {
        normalizedName: 'io_acryl_privacy_retentionTime',
      },
    );
    expect(
      structuredFieldReference('structuredProperties._versioned.io_acryl_x.20240614080000.string'),
    ).toEqual({
      normalizedName: 'io_acryl_x',
      version: '20240614080000',
      valueType: 'string',
    });
    expect(structuredFieldReference('structuredProperties.')).toBeUndefined();
    expect(structuredFieldReference('structuredPropertyUrns')).toBeUndefined();
    expect(structuredFieldReference('tags')).toBeUndefined();
  });

  it('converts dates to UTC midnight epoch millis and back, refusing impossible days', () => {
    expect(dateToEpochMillis('2020-10-01')).toBe(Date.UTC(2020, 9, 1));
    expect(dateToEpochMillis('1000-01-01')).toBe(Date.UTC(1000, 0, 1));
    expect(dateToEpochMillis('2024-02-30')).toBeUndefined();
    expect(dateToEpochMillis('2020-10-01T00:00:00Z')).toBeUndefined();
    expect(epochMillisToDate(Date.UTC(1000, 0, 1))).toBe('1000-01-01');
    expect(epochMillisToDate(Date.UTC(9999, 11, 31))).toBe('9999-12-31');
  });

  it('prints facet values as the ecosystem: Java doubles, dates as written', () => {
    expect(formatStructuredFacetValue('DOUBLE', '60')).toBe('60.0');
    expect(formatStructuredFacetValue('DOUBLE', '42.5')).toBe('42.5');
    expect(formatStructuredFacetValue('DOUBLE', '12345678')).toBe('1.2345678E7');
    expect(formatStructuredFacetValue('DATETIME', String(Date.UTC(2020, 9, 1)))).toBe('2020-10-01');
    expect(formatStructuredFacetValue('KEYWORD', '60')).toBe('60');
  });
});
