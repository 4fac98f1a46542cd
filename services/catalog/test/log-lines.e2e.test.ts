import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { duplicateJsonKeys } from '@catalog/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnService, waitForHealth } from './child-catalog.js';
import { datasetUrn, post, proposal, SYSTEM_AUTH_HEADERS } from './harness.js';

describe('log lines', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'catalog-log-lines-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('every line a catalog writes while it starts, serves and stops is JSON without a repeated key', async () => {
    const port = await freePort();
    // As `pnpm start` runs it: consumers in worker threads, each with its own logger, at debug.
    const catalog = spawnService('services/catalog/src/main.ts', {
      PORT: String(port),
      HOST: '127.0.0.1',
      CATALOG_DATA_DIR: dataDir,
      LOG_LEVEL: 'debug',
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    try {
      await waitForHealth(baseUrl, catalog);
      const written = await post(baseUrl, '/aspects?action=ingestProposal', {
        proposal: proposal(datasetUrn('log_lines.one'), 'datasetProperties', { description: 'x' }),
        async: 'false',
      });
      expect(written.status, written.text).toBe(200);
      await fetch(`${baseUrl}/api/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...SYSTEM_AUTH_HEADERS },
        body: JSON.stringify({ query: '{ me { corpUser { urn } } }' }),
      });
      await post(baseUrl, '/aspects?action=ingestProposal', undefined, '{not json');
      await fetch(`${baseUrl}/entities/${encodeURIComponent(datasetUrn('log_lines.none'))}`);
    } finally {
      catalog.process.kill('SIGTERM');
      await catalog.exited;
    }
    const lines = catalog
      .output()
      .split('\n')
      .filter((line) => line !== '');
    // Each consumer thread and the gateway's parts logged something.
    expect(lines.length).toBeGreaterThan(10);
    const bad = lines.filter((line) => {
      try {
        JSON.parse(line);
      } catch {
        return true;
      }
      return duplicateJsonKeys(line).length > 0;
    });
    expect(bad).toEqual([]);
  });
});
