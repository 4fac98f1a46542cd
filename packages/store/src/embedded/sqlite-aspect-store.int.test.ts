import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aspectStoreContract, type SystemMetadataEdit } from '@catalog/testkit';
import Database from 'better-sqlite3';
import { openSqliteAspectStore } from './sqlite-aspect-store.js';

aspectStoreContract('embedded SQLite', async (options = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'aspect-store-'));
  const file = join(dir, 'aspects.db');
  const store = await openSqliteAspectStore({ file, ...options });
  return {
    store,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
    /** Through a connection of its own, as another process (an older release) would write the file. */
    async editSystemMetadata(urn: string, aspect: string, edit: SystemMetadataEdit) {
      const db = new Database(file);
      try {
        db.pragma('busy_timeout = 5000');
        const rows = db
          .prepare<[string, string], { version: number; system_metadata: string | null }>(
            'SELECT version, system_metadata FROM aspects WHERE urn = ? AND aspect = ?',
          )
          .all(urn, aspect);
        const update = db.prepare<[string | null, string, string, number]>(
          'UPDATE aspects SET system_metadata = ? WHERE urn = ? AND aspect = ? AND version = ?',
        );
        for (const row of rows) {
          const edited = edit(row.system_metadata === null ? null : JSON.parse(row.system_metadata));
          update.run(edited === null ? null : JSON.stringify(edited), urn, aspect, row.version);
        }
      } finally {
        db.close();
      }
    },
  };
});
