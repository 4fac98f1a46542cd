import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import {
  datasetUrn,
  personalAccessToken,
  proposal,
  request,
  startTestCatalog,
  type TestCatalog,
} from '../harness.js';
import { sdkPython } from './kafka-emitter-python.js';

/**
 * The ecosystem's Actions framework (acryl-datahub-actions), unchanged: its `datahub-cloud` event source
 * polls GET /openapi/v1/events/poll, unwraps the platform events and hands out EntityChangeEvent_v1
 * envelopes; it receives the change event of a write made to the catalog.
 */
const run = promisify(execFile);
const { python, skip: pythonSkip } = sdkPython();

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping the Actions event source on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(
    `the Actions framework's datahub-cloud event source on ${family.name}`,
    () => {
      let catalog: TestCatalog;
      const urn = datasetUrn(`actions${Math.random().toString(36).slice(2, 8)}.orders`, 'kafka');

      beforeAll(async () => {
        catalog = await startTestCatalog(family.env());
      }, 300_000);
      afterAll(async () => catalog?.dispose());

      it('receives the entity change event of a tag added', { timeout: 240_000 }, async () => {
        const res = await request(catalog.baseUrl, 'POST', '/aspects?action=ingestProposal', {
          proposal: proposal(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:Actions' }] }),
        });
        expect(res.status, res.text).toBe(200);
        const token = await personalAccessToken(catalog.baseUrl);
        const { stdout, stderr } = await run(
          python!,
          [join(import.meta.dirname, 'actions_events_source.py'), catalog.baseUrl, token, urn],
          {
            env: { ...process.env, DATAHUB_TELEMETRY_ENABLED: 'false' },
            timeout: 180_000,
            maxBuffer: 1 << 24,
          },
        );
        const received = stdout
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        // The entity's creation first (it was written first), then its tag.
        expect(received, stderr).toEqual([
          {
            entityType: 'dataset',
            entityUrn: urn,
            category: 'LIFECYCLE',
            operation: 'CREATE',
            modifier: null,
            actor: 'urn:li:corpuser:__datahub_system',
          },
          {
            entityType: 'dataset',
            entityUrn: urn,
            category: 'TAG',
            operation: 'ADD',
            modifier: 'urn:li:tag:Actions',
            actor: 'urn:li:corpuser:__datahub_system',
          },
        ]);
      });
    },
  );
}
