import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import { startTestCatalog, type TestCatalog } from '../harness.js';
import { pythonReport, pythonWithKafkaEmitter } from './kafka-emitter-python.js';

/**
 * The pinned SDK's StructuredPropertyPatchBuilder, unchanged, through DataHubGraph.emit_mcps in both of
 * its emitter modes: the paths it emits (`/entityTypes/<urn>`, `/allowedValues/<value>`, whole fields)
 * patch an existing definition, read back with the SDK.
 */
const found = await pythonWithKafkaEmitter();
const pythonSkip = skipUnlessCi('skip' in found ? found.skip : undefined);

interface Definition {
  qualifiedName: string;
  valueType: string;
  cardinality: string;
  displayName: string | null;
  description: string | null;
  entityTypes: string[];
  allowedValues: [string | number, string | null][];
}
type Report = Record<'restli' | 'openapi', { tier: Definition; retention: Definition }>;

const DATASET = 'urn:li:entityType:datahub.dataset';
const CHART = 'urn:li:entityType:datahub.chart';

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping the SDK structured-property patch builder on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(`the SDK structured-property patch builder on ${family.name}`, () => {
    let catalog: TestCatalog;
    let report: Report;
    const run = Math.random().toString(36).slice(2, 8);

    beforeAll(async () => {
      if ('skip' in found) return;
      catalog = await startTestCatalog(family.env());
      report = await pythonReport(found.python, 'structured_property_patch_sdk.py', [catalog.baseUrl, run]);
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    for (const mode of ['restli', 'openapi'] as const) {
      it(`adds an entity type and allowed values to a definition, keyed by value (${mode} mode)`, () => {
        expect(report[mode].tier).toEqual({
          qualifiedName: `io.sdk_patch_${run}.${mode}_tier`,
          valueType: 'urn:li:dataType:datahub.string',
          cardinality: 'MULTIPLE',
          displayName: 'Tier',
          description: 'How valuable',
          entityTypes: [DATASET, CHART],
          allowedValues: [
            ['gold', null],
            ['silver', 'second'],
            ['a/b', null],
          ],
        });
      });

      it(`names a stored number allowed value by the float the SDK writes (${mode} mode)`, () => {
        expect(report[mode].retention).toMatchObject({
          valueType: 'urn:li:dataType:datahub.number',
          entityTypes: [DATASET],
          allowedValues: [
            [30, 'thirty days'],
            [90, null],
          ],
        });
      });
    }
  });
}
