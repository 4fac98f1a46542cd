import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { graphIndexContract, searchIndexContract, timeseriesIndexContract } from '@catalog/testkit';
import { openEmbeddedSearch, type EmbeddedSearch } from './open-embedded-search.js';

async function fresh(): Promise<{ opened: EmbeddedSearch; cleanup(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'embedded-search-'));
  const opened = await openEmbeddedSearch({ file: join(dir, 'search.sqlite') });
  return {
    opened,
    async cleanup() {
      await opened.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

searchIndexContract('embedded SQLite', async () => {
  const { opened, cleanup } = await fresh();
  return { index: opened.search, cleanup };
});

graphIndexContract('embedded SQLite', async () => {
  const { opened, cleanup } = await fresh();
  return { graph: opened.graph, cleanup };
});

timeseriesIndexContract('embedded SQLite', async () => {
  const { opened, cleanup } = await fresh();
  return { timeseries: opened.timeseries, cleanup };
});
