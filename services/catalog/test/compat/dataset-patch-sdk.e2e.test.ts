import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import { startTestCatalog, type TestCatalog } from '../harness.js';
import { pythonReport, pythonWithKafkaEmitter } from './kafka-emitter-python.js';

/**
 * The pinned SDK's DatasetPatchBuilder and DataJobPatchBuilder, unchanged, through DataHubGraph.emit_mcp
 * in both emitter modes: the catalog applies their patches by the ecosystem's templates (a schema field's
 * tags and terms keyed inside its entry, fine-grained lineages by their keys, documentation by source).
 */
const found = await pythonWithKafkaEmitter();
const pythonSkip = skipUnlessCi('skip' in found ? found.skip : undefined);

interface FieldRead {
  description: string | null;
  tags: string[];
  terms: string[];
  termsStamped: boolean;
}
interface LineageSteps {
  added: Record<string, unknown>[];
  removed: unknown[];
  set: number;
  cleared: number;
}
interface ModeReport {
  fields: Record<'added' | 'removed' | 'newFields', Record<string, FieldRead>>;
  datasetLineage: LineageSteps;
  jobLineage: LineageSteps;
  documentation: { added: string[]; removed: string[] };
}
type Report = Record<'restli' | 'openapi', ModeReport>;

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping the SDK dataset patch builder on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(`the SDK dataset and data job patch builders on ${family.name}`, () => {
    let catalog: TestCatalog;
    let report: Report;
    const run = Math.random().toString(36).slice(2, 8);
    const tag = `urn:li:tag:sdk_patch_${run}`;
    const term = `urn:li:glossaryTerm:sdk_patch_${run}`;

    beforeAll(async () => {
      if ('skip' in found) return;
      catalog = await startTestCatalog(family.env());
      report = await pythonReport(found.python, 'dataset_patch_sdk.py', [catalog.baseUrl, run]);
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    for (const mode of ['restli', 'openapi'] as const) {
      it(`for_field adds a tag (once) and a term to a field, keeping its description, and removes them (${mode} mode)`, () => {
        const { added, removed } = report[mode].fields;
        expect(added['foo.bar']).toEqual({
          description: 'kept',
          tags: [tag],
          terms: [term],
          termsStamped: true,
        });
        expect(removed['foo.bar']).toEqual({ description: 'kept', tags: [], terms: [], termsStamped: true });
      });

      it(`for_field on fields without an entry creates them with their fieldPath (${mode} mode)`, () => {
        const { newFields } = report[mode].fields;
        expect(Object.keys(newFields)).toEqual(['foo.bar', 'new_a', 'new/b']);
        expect(newFields['new_a']).toMatchObject({ tags: [tag], terms: [] });
        expect(newFields['new/b']).toMatchObject({ tags: [], terms: [term], termsStamped: true });
      });

      for (const which of ['datasetLineage', 'jobLineage'] as const) {
        it(`adds and removes a fine-grained lineage by its keys, and sets the whole list (${which}, ${mode} mode)`, () => {
          const steps = report[mode][which];
          expect(steps.added).toEqual([
            expect.objectContaining({
              upstreamType: 'FIELD_SET',
              downstreamType: 'FIELD',
              transformOperation: 'OPERATION',
              confidenceScore: 1.0,
            }),
          ]);
          expect(steps.removed).toEqual([]);
          expect(steps.set).toBe(1);
          expect(steps.cleared).toBe(0);
        });
      }

      it(`adds documentation from two sources and removes all of it (${mode} mode)`, () => {
        expect(report[mode].documentation).toEqual({ added: ['from a', 'from b'], removed: [] });
      });
    }
  });
}
