import { describe, expect, it } from 'vitest';
import { doubleShapeOf, stringifyJson, withDoubles } from './double-fields.js';

describe('doubles written as the ecosystem writes them', () => {
  it('writes an integral number allowed value of a property definition with a decimal point', () => {
    const value = {
      qualifiedName: 'q',
      valueType: 'urn:li:dataType:datahub.number',
      allowedValues: [{ value: { double: 30 } }, { value: { double: 2.5 } }, { value: { string: '30' } }],
    };
    const text = stringifyJson({
      aspects: { propertyDefinition: { value: withDoubles('propertyDefinition', value) } },
    });
    expect(text).toContain('{"double":30.0}');
    expect(text).toContain('{"double":2.5}');
    expect(text).toContain('{"string":"30"}');
    expect(JSON.parse(text)).toEqual({ aspects: { propertyDefinition: { value } } });
  });

  it('leaves integer fields (long, int) as integers and does not change the given value', () => {
    const value = {
      timestampMillis: 5,
      rowCount: 10,
      fieldProfiles: [{ fieldPath: 'a', nullProportion: 1, uniqueProportion: 0.5, nullCount: 3 }],
    };
    const copy = structuredClone(value);
    const text = stringifyJson(withDoubles('datasetProfile', value));
    expect(value).toEqual(copy);
    expect(text).toContain('"timestampMillis":5,');
    expect(text).toContain('"rowCount":10,');
    expect(text).toContain('"nullProportion":1.0');
    expect(text).toContain('"uniqueProportion":0.5');
    expect(text).toContain('"nullCount":3');
  });

  it('hands back the same value, without a walk, for an aspect that holds no double', () => {
    expect(doubleShapeOf('status')).toBeUndefined();
    const value = { removed: false };
    expect(withDoubles('status', value)).toBe(value);
    expect(doubleShapeOf('propertyDefinition')).toBeDefined();
  });

  it('keeps a client string that looks like a marker as it is', () => {
    const text = stringifyJson({ s: '\uE000abc30\uE001' });
    expect(JSON.parse(text)).toEqual({ s: '\uE000abc30\uE001' });
  });

  it('writes large and negative integral doubles as numbers that still read back equal', () => {
    const value = {
      allowedValues: [{ value: { double: -4 } }, { value: { double: 1e21 } }],
      qualifiedName: 'q',
    };
    const text = stringifyJson(withDoubles('propertyDefinition', value));
    expect(text).toContain('{"double":-4.0}');
    expect(JSON.parse(text)).toEqual(value);
  });
});
