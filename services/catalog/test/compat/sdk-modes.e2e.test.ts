import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import { startTestCatalog, type TestCatalog } from '../harness.js';
import { pythonReport, pythonWithKafkaEmitter } from './kafka-emitter-python.js';

/** The pinned SDK's emitter in Rest.li and OpenAPI mode, with its DatasetPatchBuilder, unchanged. */
const found = await pythonWithKafkaEmitter();
const pythonSkip = skipUnlessCi('skip' in found ? found.skip : undefined);

interface ModeReport {
  openapi: boolean;
  description: string;
  customProperties: Record<string, string>;
  tags: string[];
  owners: [string, string][];
  terms: string[];
  upstreams: string[];
  source: string;
}

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping the SDK emitter modes on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(`the SDK emitter in both modes on ${family.name}`, () => {
    let catalog: TestCatalog;
    let report: Record<'restli' | 'openapi', ModeReport>;

    beforeAll(async () => {
      if ('skip' in found) return;
      catalog = await startTestCatalog(family.env());
      report = await pythonReport(found.python, 'sdk_modes.py', [
        catalog.baseUrl,
        Math.random().toString(36).slice(2, 8),
      ]);
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    for (const mode of ['restli', 'openapi'] as const) {
      it(`${mode}: writes, then applies the patch builders' tag, owner, term, property, description and upstream patches`, () => {
        const r = report[mode];
        expect(r.openapi).toBe(mode === 'openapi');
        expect(r.description).toBe('after');
        expect(r.customProperties).toEqual({ kept: 'yes', team: 'core' });
        expect(r.tags).toEqual([`urn:li:tag:${mode}`, 'urn:li:tag:second']);
        expect(r.owners).toEqual([['urn:li:corpuser:jdoe', 'TECHNICAL_OWNER']]);
        expect(r.terms).toEqual([`urn:li:glossaryTerm:${mode}`]);
        expect(r.upstreams).toEqual([r.source]);
      });
    }
  });
}
