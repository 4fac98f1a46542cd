import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalAccessToken, startTestCatalog, type TestCatalog } from '../harness.js';
import { sdkPython } from './kafka-emitter-python.js';

const { python, skip: unavailable } = sdkPython();
const skip = unavailable ?? '';
if (skip) console.warn(`skipping the Python SDK compatibility suite: ${skip}`);

describe.skipIf(skip !== '')('the ecosystem Python SDK and CLI against the embedded catalog', () => {
  let catalog: TestCatalog;
  let report: Record<string, unknown>;

  beforeAll(async () => {
    catalog = await startTestCatalog();
    const script = join(dirname(fileURLToPath(import.meta.url)), 'sdk_roundtrip.py');
    const { stdout } = await promisify(execFile)(
      python!,
      [script, catalog.baseUrl, Date.now().toString(36)],
      {
        timeout: 180_000,
        // The SDK and the CLI it runs authenticate with a personal access token.
        env: {
          ...process.env,
          DATAHUB_TELEMETRY_ENABLED: 'false',
          DATAHUB_SUPPRESS_LOGGING_MANAGER: '1',
          DATAHUB_GMS_TOKEN: await personalAccessToken(catalog.baseUrl),
        },
        maxBuffer: 10 * 1024 * 1024,
      },
    );
    report = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
  }, 240_000);
  afterAll(async () => catalog?.dispose());

  it('connects through /config and emits single and batched proposals', () => {
    expect(report['connected']).toBe(true);
    expect(report['emitted']).toBe(true);
  });

  it('reads back aspects with get_aspect, and None for a missing one', () => {
    expect(report['properties']).toEqual({
      description: 'One row per order',
      customProperties: { team: 'sales' },
    });
    expect(report['owners']).toEqual(['urn:li:corpuser:jdoe']);
    expect(report['fieldPaths']).toEqual(['id', 'customer']);
    expect(report['missingAspect']).toBe(true);
    expect(report['exists']).toBe(true);
  });

  it('reads the entity through entitiesV2 and time-series values', () => {
    expect(report['rawAspects']).toEqual(['datasetProperties', 'globalTags']);
    expect(report['profileRowCounts']).toEqual([42]);
  });

  it('reads an aspect with the datahub CLI', () => {
    expect(report['cliExit']).toBe(0);
    expect(report['cliOutput']).toMatchObject({ datasetProperties: { description: 'One row per order' } });
  });
});
