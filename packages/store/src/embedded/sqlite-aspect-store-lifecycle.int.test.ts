import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { waitFor } from '@catalog/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { AspectWrite } from '../port.js';
import { openSqliteAspectStore } from './sqlite-aspect-store.js';
import { SCHEMA_VERSION } from './sqlite-schema.js';

const DAY = 24 * 60 * 60 * 1000;

function write(requestId: string, value: Record<string, unknown>): AspectWrite {
  return {
    requestId,
    mode: 'UPSERT',
    urn: 'urn:li:corpuser:lifecycle',
    aspect: 'corpUserInfo',
    value,
    created: { time: 1, actor: 'urn:li:corpuser:test' },
  };
}

describe('embedded aspect store file and retention', () => {
  const dirs: string[] = [];
  const tempFile = () => {
    const dir = mkdtempSync(join(tmpdir(), 'aspect-lifecycle-'));
    dirs.push(dir);
    return join(dir, 'nested', 'aspects.db');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('forgets request ids older than the retention, and only those', async () => {
    let now = 1_000 * DAY;
    const store = await openSqliteAspectStore({
      file: tempFile(),
      requestRetentionMs: DAY,
      clock: () => now,
    });
    await store.applyBatch([write('old', { v: 1 })]);
    now += DAY / 2;
    await store.applyBatch([write('recent', { v: 2 })]);
    now += DAY / 2 + 60_000;
    // 'old' is past the retention, 'recent' is not.
    expect(await store.pruneRequests()).toBe(1);
    const [old, recent] = await store.applyBatch([write('old', { v: 1 }), write('recent', { v: 2 })]);
    expect(old).toMatchObject({ replayed: false, status: 'UPDATED' });
    expect(recent).toMatchObject({ replayed: true, status: 'UPDATED' });
    await store.close();
  });

  it('prunes request ids down to maxRequestRows after a burst, without waiting for the timer', async () => {
    const file = tempFile();
    const store = await openSqliteAspectStore({ file, maxRequestRows: 5_000, requestPruneIntervalMs: 0 });
    for (let batch = 0; batch < 4; batch++) {
      await store.applyBatch(Array.from({ length: 3_000 }, (_, n) => write(`r${batch}-${n}`, { batch, n })));
    }
    const raw = new Database(file, { readonly: true });
    const count = () => (raw.prepare('SELECT count(*) AS n FROM applied_requests').get() as { n: number }).n;
    await waitFor(() => count() === 5_000, 10_000, 'the prune after the burst');
    raw.close();
    // The newest are kept: the last batch replays, the first is applied anew.
    expect((await store.applyBatch([write('r3-2999', { v: 'x' })]))[0]?.replayed).toBe(true);
    expect((await store.applyBatch([write('r0-0', { v: 'x' })]))[0]?.replayed).toBe(false);
    await store.close();
  });

  it('forgets request ids past the window in the background every requestPruneIntervalMs', async () => {
    let now = 1_000 * DAY;
    const file = tempFile();
    const store = await openSqliteAspectStore({
      file,
      requestRetentionMs: DAY,
      requestPruneIntervalMs: 20,
      clock: () => now,
    });
    await store.applyBatch(Array.from({ length: 10 }, (_, n) => write(`t${n}`, { n })));
    now += 2 * DAY;
    const raw = new Database(file, { readonly: true });
    const count = () => (raw.prepare('SELECT count(*) AS n FROM applied_requests').get() as { n: number }).n;
    expect(count()).toBe(10);
    await waitFor(() => count() === 0, 10_000, 'the timed prune');
    raw.close();
    await store.close();
  });

  it('keeps data across reopen and stamps the schema version', async () => {
    const file = tempFile();
    const first = await openSqliteAspectStore({ file, durability: 'power-loss' });
    await first.applyBatch([write('r1', { v: 1 })]);
    await first.close();
    const second = await openSqliteAspectStore({ file });
    expect((await second.get('urn:li:corpuser:lifecycle', 'corpUserInfo'))?.value).toEqual({ v: 1 });
    expect((await second.applyBatch([write('r1', { v: 1 })]))[0]?.replayed).toBe(true);
    await second.close();
    await second.close();
    const raw = new Database(file);
    expect(raw.prepare('SELECT MAX(version) AS v FROM schema_version').get()).toEqual({ v: SCHEMA_VERSION });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.prepare('INSERT INTO schema_version (version, applied_at) VALUES (99, 0)').run();
    raw.close();
    await expect(openSqliteAspectStore({ file })).rejects.toThrow(/schema version 99/);
  });

  it('rejects a malformed batch before writing any of it', async () => {
    const store = await openSqliteAspectStore({ file: tempFile() });
    const { value: _value, ...withoutValue } = write('bad', {});
    await expect(store.applyBatch([write('good', { v: 1 }), withoutValue])).rejects.toThrow(TypeError);
    expect(await store.get('urn:li:corpuser:lifecycle', 'corpUserInfo')).toBeNull();
    await expect(store.scan({ limit: 1, start: 0, after: 'x' })).rejects.toThrow(TypeError);
    await store.close();
  });
});
