import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
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

/**
 * A writer on a thread of its own commits ~12 KiB every millisecond or so for `durationMs`, while this
 * thread keeps a read transaction open at every moment (each reader opens before the last one closes,
 * as overlapping searches do). Returns the largest WAL seen.
 */
async function largestWalUnderOverlappingReaders(file: string, durationMs: number): Promise<number> {
  const setup = new Database(file);
  setup.pragma('journal_mode = WAL');
  setup.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
  setup.close();
  const writer = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const db = new (require(workerData.driver))(workerData.file);
     db.pragma('busy_timeout = 5000');
     db.pragma('wal_autocheckpoint = 0');
     const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
     const pause = new Int32Array(new SharedArrayBuffer(4));
     const end = Date.now() + workerData.durationMs;
     while (Date.now() < end) {
       insert.run(require('node:crypto').randomBytes(12000));
       Atomics.wait(pause, 0, 0, 1);
     }
     db.close();
     parentPort.postMessage('done');`,
    {
      eval: true,
      workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), file, durationMs },
    },
  );
  const done = new Promise((resolve, reject) => {
    writer.once('message', resolve);
    writer.once('error', reject);
  });
  let finished = false;
  void done.then(() => (finished = true));
  const readers = [new Database(file), new Database(file)];
  const count = readers.map((db) => db.prepare('SELECT COUNT(*) AS n FROM t'));
  let largest = 0;
  let open = -1;
  try {
    for (let i = 0; !finished; i = 1 - i) {
      readers[i]!.exec('BEGIN');
      count[i]!.get();
      if (open >= 0) readers[open]!.exec('COMMIT');
      open = i;
      if (existsSync(`${file}-wal`)) largest = Math.max(largest, statSync(`${file}-wal`).size);
      await sleep(3);
    }
    await done;
  } finally {
    if (open >= 0) readers[open]!.exec('COMMIT');
    for (const db of readers) db.close();
    await writer.terminate();
  }
  return largest;
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

  it('cuts back a WAL that overlapping readers keep passive checkpoints from restarting', async () => {
    const directory = tempDir();
    const runs = {
      unbounded: join(directory, 'unbounded.sqlite'),
      bounded: join(directory, 'bounded.sqlite'),
    };
    // The same load, first with a bound the WAL never reaches: passive checkpoints alone let it grow.
    const never = new WalCheckpointer({ intervalMs: 20, truncateAtBytes: 2 ** 40 });
    const bound = new WalCheckpointer({ intervalMs: 20, truncateAtBytes: 1024 * 1024 });
    const largest: Record<string, number> = {};
    for (const [name, checkpointer] of [
      ['unbounded', never],
      ['bounded', bound],
    ] as const) {
      const file = runs[name];
      new Database(file).close();
      checkpointer.watch(file);
      try {
        largest[name] = await largestWalUnderOverlappingReaders(file, 2_500);
      } finally {
        checkpointer.unwatch(file);
      }
    }
    expect(largest['unbounded']).toBeGreaterThan(8 * 1024 * 1024);
    expect(largest['bounded']).toBeLessThan(6 * 1024 * 1024);
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
