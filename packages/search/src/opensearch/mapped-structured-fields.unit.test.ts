import { describe, expect, it } from 'vitest';
import { entityIndexMappings, structuredFieldMappings } from './entity-mappings.js';
import { mappedStructuredFields, withoutStructuredFields } from './mapped-structured-fields.js';

const fields = [
  { name: 'structuredProperties.io_acryl_tier', type: 'KEYWORD' as const },
  { name: 'structuredProperties.io_acryl_notes', type: 'TEXT' as const },
  { name: 'structuredProperties._versioned.io_acryl_score.20240614080000.number', type: 'DOUBLE' as const },
  { name: 'structuredProperties._versioned.io_acryl_score.20250101000000.number', type: 'DOUBLE' as const },
];
const spec = { entityType: 'dataset', fields: [{ name: 'name', type: 'TEXT' as const, boost: 10 }] };

describe('mapped structured fields', () => {
  it('lists the leaves under structuredProperties, sub-fields and other fields left out', () => {
    expect(mappedStructuredFields(entityIndexMappings(spec, fields) as Record<string, unknown>)).toEqual(
      fields.map((f) => f.name).sort(),
    );
    expect(mappedStructuredFields({ properties: { name: { type: 'text' } } })).toEqual([]);
    // As the server echoes an object: no `type`, `properties` only.
    const echoed = { properties: { structuredProperties: { dynamic: 'false', properties: {} } } };
    expect(mappedStructuredFields(echoed)).toEqual([]);
  });

  it('removes fields, and the objects they leave empty, from a copy; the root object stays', () => {
    const mappings = entityIndexMappings(spec, fields) as Record<string, unknown>;
    const before = JSON.stringify(mappings);
    const pruned = withoutStructuredFields(mappings, [
      'structuredProperties._versioned.io_acryl_score.20240614080000.number',
      'structuredProperties.io_acryl_tier',
      'structuredProperties.io_acryl_absent',
      'name',
    ]);
    expect(JSON.stringify(mappings)).toBe(before);
    expect(mappedStructuredFields(pruned)).toEqual([
      'structuredProperties._versioned.io_acryl_score.20250101000000.number',
      'structuredProperties.io_acryl_notes',
    ]);
    const all = withoutStructuredFields(pruned, mappedStructuredFields(pruned)) as {
      properties: Record<string, unknown>;
    };
    expect(all.properties['structuredProperties']).toEqual({
      type: 'object',
      dynamic: false,
      properties: {},
    });
    expect(all.properties['name']).toBeDefined();
    expect(structuredFieldMappings([])).toEqual({
      structuredProperties: { type: 'object', dynamic: false, properties: {} },
    });
  });
});
