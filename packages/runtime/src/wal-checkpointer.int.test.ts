import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { readAdapterSettings } from './adapter-settings.js';
import { openAspectStore } from './adapters.js';
import { EnvReader } from './env-reader.js';
import { WalCheckpointer } from './wal-checkpointer.js';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function tempDir(): string {
  dir = mkdtempSync(join(tmpdir(), 'wal-checkpointer-'));
  return dir;
}

/** Size of the database file proper: pages reach it only through a checkpoint. */
const mainFileBytes = (file: string): number => statSync(file).size;

async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('WalCheckpointer', () => {
  it('copies committed WAL frames into the database file while the writer never checkpoints', async () => {
    const file = join(tempDir(), 'data.sqlite');
    const writer = new Database(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const insert = writer.prepare('INSERT INTO t (body) VALUES (?)');
    writer.transaction(() => {
      for (let i = 0; i < 2_000; i++) insert.run('x'.repeat(1_000));
    })();
    const before = mainFileBytes(file);
    expect(before).toBeLessThan(100_000);

    const checkpointer = new WalCheckpointer({ intervalMs: 20 });
    checkpointer.watch(file);
    try {
      await eventually(() => mainFileBytes(file) > 2_000_000);
    } finally {
      checkpointer.unwatch(file);
      writer.close();
    }
    expect(checkpointer.files).toEqual([]);
  });

  it('keeps watching a file until every watcher has let go', () => {
    const checkpointer = new WalCheckpointer({ intervalMs: 1_000 });
    const file = join(tempDir(), 'shared.sqlite');
    new Database(file).close();
    checkpointer.watch(file);
    checkpointer.watch(file);
    checkpointer.unwatch(file);
    expect(checkpointer.files).toEqual([file]);
    checkpointer.unwatch(file);
    expect(checkpointer.files).toEqual([]);
  });

  it('checkpoints the embedded store the catalog opens, whose commits only checkpoint at the backstop', async () => {
    const dataDir = tempDir();
    const settings = readAdapterSettings(new EnvReader({ CATALOG_DATA_DIR: dataDir }));
    const store = await openAspectStore(settings, pino({ level: 'silent' }));
    const file = join(dataDir, 'aspects.sqlite');
    try {
      const start = mainFileBytes(file);
      await store.applyBatch(
        Array.from({ length: 1_000 }, (_, i) => ({
          requestId: `r${i}`,
          mode: 'UPSERT' as const,
          urn: `urn:li:corpuser:user${i}`,
          aspect: 'corpUserInfo',
          // Random, so the store's compression cannot shrink what the file must grow by.
          value: { active: true, displayName: randomBytes(3_000).toString('base64') },
          created: { time: 1, actor: 'urn:li:corpuser:datahub' },
        })),
      );
      await eventually(() => mainFileBytes(file) > start + 2_000_000);
    } finally {
      await store.close();
    }
  });
});
