import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import { startTestCatalog, type TestCatalog } from '../harness.js';
import { pythonReport, pythonWithKafkaEmitter } from './kafka-emitter-python.js';

/** The pinned SDK's OpenAPI scroll (DataHubGraph.scroll_entities), unchanged: sort, slices, filter. */
const found = await pythonWithKafkaEmitter();
const pythonSkip = skipUnlessCi('skip' in found ? found.skip : undefined);

interface ScrollReport {
  names: string[];
  slices: string[][];
  all: string[];
  kafka: string[];
  expectedKafka: string[];
  total: number;
  typedName: string;
  hasSystemMetadata: boolean;
}

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping the SDK's OpenAPI scroll on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(`the SDK's OpenAPI scroll on ${family.name}`, () => {
    let catalog: TestCatalog;
    let report: ScrollReport;

    beforeAll(async () => {
      if ('skip' in found) return;
      catalog = await startTestCatalog(family.env());
      report = await pythonReport(found.python, 'openapi_scroll.py', [
        catalog.baseUrl,
        Math.random().toString(36).slice(2, 8),
      ]);
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    it('pages a scroll sorted by name, descending, two at a time', () => {
      expect(report.names).toEqual(['foxtrot', 'echo', 'delta', 'charlie', 'bravo', 'alpha']);
    });

    it('splits the scroll into disjoint slices that together hold every entity', () => {
      expect(report.slices.flat().sort()).toEqual(report.all);
      expect(new Set(report.slices.flat()).size).toBe(report.all.length);
    });

    it('filters by platform and returns typed aspects with their system metadata', () => {
      expect(report.kafka).toEqual(report.expectedKafka);
      expect(report.total).toBe(report.all.length);
      expect(report.typedName).toBe('DatasetPropertiesClass');
      expect(report.hasSystemMetadata).toBe(true);
    });
  });
}
