import { describe, expect, it } from 'vitest';
import {
  claimedFields,
  cleanupOutcome,
  keptFieldsOf,
  leftoversOf,
  removableFields,
  retiredRecordOf,
} from './structured-property-leftovers.js';

const tier = {
  urn: 'urn:li:structuredProperty:io.acryl.tier',
  qualifiedName: 'io.acryl.tier',
  valueType: 'string' as const,
  removed: false,
};
const plain = 'structuredProperties.io_acryl_tier';
const v1 = 'structuredProperties._versioned.io_acryl_tier.20240101000000.number';
const other = 'structuredProperties.io_acryl_other';

describe('structured property leftovers', () => {
  it('records a retired definition with its name forms and its field', () => {
    expect(retiredRecordOf(tier, 7)).toEqual({
      urn: tier.urn,
      qualifiedName: 'io.acryl.tier',
      normalizedName: 'io_acryl_tier',
      retiredAt: 7,
      fields: [plain],
    });
    expect([...claimedFields([{ ...tier, version: '20240101000000', valueType: 'number' }])]).toEqual([v1]);
  });

  it('gives a retired property every unclaimed field of its name, per entity index, with counts', () => {
    const indices = [
      {
        entityType: 'dataset',
        counts: new Map([
          [plain, 2],
          [v1, 0],
          [other, 0],
        ]),
      },
      { entityType: 'chart', counts: new Map([[other, 0]]) },
    ];
    const [leftover] = leftoversOf([retiredRecordOf(tier, 7)], indices);
    expect(leftover!.mappedFields).toEqual({ dataset: { [plain]: 2, [v1]: 0 } });
    expect(removableFields(indices[0]!)).toEqual([v1, other].sort());
    const kept = keptFieldsOf([retiredRecordOf(tier, 7)], new Set([tier.urn]), indices);
    expect(removableFields(indices[0]!, kept)).toEqual([other]);
  });

  it('forgets the leftovers with nothing mapped unless kept, and keeps the others', () => {
    const gone = { ...leftoversOf([retiredRecordOf(tier, 7)], [])[0]!, urn: 'urn:gone' };
    const held = { ...gone, urn: 'urn:held', mappedFields: { dataset: { [plain]: 1 } } };
    const named = { ...gone, urn: 'urn:named' };
    expect(cleanupOutcome({ dataset: [v1] }, [gone, held, named], new Set(['urn:named']))).toEqual({
      cleanedEntityTypes: ['dataset'],
      removedFields: { dataset: [v1] },
      forgotten: ['urn:gone'],
      kept: [held, named],
    });
  });
});
