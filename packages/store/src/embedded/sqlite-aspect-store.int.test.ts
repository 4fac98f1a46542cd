import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aspectStoreContract } from '@catalog/testkit';
import { openSqliteAspectStore } from './sqlite-aspect-store.js';

aspectStoreContract('embedded SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'aspect-store-'));
  const store = await openSqliteAspectStore({ file: join(dir, 'aspects.db') });
  return {
    store,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
