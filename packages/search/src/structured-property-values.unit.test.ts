import { describe, expect, it } from 'vitest';
import type { StructuredPropertySearchDefinition } from './port.js';
import {
  structuredPropertyDocumentFields,
  type OversizedValue,
  type StructuredPropertyIndexing,
} from './structured-property-values.js';

const def = (
  name: string,
  valueType: StructuredPropertySearchDefinition['valueType'],
  extra: Partial<StructuredPropertySearchDefinition> = {},
): StructuredPropertySearchDefinition => ({
  urn: `urn:li:structuredProperty:io.x.${name}`,
  qualifiedName: `io.x.${name}`,
  valueType,
  removed: false,
  ...extra,
});

const indexing = (
  definitions: readonly StructuredPropertySearchDefinition[],
  extra: Partial<StructuredPropertyIndexing> = {},
): StructuredPropertyIndexing => ({
  definitions: new Map(definitions.map((d) => [d.urn, d])),
  writtenAt: 1_000,
  limits: { keywordMaxLength: 32_766, dropOversizedKeywordValuesFromIndex: false },
  ...extra,
});

const assign = (
  ...a: [StructuredPropertySearchDefinition | string, unknown[], Record<string, unknown>?][]
) => ({
  properties: a.map(([d, values, extra]) => ({
    propertyUrn: typeof d === 'string' ? d : d.urn,
    values,
    ...extra,
  })),
});

describe('structuredPropertyDocumentFields', () => {
  it('types each value by its definition, skipping values of the wrong kind', () => {
    const score = def('score', 'number');
    const day = def('day', 'date');
    const tier = def('tier', 'string');
    const mystery = def('mystery', 'unknown');
    const out = structuredPropertyDocumentFields(
      assign(
        [score, [{ double: 42 }, { string: '7.5' }, { string: 'soon' }, 3]],
        [day, [{ string: '2020-10-01' }, { string: '2020-13-01' }]],
        [tier, [{ string: 'gold' }, { string: '' }, { double: 1 }, 'silver']],
        [mystery, [{ string: 'x' }]],
      ),
      indexing([score, day, tier, mystery]),
    );
    expect(out.propertyUrns).toEqual([score.urn, day.urn, tier.urn, mystery.urn]);
    expect(Object.fromEntries(out.fields)).toEqual({
      'structuredProperties.io_x_score': [42, 7.5, 3],
      'structuredProperties.io_x_day': [Date.UTC(2020, 9, 1)],
      'structuredProperties.io_x_tier': ['gold', 'silver'],
    });
  });

  it('indexes only the urns of assignments without a definition', () => {
    const out = structuredPropertyDocumentFields(
      assign(['urn:li:structuredProperty:nope', ['a']]),
      indexing([]),
    );
    expect(out).toEqual({ propertyUrns: ['urn:li:structuredProperty:nope'], fields: new Map() });
    expect(
      structuredPropertyDocumentFields(assign(['urn:li:structuredProperty:nope', ['a']]), undefined).fields
        .size,
    ).toBe(0);
  });

  it('leaves out assignments made before the current version, by their own stamp or the aspect write', () => {
    const tier = def('tier', 'number', { version: '20240614080000', versionSince: 5_000 });
    const field = 'structuredProperties._versioned.io_x_tier.20240614080000.number';
    const at = (writtenAt: number, stamps: Record<string, unknown> = {}) =>
      structuredPropertyDocumentFields(
        assign([tier, [{ double: 1 }], stamps]),
        indexing([tier], { writtenAt }),
      ).fields.get(field);
    expect(at(4_999)).toBeUndefined();
    expect(at(5_000)).toEqual([1]);
    expect(at(9_000, { created: { time: 4_000 } })).toBeUndefined();
    expect(at(1_000, { created: { time: 4_000 }, lastModified: { time: 6_000 } })).toEqual([1]);
  });

  it('leaves oversized string values out: over the configured limit when dropping, always over 32766 bytes', () => {
    const note = def('note', 'rich_text');
    const seen: OversizedValue[] = [];
    const onOversized = (v: OversizedValue) => seen.push(v);
    const values = [{ string: 'é'.repeat(10) }, { string: 'short' }, { string: 'x'.repeat(32_767) }];
    const dropping = structuredPropertyDocumentFields(
      assign([note, values]),
      indexing([note], {
        limits: { keywordMaxLength: 16, dropOversizedKeywordValuesFromIndex: true },
        onOversized,
      }),
    );
    expect(dropping.fields.get('structuredProperties.io_x_note')).toEqual(['short']);
    expect(seen).toEqual([
      { propertyUrn: note.urn, bytes: 20, limit: 16 },
      { propertyUrn: note.urn, bytes: 32_767, limit: 16 },
    ]);
    seen.length = 0;
    const keeping = structuredPropertyDocumentFields(
      assign([note, values]),
      indexing([note], {
        limits: { keywordMaxLength: 16, dropOversizedKeywordValuesFromIndex: false },
        onOversized,
      }),
    );
    expect(keeping.fields.get('structuredProperties.io_x_note')).toEqual(['é'.repeat(10), 'short']);
    expect(seen).toEqual([{ propertyUrn: note.urn, bytes: 32_767, limit: 32_766 }]);
  });
});
