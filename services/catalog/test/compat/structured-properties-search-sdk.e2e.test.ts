import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import { startTestCatalog, type TestCatalog } from '../harness.js';
import { pythonReport, pythonWithKafkaEmitter } from './kafka-emitter-python.js';

/**
 * The pinned SDK's get_urns_by_filter over structured properties, unchanged, as the ecosystem's smoke
 * test (test_structured_property_search) calls it: EXISTS on the stored field name, over the default
 * types, tags only, and datasets with tags; and a range on the qualified name.
 */
const found = await pythonWithKafkaEmitter();
const pythonSkip = skipUnlessCi('skip' in found ? found.skip : undefined);

interface Report {
  existsDefault: string[];
  existsTags: string[];
  existsDatasetsAndTags: string[];
  range: string[];
  datasets: string[];
}

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping the SDK structured-property search on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(`the SDK structured-property search on ${family.name}`, () => {
    let catalog: TestCatalog;
    let report: Report;

    beforeAll(async () => {
      if ('skip' in found) return;
      catalog = await startTestCatalog(family.env());
      report = await pythonReport(found.python, 'structured_properties_search_sdk.py', [
        catalog.baseUrl,
        Math.random().toString(36).slice(2, 8),
      ]);
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    it('finds the entities holding a value, by the stored field name, within the types asked', () => {
      const [first, second] = report.datasets;
      expect(report.existsDefault).toEqual([first, second].sort());
      expect(report.existsTags).toEqual([]);
      expect(report.existsDatasetsAndTags).toEqual([first, second].sort());
    });

    it('filters a number property by range, by its qualified name', () => {
      expect(report.range).toEqual([report.datasets[0]]);
    });
  });
}
