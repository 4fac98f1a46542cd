import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalAccessToken, startTestCatalog, type TestCatalog } from '../harness.js';
import { FAMILIES } from '../families.js';
import { sdkPython } from './kafka-emitter-python.js';

const { python, skip: unavailable } = sdkPython();
const noPython = unavailable ?? '';

const DATASET_SNAPSHOT = 'com.linkedin.metadata.snapshot.DatasetSnapshot';

for (const family of FAMILIES) {
  const skip = noPython || family.skip;
  if (skip) console.warn(`skipping the legacy MCE SDK suite on ${family.name}: ${skip}`);

  describe.skipIf(Boolean(skip))(`the Python SDK's emit_mce against the ${family.name} catalog`, () => {
    let catalog: TestCatalog;
    let report: Record<string, unknown>;
    const run = Date.now().toString(36);
    const orders = `urn:li:dataset:(urn:li:dataPlatform:mysql,mce_${run}.orders,PROD)`;

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      const script = join(dirname(fileURLToPath(import.meta.url)), 'legacy_mce_sdk.py');
      const { stdout } = await promisify(execFile)(python!, [script, catalog.baseUrl, run], {
        timeout: 180_000,
        env: {
          ...process.env,
          DATAHUB_TELEMETRY_ENABLED: 'false',
          DATAHUB_SUPPRESS_LOGGING_MANAGER: '1',
          DATAHUB_GMS_TOKEN: await personalAccessToken(catalog.baseUrl),
        },
        maxBuffer: 10 * 1024 * 1024,
      });
      report = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    }, 240_000);
    afterAll(async () => catalog?.dispose());

    it('emits MetadataChangeEvents through /entities?action=ingest', () => {
      expect(report['emitted']).toBe(true);
    });

    it('reads every aspect of the snapshot back with get_aspect, unions included', () => {
      expect(report['description']).toBe('One row per order');
      expect(report['tags']).toEqual(['urn:li:tag:pii']);
      expect(report['platformSchema']).toBe('MySqlDDLClass');
      expect(report['fieldTags']).toEqual({ email: ['urn:li:tag:pii'] });
      expect(report['displayName']).toBe('MCE User');
      expect(report['runId']).toBe(`mce-${run}`);
    });

    it('serves the snapshot from GET /entities/<urn>', () => {
      expect(report['snapshotStatus']).toBe(200);
      const snapshot = (report['snapshot'] as { value: Record<string, { urn: string; aspects: object[] }> })
        .value[DATASET_SNAPSHOT]!;
      expect(snapshot.urn).toBe(orders);
      const names = snapshot.aspects.map((a) => Object.keys(a)[0]);
      expect(names).toEqual(
        expect.arrayContaining([
          'com.linkedin.metadata.key.DatasetKey',
          'com.linkedin.dataset.DatasetProperties',
          'com.linkedin.common.GlobalTags',
          'com.linkedin.schema.SchemaMetadata',
          'com.linkedin.schema.EditableSchemaMetadata',
          'com.linkedin.common.Status',
        ]),
      );
    });
  });
}
