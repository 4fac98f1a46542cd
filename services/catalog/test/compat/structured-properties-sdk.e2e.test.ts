import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import { startTestCatalog, type TestCatalog } from '../harness.js';
import { pythonReport, pythonWithKafkaEmitter } from './kafka-emitter-python.js';

/**
 * The pinned SDK's structured-property helpers (its StructuredProperties model, from_datahub, list and
 * the dataset patch builder), unchanged, mixed with the GraphQL mutations against the catalog.
 */
const found = await pythonWithKafkaEmitter();
const pythonSkip = skipUnlessCi('skip' in found ? found.skip : undefined);

type Values = Record<string, (string | number)[]>;
interface Definition {
  qualified_name: string;
  type: string;
  cardinality: string;
  entity_types: string[];
  allowed_values: [string | number, string | null][];
}
interface Report {
  retention: string;
  tier: string;
  created: { urn: string; definition: { qualifiedName: string; cardinality: string } };
  readBack: Record<string, Definition>;
  afterGraphql: Values;
  afterPatch: Values;
  afterReplace: Values;
  afterRemove: Values;
  listed: string[];
}

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping the SDK structured-property helpers on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(`the SDK structured-property helpers on ${family.name}`, () => {
    let catalog: TestCatalog;
    let report: Report;
    const run = Math.random().toString(36).slice(2, 8);

    beforeAll(async () => {
      if ('skip' in found) return;
      catalog = await startTestCatalog(family.env());
      report = await pythonReport(found.python, 'structured_properties_sdk.py', [catalog.baseUrl, run]);
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    it('reads back, with the SDK model, definitions written by the SDK and by createStructuredProperty', () => {
      expect(report.created).toEqual({
        urn: `urn:li:structuredProperty:io.sdk.tier_${run}`,
        definition: { qualifiedName: `io.sdk.tier_${run}`, cardinality: 'MULTIPLE' },
      });
      expect(report.readBack).toEqual({
        [report.retention]: {
          qualified_name: `io.sdk.retention_${run}`,
          type: 'urn:li:dataType:datahub.number',
          cardinality: 'SINGLE',
          entity_types: ['urn:li:entityType:datahub.dataset'],
          allowed_values: [
            [30, 'a month'],
            [90, null],
          ],
        },
        [report.tier]: {
          qualified_name: `io.sdk.tier_${run}`,
          type: 'urn:li:dataType:datahub.string',
          cardinality: 'MULTIPLE',
          entity_types: ['urn:li:entityType:datahub.dataset'],
          allowed_values: [
            ['gold', null],
            ['silver', 'second'],
          ],
        },
      });
    });

    it('keeps values set by GraphQL and by the SDK patch builder beside each other', () => {
      expect(report.afterGraphql).toEqual({ [report.tier]: ['gold', 'silver'] });
      expect(report.afterPatch).toEqual({ [report.tier]: ['gold', 'silver'], [report.retention]: [90] });
      expect(report.afterReplace).toEqual({ [report.tier]: ['silver'], [report.retention]: [90] });
      expect(report.afterRemove).toEqual({ [report.retention]: [90] });
    });

    it('lists both properties with the SDK (get_urns_by_filter over structuredProperty)', () => {
      expect(report.listed).toEqual([report.retention, report.tier].sort());
    });
  });
}
