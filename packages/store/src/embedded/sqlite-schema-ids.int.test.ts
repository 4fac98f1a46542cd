import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { AspectStore, AspectWrite } from '../port.js';
import { ASPECT_COLUMNS, decodeRow, type EncodedAspectRow } from './aspect-row.js';
import { JOINED_COLUMNS, ROW_JOINS } from './keyed-by-ids.js';
import { requestKey } from './request-key.js';
import { LAST_OBSERVED_OF, RUN_ID_OF } from './run-columns.js';
import { openSqliteAspectStore, type SqliteStoreLogger } from './sqlite-aspect-store.js';
import { migrateSchema, SCHEMA_VERSION } from './sqlite-schema.js';
import { olderRecord } from './older-records.testing.js';
import { decodeNullableJson, encodeJson, type StoredJson } from './stored-json.js';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,ids.orders,PROD)';
const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,ids.users,PROD)';
const GONE = 'urn:li:dataset:(urn:li:dataPlatform:hive,ids.gone,PROD)';
const KEY = (name: string) => ({ name: 'datasetKey', value: { platform: 'urn:li:dataPlatform:hive', name } });
const UUID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

let clock = 1_700_000_000_000;
function write(
  requestId: string,
  urn: string,
  aspect: string,
  value: Record<string, unknown> | undefined,
  extra: Partial<AspectWrite> = {},
): AspectWrite {
  clock += 1_000;
  return {
    requestId,
    mode: value === undefined ? 'DELETE' : 'UPSERT',
    urn,
    aspect,
    ...(value === undefined ? {} : { value, keyAspect: KEY(urn) }),
    created: { time: clock, actor: urn === USERS ? 'urn:li:corpuser:users-bot' : 'urn:li:corpuser:ingest' },
    ...extra,
  };
}

/**
 * Writes of every kind, with request ids of both kinds (UUIDs, stored as BLOBs since schema 5, and
 * others), two actors, runs (one a JSON number, which stays apart from the string of its digits),
 * history, an identical value seen again, an aspect and an entity deleted.
 */
const WRITES: readonly AspectWrite[] = [
  write(UUID(1), ORDERS, 'datasetProperties', { name: 'orders' }, { systemMetadata: { runId: 'run-1' } }),
  write(
    `bootstrap-${UUID(2)}`,
    ORDERS,
    'datasetProperties',
    { name: 'orders', description: 'v2' },
    { systemMetadata: { runId: 'run-2', lastObserved: 7 } },
  ),
  write('p3', ORDERS, 'datasetProperties', { name: 'orders', description: 'v3' }),
  write(
    UUID(3),
    ORDERS,
    'datasetProperties',
    { name: 'orders', description: 'v3' },
    {
      systemMetadata: { runId: 'run-3' },
    },
  ),
  write('u1', USERS, 'ownership', { owners: [] }, { systemMetadata: { runId: 7 as unknown as string } }),
  write('u2', USERS, 'status', { removed: false }, { systemMetadata: { runId: '7' } }),
  write('g1', GONE, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
  write(`${UUID(4)}-1`, GONE, 'globalTags', undefined),
  { ...write('g-delete', GONE, 'datasetKey', undefined), mode: 'DELETE_ENTITY' },
  write('o-delete', ORDERS, 'datasetKey', undefined),
];

/** Everything the store answers about its content, read through its port. */
async function everything(store: AspectStore): Promise<unknown> {
  return {
    scan: await store.scan({ limit: 1_000 }),
    scanPaged: [await store.scan({ limit: 2 }), await store.scan({ limit: 2, start: 2 })],
    scanStatus: await store.scan({ aspect: 'status', limit: 10 }),
    count: await store.count(),
    countLike: await store.count({ urnLike: '%ids.users%' }),
    history: await store.listVersions(ORDERS, 'datasetProperties'),
    firstVersion: await store.get(ORDERS, 'datasetProperties', 1),
    latest: await store.getLatest(USERS),
    latestMany: Object.fromEntries(await store.getLatestMany([ORDERS, USERS, GONE])),
    runs: await store.listRuns({ limit: 10 }),
    run3: await store.findRunRows({ runId: 'run-3', limit: 10 }),
    run7: await store.findRunRows({ runId: '7', limit: 10 }),
    noRun: await store.findRunRows({ runId: 'no-run-id-provided', limit: 10 }),
  };
}

/**
 * A copy of `source` (a file at the current schema) at schema 4, as a build before step 5 left it:
 * the same rows with their texts in place of ids, the run columns as schema 4 set them, the request
 * records under the ids they were applied with.
 */
function schema4Copy(source: string, target: string): void {
  const from = new Database(source, { readonly: true });
  const to = new Database(target);
  migrateSchema(to, 0, 4);
  const rows = from
    .prepare<[], EncodedAspectRow>(
      `SELECT ${JOINED_COLUMNS} FROM ${ROW_JOINS} ORDER BY u.urn, n.name, a.version`,
    )
    .all();
  const intoAspects = to.prepare<[EncodedAspectRow & { text: string | null }]>(
    `INSERT INTO aspects (${ASPECT_COLUMNS}, run_id, last_observed)
     VALUES (@urn, @aspect, @version, @metadata, @system_metadata, @created_on, @created_by, @created_for,
       @created_message, CASE WHEN @version = 0 THEN ${RUN_ID_OF('@text')} END,
       CASE WHEN @version = 0 THEN ${LAST_OBSERVED_OF('@text', '@created_on')} END)`,
  );
  for (const row of rows) intoAspects.run({ ...row, text: decodeNullableJson(row.system_metadata) });
  to.exec(`ATTACH DATABASE '${source}' AS fresh`);
  to.exec('INSERT INTO removed_aspects SELECT * FROM fresh.removed_aspects ORDER BY rowid');
  const ids = new Map(WRITES.map((w) => [keyText(requestKey(w.requestId)), w.requestId]));
  const records = from
    .prepare<[], { request_id: string | Buffer; result: unknown; format: number; applied_at: number }>(
      'SELECT request_id, result, format, applied_at FROM applied_requests ORDER BY rowid',
    )
    .all();
  const intoRequests = to.prepare(
    'INSERT INTO applied_requests (request_id, result, format, applied_at) VALUES (?, ?, ?, ?)',
  );
  for (const r of records) {
    // A packed record names ids, which a schema-4 file does not have: it had the references in JSON.
    const { text, format } = olderRecord(from, { result: r.result as StoredJson, format: r.format });
    intoRequests.run(ids.get(keyText(r.request_id)), encodeJson(text), format, r.applied_at);
  }
  to.exec('DETACH DATABASE fresh');
  from.close();
  to.close();
}

const keyText = (key: string | Buffer) => (typeof key === 'string' ? `t:${key}` : `b:${key.toString('hex')}`);

/** The rows of aspects with their texts, whatever the schema. */
function aspectRows(db: Database.Database, schema: number) {
  const sql =
    schema >= 5
      ? `SELECT ${JOINED_COLUMNS} FROM ${ROW_JOINS} ORDER BY u.urn, n.name, a.version`
      : `SELECT ${ASPECT_COLUMNS} FROM aspects ORDER BY urn, aspect, version`;
  return db.prepare<[], EncodedAspectRow>(sql).all().map(decodeRow);
}

describe('the embedded aspect store file keyed by ids (schema step 5)', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'aspect-ids-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('opens a schema 4 file with every row, run and record reading back the same', async () => {
    const dir = tempDir();
    const original = await openSqliteAspectStore({ file: join(dir, 'new.db'), clock: () => clock });
    const results = await original.applyBatch(WRITES);
    const before = await everything(original);
    await original.close();
    const old = join(dir, 'old.db');
    schema4Copy(join(dir, 'new.db'), old);
    const oldRows = aspectRows(new Database(old, { readonly: true }), 4);
    expect(oldRows.length).toBeGreaterThan(5);

    const messages: string[] = [];
    const logger: SqliteStoreLogger = {
      info: (_obj, msg) => messages.push(msg ?? ''),
      warn: (_obj, msg) => messages.push(`warn: ${msg ?? ''}`),
    };
    const migrated = await openSqliteAspectStore({ file: old, clock: () => clock, logger });
    expect(await everything(migrated)).toEqual(before);
    const replays = await migrated.applyBatch(WRITES);
    expect(replays).toEqual(results.map((result) => ({ ...result, replayed: true })));
    await migrated.close();
    expect(messages).toContain('migrating the aspect store file');
    expect(messages).toContain('vacuumed the aspect store file');

    const raw = new Database(old, { readonly: true });
    expect(raw.prepare('SELECT MAX(version) AS v FROM schema_version').get()).toEqual({ v: SCHEMA_VERSION });
    expect(aspectRows(raw, SCHEMA_VERSION)).toEqual(oldRows);
    // Each text once: two actors, and runs 'run-1' .. 'run-3', 7 and '7'.
    expect(raw.prepare('SELECT actor FROM actors ORDER BY actor').pluck().all()).toEqual([
      'urn:li:corpuser:ingest',
      'urn:li:corpuser:users-bot',
    ]);
    expect(raw.prepare("SELECT count(*) FROM runs WHERE run_id IN (7, '7')").pluck().get()).toBe(2);
    // URN ids are numbered by AUTOINCREMENT from the migration on: none is handed out twice.
    const seq = raw.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'urns'").pluck().get();
    expect(seq).toBe(raw.prepare('SELECT max(id) FROM urns').pluck().get());
    const keys = raw.prepare('SELECT typeof(request_id) FROM applied_requests ORDER BY rowid').pluck().all();
    expect(keys).toEqual(WRITES.map((w) => (w.requestId.includes(UUID(0).slice(0, 8)) ? 'blob' : 'text')));
    raw.close();
  });

  it('forgets a URN with the last aspect of its entity, and keeps it while one is left', async () => {
    const file = join(tempDir(), 'aspects.db');
    const store = await openSqliteAspectStore({ file, clock: () => clock });
    const urns = (raw: Database.Database) => raw.prepare('SELECT urn FROM urns ORDER BY urn').pluck().all();
    await store.applyBatch([
      write('a', ORDERS, 'status', { removed: false }),
      write('b', USERS, 'status', { removed: false }),
    ]);
    const raw = new Database(file, { readonly: true });
    expect(urns(raw)).toEqual([ORDERS, USERS]);
    await store.applyBatch([write('c', ORDERS, 'status', undefined)]);
    expect(urns(raw)).toEqual([ORDERS, USERS]);
    await store.applyBatch([write('d', ORDERS, 'datasetKey', undefined)]);
    expect(urns(raw)).toEqual([USERS]);
    await store.applyBatch([{ ...write('e', USERS, 'datasetKey', undefined), mode: 'DELETE_ENTITY' }]);
    expect(urns(raw)).toEqual([]);
    // The entity can come back, under a new id.
    await store.applyBatch([write('f', ORDERS, 'status', { removed: true })]);
    expect(urns(raw)).toEqual([ORDERS]);
    expect((await store.getLatest(ORDERS)).map((a) => a.aspect)).toEqual(['datasetKey', 'status']);
    raw.close();
    await store.close();
  });

  it('gives no name or actor the id of one a failed batch added', async () => {
    const store = await openSqliteAspectStore({ file: join(tempDir(), 'aspects.db'), clock: () => clock });
    const failing = write('boom', USERS, 'status', undefined, {
      mode: 'UPSERT',
      patch: () => {
        throw new Error('not a domain error: the batch fails');
      },
    });
    const alpha = (id: string) =>
      write(id, ORDERS, 'alpha', { a: 1 }, { created: { time: clock, actor: 'urn:li:corpuser:alpha' } });
    await expect(store.applyBatch([alpha('first'), failing])).rejects.toThrow('the batch fails');
    // SQLite hands the rolled-back ids out again, to other texts.
    await store.applyBatch([
      write('beta', ORDERS, 'beta', { b: 1 }, { created: { time: clock, actor: 'urn:li:corpuser:beta' } }),
    ]);
    await store.applyBatch([alpha('again')]);
    const latest = await store.getLatest(ORDERS);
    expect(latest.map((a) => [a.aspect, a.created.actor])).toEqual([
      ['alpha', 'urn:li:corpuser:alpha'],
      ['beta', 'urn:li:corpuser:beta'],
      ['datasetKey', 'urn:li:corpuser:beta'],
    ]);
    expect((await store.get(ORDERS, 'alpha'))?.value).toEqual({ a: 1 });
    expect((await store.get(ORDERS, 'beta'))?.created.actor).toBe('urn:li:corpuser:beta');
    await store.close();
  });

  it('reads an aspect and a run in URN order, whether few or many rows match', async () => {
    const store = await openSqliteAspectStore({ file: join(tempDir(), 'aspects.db'), clock: () => clock });
    // Entities written in the reverse of URN order, so their ids run against it; more than the rows
    // below which reads by aspect or run sort the rows of their index.
    const n = 5_100;
    const urn = (i: number) => `urn:li:corpuser:user${String(i).padStart(5, '0')}`;
    const writes: AspectWrite[] = [];
    for (let i = n - 1; i >= 0; i--) {
      writes.push(write(`w${i}`, urn(i), 'corpUserInfo', { i }, { systemMetadata: { runId: 'big' } }));
      if (i % 100 === 0) {
        writes.push(
          write(`s${i}`, urn(i), 'status', { removed: false }, { systemMetadata: { runId: 'small' } }),
        );
      }
    }
    await store.applyBatch(writes);
    const urnsOf = (rows: readonly { urn: string }[]) => rows.map((r) => r.urn);
    const all = Array.from({ length: n }, (_, i) => urn(i));
    const hundredth = all.filter((_, i) => i % 100 === 0);

    const paged: string[] = [];
    let after: string | undefined;
    do {
      const page = await store.scan({ aspect: 'corpUserInfo', limit: 1_000, ...(after ? { after } : {}) });
      paged.push(...urnsOf(page.items));
      after = page.next;
    } while (after !== undefined);
    expect(paged).toEqual(all);
    expect(urnsOf((await store.scan({ aspect: 'status', limit: 100 })).items)).toEqual(hundredth);
    expect(urnsOf((await store.scan({ aspect: 'status', start: 50, limit: 100 })).items)).toEqual(
      hundredth.slice(50),
    );
    // The run wrote each entity's key aspect too: datasetKey, then corpUserInfo.
    expect(urnsOf(await store.findRunRows({ runId: 'big', start: 4_001, limit: 4 }))).toEqual(
      all.flatMap((u) => [u, u]).slice(4_001, 4_005),
    );
    expect(urnsOf(await store.findRunRows({ runId: 'small', start: 1, limit: 3 }))).toEqual(
      hundredth.slice(1, 4),
    );
    expect(await store.count({ aspect: 'status' })).toBe(hundredth.length);
    // Users 0 to 99: key aspect and corpUserInfo each, and user 0's status.
    expect(await store.count({ urnLike: 'urn:li:corpuser:user000%' })).toBe(2 * 100 + 1);
    await store.close();
  });
});
