import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aspectStoreContract, type SystemMetadataEdit } from '@catalog/testkit';
import Database from 'better-sqlite3';
import { ASPECT_ID, URN_ID } from './keyed-by-ids.js';
import { LAST_OBSERVED_OF, RUN_ID_OF, RUN_ROW_OF } from './run-columns.js';
import { openSqliteAspectStore } from './sqlite-aspect-store.js';
import { decodeNullableJson, type StoredJson } from './stored-json.js';

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
    /**
     * Through a connection of its own, as another process would write the file: it stores the edited
     * metadata as plain JSON text, which the store reads as it reads deflated JSON, and sets the run
     * columns from it.
     */
    async editSystemMetadata(urn: string, aspect: string, edit: SystemMetadataEdit) {
      const db = new Database(file);
      try {
        db.pragma('busy_timeout = 5000');
        const rows = db
          .prepare<[string, string], { version: number; system_metadata: StoredJson | null }>(
            `SELECT version, system_metadata FROM aspects WHERE urn_id = ${URN_ID('?')} AND aspect_id = ${ASPECT_ID('?')}`,
          )
          .all(urn, aspect);
        const addRun = db.prepare<[string | null]>(
          `INSERT OR IGNORE INTO runs (run_id) VALUES (${RUN_ID_OF('?')})`,
        );
        const update = db.prepare<[{ text: string | null; urn: string; aspect: string; version: number }]>(
          `UPDATE aspects SET system_metadata = @text,
             run_id = CASE WHEN version = 0 THEN ${RUN_ROW_OF('@text')} END,
             last_observed = CASE WHEN version = 0 THEN ${LAST_OBSERVED_OF('@text', 'created_on')} END
           WHERE urn_id = ${URN_ID('@urn')} AND aspect_id = ${ASPECT_ID('@aspect')} AND version = @version`,
        );
        for (const row of rows) {
          const text = decodeNullableJson(row.system_metadata);
          const edited = edit(text === null ? null : JSON.parse(text));
          const editedText = edited === null ? null : JSON.stringify(edited);
          addRun.run(editedText);
          update.run({
            text: editedText,
            urn,
            aspect,
            version: row.version,
          });
        }
      } finally {
        db.close();
      }
    },
  };
});
