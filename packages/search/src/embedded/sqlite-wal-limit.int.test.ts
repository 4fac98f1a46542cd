import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { datasetDoc, datasetSpec, uniqueNamespace } from '@catalog/testkit';
import { openEmbeddedSearch, type EmbeddedSearch } from './open-embedded-search.js';

const MIB = 1024 * 1024;
let dir: string | undefined;
let opened: EmbeddedSearch | undefined;

afterEach(async () => {
  await opened?.close();
  opened = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the embedded search file after a bulk load', () => {
  it('cuts its WAL back to the limit once a checkpoint lets the log start over', async () => {
    dir = mkdtempSync(join(tmpdir(), 'search-wal-'));
    const file = join(dir, 'search.sqlite');
    // Checkpoints only when asked (as with the catalog's background checkpointer).
    opened = await openEmbeddedSearch({ file, autoCheckpointPages: 0, walLimitBytes: MIB });
    await opened.search.ensureIndex(datasetSpec);
    const ns = uniqueNamespace();
    const description = 'ledger of every order '.repeat(40);
    for (let batch = 0; batch < 20; batch++) {
      await opened.search.upsert(
        Array.from({ length: 100 }, (_, i) => datasetDoc(ns, { name: `t${batch}_${i}`, description })),
      );
    }
    const wal = `${file}-wal`;
    expect(statSync(wal).size).toBeGreaterThan(4 * MIB);
    // A checkpoint from another connection, as the background checkpointer runs it.
    const checkpointer = new Database(file);
    checkpointer.pragma('wal_checkpoint(PASSIVE)');
    checkpointer.close();
    await opened.search.upsert([datasetDoc(ns, { name: 'after', description })]);
    expect(statSync(wal).size).toBeLessThanOrEqual(MIB);
  });
});
