import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import { startTestCatalog, type TestCatalog } from '../harness.js';
import { pythonReport, pythonWithKafkaEmitter } from './kafka-emitter-python.js';

/**
 * The pinned SDK's platform resource search, unchanged: its field queries on the OpenAPI v3 entity
 * scroll (`(primaryKey:"k" OR secondaryKeys:"urn\:li\:...")`, `AND -platform.keyword:"..."`).
 */
const found = await pythonWithKafkaEmitter();
const pythonSkip = skipUnlessCi('skip' in found ? found.skip : undefined);

interface Report {
  ids: string[];
  byPrimary: string[];
  secondaryOnlyAsPrimary: string[];
  bySecondary: string[];
  byUrnSecondary: string[];
  typeNotP1: string[];
}

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping the SDK's platform resource search on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(`the SDK's platform resource search on ${family.name}`, () => {
    let catalog: TestCatalog;
    let report: Report;

    beforeAll(async () => {
      if ('skip' in found) return;
      catalog = await startTestCatalog(family.env());
      report = await pythonReport(found.python, 'platform_resource_search.py', [
        catalog.baseUrl,
        Math.random().toString(36).slice(2, 8),
      ]);
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    it('finds a resource by its primary key, and a secondary key only when asked to', () => {
      const [first] = report.ids;
      expect(report.byPrimary).toEqual([first]);
      expect(report.secondaryOnlyAsPrimary).toEqual([]);
      expect(report.bySecondary).toEqual([first]);
    });

    it('finds a resource by an urn secondary key, escaped as the SDK writes it', () => {
      expect(report.byUrnSecondary).toEqual([report.ids[1]]);
    });

    it('combines a type match with a negated platform match', () => {
      expect(report.typeNotP1).toEqual([report.ids[1]]);
    });
  });
}
