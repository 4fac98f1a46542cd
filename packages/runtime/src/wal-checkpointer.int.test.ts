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
import { WalCheckpointer, type WalCheckpointStats } from './wal-checkpointer.js';

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
async function walUnderOverlappingReaders(file: string, durationMs: number): Promise<{ largest: number }> {
  const setup = new Database(file);
  setup.pragma('journal_mode = WAL');
  setup.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
  setup.close();
  const writer = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const db = new (require(workerData.driver))(workerData.file);
     db.pragma('busy_timeout = 5000');
     db.pragma('wal_autocheckpoint = 0');
     // As the embedded log commits by default: no fsync per commit, which on a disk other tests keep
     // busy would hold the write lock through most of a TRUNCATE checkpoint's wait.
     db.pragma('synchronous = NORMAL');
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
      const size = existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0;
      largest = Math.max(largest, size);
      await sleep(3);
    }
    await done;
  } finally {
    if (open >= 0) readers[open]!.exec('COMMIT');
    for (const db of readers) db.close();
    await writer.terminate();
  }
  return { largest };
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
    // The same load, first with a bound the WAL never reaches: passive checkpoints alone let it grow.
    // Retries come every 20 ms, so that a reader the machine's load stretches past a TRUNCATE checkpoint's
    // wait costs one retry, not the seconds of the default backoff.
    const retry = { intervalMs: 20, truncateRetryMs: 20, truncateRetryMaxMs: 20 };
    const runs = [
      ['unbounded', new WalCheckpointer({ ...retry, truncateAtBytes: 2 ** 40 })],
      ['bounded', new WalCheckpointer({ ...retry, truncateAtBytes: 1024 * 1024 })],
    ] as const;
    const seen: Record<string, { largest: number; cuts: number; stats: WalCheckpointStats }> = {};
    for (const [name, checkpointer] of runs) {
      const file = join(directory, `${name}.sqlite`);
      new Database(file).close();
      checkpointer.watch(file);
      try {
        // The bounded run goes on until the thread has reported two truncations (at most four rounds of
        // 6 s): on a loaded machine a TRUNCATE can find the readers overlapping for seconds on end, and the
        // assertion is about the cuts, not how soon they come. The cuts are counted by the thread, not by
        // sampling the file's size: a reader loop the machine holds up can miss a cut the writer refills.
        let largest = (await walUnderOverlappingReaders(file, name === 'bounded' ? 6_000 : 2_500)).largest;
        for (
          let round = 1;
          name === 'bounded' && checkpointer.stats(file).truncated < 2 && round < 4;
          round++
        )
          largest = Math.max(largest, (await walUnderOverlappingReaders(file, 6_000)).largest);
        await sleep(100); // the thread's last reports
        const stats = checkpointer.stats(file);
        seen[name] = { largest, cuts: stats.truncated, stats };
      } finally {
        checkpointer.unwatch(file);
      }
    }
    expect(seen['unbounded']).toMatchObject({ cuts: 0, stats: { heldOff: 0, failed: 0 } });
    expect(seen['unbounded']!.largest).toBeGreaterThan(8 * 1024 * 1024);
    expect(seen['bounded']!.stats, JSON.stringify(seen)).toMatchObject({ failed: 0 });
    expect(seen['bounded']!.cuts, JSON.stringify(seen)).toBeGreaterThanOrEqual(2);
    expect(seen['bounded']!.largest, JSON.stringify(seen)).toBeLessThan(seen['unbounded']!.largest / 2);
  });

  it('refuses options that are not positive integers, or a retry ceiling below the first retry', () => {
    expect(() => new WalCheckpointer({ intervalMs: 0 })).toThrow(/intervalMs must be a positive integer/);
    expect(() => new WalCheckpointer({ truncateAtBytes: 1.5 })).toThrow(/truncateAtBytes/);
    expect(() => new WalCheckpointer({ truncateRetryMs: -1 })).toThrow(/truncateRetryMs/);
    expect(() => new WalCheckpointer({ truncateRetryMs: 100, truncateRetryMaxMs: 50 })).toThrow(
      /truncateRetryMaxMs \(50\) must not be below truncateRetryMs \(100\)/,
    );
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
