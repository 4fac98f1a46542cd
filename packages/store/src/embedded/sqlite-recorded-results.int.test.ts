import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApplyResult, AspectWrite, SystemMetadata } from '../port.js';
import { PACKED_REFERENCES, WHOLE_RESULT } from './recorded-result.js';
import { openSqliteAspectStore } from './sqlite-aspect-store.js';
import { migrateSchema, SCHEMA_VERSION } from './sqlite-schema.js';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,recorded.orders,PROD)';
const KEY = { name: 'datasetKey', value: { platform: 'urn:li:dataPlatform:hive', name: 'recorded.orders' } };
const HOUR = 60 * 60 * 1000;

function write(
  requestId: string,
  aspect: string,
  value: Record<string, unknown> | undefined,
  extra: Partial<AspectWrite> = {},
): AspectWrite {
  return {
    requestId,
    mode: value === undefined ? 'DELETE' : 'UPSERT',
    urn: URN,
    aspect,
    ...(value === undefined ? {} : { value, keyAspect: KEY }),
    created: { time: 1_700_000_000_000, actor: 'urn:li:corpuser:recorded' },
    ...extra,
  };
}

/** The same writes again, with values that a re-execution would store. */
const redelivered = (writes: readonly AspectWrite[]) =>
  writes.map((w) => (w.value === undefined ? w : { ...w, value: { redelivered: true } }));

describe('embedded aspect store request records', () => {
  const dirs: string[] = [];
  const tempFile = () => {
    const dir = mkdtempSync(join(tmpdir(), 'aspect-records-'));
    dirs.push(dir);
    return join(dir, 'aspects.db');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('records a result as references to the rows it names, not copies of their values', async () => {
    const file = tempFile();
    const store = await openSqliteAspectStore({ file });
    const description = 'one row per order '.repeat(100);
    const [result] = await store.applyBatch([
      write(
        'big',
        'datasetProperties',
        { description },
        {
          systemMetadata: { runId: 'run-1', lastObserved: 5 },
          entityDefaults: [{ name: 'browsePathsV2', value: { path: [{ id: 'hive' }] } }],
        },
      ),
    ]);
    await store.close();
    expect(result).toMatchObject({ status: 'CREATED', keyCreated: {}, defaultsCreated: [{}] });
    const raw = new Database(file, { readonly: true });
    const record = raw
      .prepare<[], { result: Buffer; format: number }>('SELECT result, format FROM applied_requests')
      .get();
    raw.close();
    expect(record?.format).toBe(PACKED_REFERENCES);
    const bytes = record?.result.toString('latin1') ?? '';
    expect(bytes).not.toContain('one row per order');
    // The URN and the aspect names by their ids.
    expect(bytes).not.toContain('recorded.orders');
    expect(bytes).not.toContain('browsePathsV2');
    // Three aspects with one system metadata, kept once.
    expect(bytes.match(/run-1/g)).toHaveLength(1);
    expect(bytes.length).toBeLessThan(100);
  });

  it('replays after a restart what the first delivery answered', async () => {
    const file = tempFile();
    const writes = [
      write(
        'created',
        'datasetProperties',
        { v: 1 },
        {
          systemMetadata: { runId: 'a', lastObserved: 1 },
          entityDefaults: [{ name: 'browsePathsV2', value: { path: [{ id: 'hive' }] } }],
        },
      ),
      write('unchanged', 'datasetProperties', { v: 1 }, { systemMetadata: { runId: 'b', lastObserved: 2 } }),
      write('updated', 'datasetProperties', { v: 2 }),
      write('ownership', 'ownership', { owners: [] }),
      write('removed', 'ownership', undefined),
      write('entity', 'datasetKey', undefined, { mode: 'DELETE_ENTITY' }),
    ];
    const first = await openSqliteAspectStore({ file });
    const firsts = await first.applyBatch(writes);
    expect(firsts.map((r) => r.status)).toEqual([
      'CREATED',
      'UNCHANGED',
      'UPDATED',
      'CREATED',
      'DELETED',
      'DELETED',
    ]);
    await first.close();

    const second = await openSqliteAspectStore({ file });
    expect(await second.applyBatch(redelivered(writes))).toEqual(
      firsts.map((r) => ({ ...r, replayed: true })),
    );
    expect(await second.getLatest(URN)).toEqual([]);
    await second.close();
  });

  it('replays a record stored whole by a release before row references, as it was recorded', async () => {
    const file = tempFile();
    const stored = {
      urn: URN,
      aspect: 'datasetProperties',
      version: 0,
      value: { v: 'recorded' },
      systemMetadata: { lastObserved: 7, version: '1' } satisfies SystemMetadata,
      created: { time: 7, actor: 'urn:li:corpuser:old' },
    };
    const recorded: ApplyResult = {
      requestId: 'old-release',
      status: 'CREATED',
      current: stored,
      keyCreated: { ...stored, aspect: 'datasetKey', value: KEY.value },
      replayed: false,
    };
    const old = new Database(file);
    migrateSchema(old, 0, 2);
    // The aspect has moved on since: a replay that read the rows would answer { v: 'now' }.
    old
      .prepare(
        `INSERT INTO aspects (urn, aspect, version, metadata, system_metadata, created_on, created_by)
         VALUES (?, 'datasetProperties', 0, '{"v":"now"}', NULL, 8, 'urn:li:corpuser:old')`,
      )
      .run(URN);
    old
      .prepare('INSERT INTO applied_requests (request_id, result, applied_at) VALUES (?, ?, ?)')
      .run('old-release', JSON.stringify(recorded), Date.now());
    old.close();

    const store = await openSqliteAspectStore({ file });
    const [replay] = await store.applyBatch([write('old-release', 'datasetProperties', { v: 'again' })]);
    expect(replay).toEqual({ ...recorded, replayed: true });
    expect((await store.get(URN, 'datasetProperties'))?.value).toEqual({ v: 'now' });
    await store.close();
    const raw = new Database(file, { readonly: true });
    expect(raw.prepare('SELECT MAX(version) AS v FROM schema_version').get()).toEqual({ v: SCHEMA_VERSION });
    expect(raw.prepare('SELECT format FROM applied_requests').get()).toEqual({ format: WHOLE_RESULT });
    raw.close();
  });

  it('keeps what deletes removed while a request record can name it, and no longer', async () => {
    const file = tempFile();
    const clock = { now: 1_000 * HOUR };
    const store = await openSqliteAspectStore({
      file,
      requestRetentionMs: HOUR,
      requestPruneIntervalMs: 0,
      clock: () => clock.now,
    });
    const raw = new Database(file, { readonly: true });
    const removedRows = () =>
      (raw.prepare('SELECT count(*) AS n FROM removed_aspects').get() as { n: number }).n;
    const writes = [
      write('v1', 'datasetProperties', { v: 1 }),
      write('v2', 'datasetProperties', { v: 2 }),
      write('delete', 'datasetProperties', undefined),
    ];
    const firsts = await store.applyBatch(writes);
    // Version 0 and history row 1 of datasetProperties.
    expect(removedRows()).toBe(2);

    clock.now += HOUR / 2;
    await store.applyBatch([write('later', 'ownership', { owners: [] })]);
    expect(await store.pruneRequests()).toBe(0);
    expect(removedRows()).toBe(2);
    expect(await store.applyBatch(redelivered(writes))).toEqual(
      firsts.map((r) => ({ ...r, replayed: true })),
    );

    // The records naming the removed rows are past the window; the one left was applied after the delete.
    clock.now += HOUR / 2 + 1;
    expect(await store.pruneRequests()).toBe(3);
    expect(removedRows()).toBe(0);
    raw.close();
    await store.close();
  });

  it('replays a record naming the URN id of an entity gone since, which no other entity gets', async () => {
    const file = tempFile();
    const clock = { now: 1_000 * HOUR };
    const options = { file, requestRetentionMs: HOUR, requestPruneIntervalMs: 0, clock: () => clock.now };
    const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,recorded.other,PROD)';
    const later = 'urn:li:dataset:(urn:li:dataPlatform:hive,recorded.later,PROD)';
    const first = await openSqliteAspectStore(options);
    // The entity gets the largest URN id, and is the one whose rows go.
    await first.applyBatch([{ ...write('other', 'status', { removed: false }), urn: other }]);
    const writes = [
      write('created', 'datasetProperties', { v: 1 }),
      write('updated', 'datasetProperties', { v: 2 }),
      write('entity', 'datasetKey', undefined, { mode: 'DELETE_ENTITY' }),
    ];
    const firsts = await first.applyBatch(writes);
    expect(firsts.map((r) => r.status)).toEqual(['CREATED', 'UPDATED', 'DELETED']);
    // A new entity, which a plain rowid would give the id the deleted one had.
    await first.applyBatch([{ ...write('later', 'status', { removed: true }), urn: later }]);
    await first.close();

    const raw = new Database(file, { readonly: true });
    const ids = raw.prepare(
      'SELECT urn, id FROM urns UNION ALL SELECT urn, id FROM removed_urns ORDER BY id',
    );
    expect(ids.all()).toEqual([
      { urn: other, id: 1 },
      { urn: URN, id: 2 },
      { urn: later, id: 3 },
    ]);
    const removedUrns = raw.prepare('SELECT urn FROM removed_urns').pluck();
    expect(removedUrns.all()).toEqual([URN]);

    const second = await openSqliteAspectStore(options);
    expect(await second.applyBatch(redelivered(writes))).toEqual(
      firsts.map((r) => ({ ...r, replayed: true })),
    );
    // Kept while a record can name it; dropped with the last of them.
    clock.now += HOUR / 2;
    await second.applyBatch([{ ...write('again', 'status', { removed: false }), urn: later }]);
    await second.pruneRequests();
    expect(removedUrns.all()).toEqual([URN]);
    clock.now += HOUR / 2 + 1;
    await second.pruneRequests();
    expect(removedUrns.all()).toEqual([]);
    raw.close();
    await second.close();
  });

  it('applies a write anew when the rows its record names were removed behind its back', async () => {
    const file = tempFile();
    const store = await openSqliteAspectStore({ file });
    const first = write('edited', 'datasetProperties', { v: 1 });
    expect((await store.applyBatch([first]))[0]).toMatchObject({ status: 'CREATED', replayed: false });
    const raw = new Database(file);
    raw.prepare('DELETE FROM aspects').run();
    raw.close();
    const [anew] = await store.applyBatch([{ ...first, value: { v: 2 } }]);
    expect(anew).toMatchObject({ status: 'CREATED', replayed: false, current: { value: { v: 2 } } });
    const [replayed] = await store.applyBatch([first]);
    expect(replayed).toEqual({ ...anew, replayed: true });
    await store.close();
  });
});
