import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApplyResult, AspectStore, AspectWrite } from '../port.js';
import { ASPECT_COLUMNS, decodeRow, type EncodedAspectRow } from './aspect-row.js';
import { olderRecord } from './older-records.testing.js';
import { WHOLE_RESULT } from './recorded-result.js';
import { JOINED_COLUMNS, ROW_JOINS } from './keyed-by-ids.js';
import type { StoredJson } from './stored-json.js';
import { openSqliteAspectStore, type SqliteStoreLogger } from './sqlite-aspect-store.js';
import { migrateSchema, SCHEMA_VERSION } from './sqlite-schema.js';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,compaction.orders,PROD)';
const GONE = 'urn:li:dataset:(urn:li:dataPlatform:hive,compaction.gone,PROD)';
const DROPPED = 'urn:li:dataset:(urn:li:dataPlatform:hive,compaction.dropped,PROD)';
const KEY = (name: string) => ({ name: 'datasetKey', value: { platform: 'urn:li:dataPlatform:hive', name } });

/** A schema of many fields: a value that the compacted layout stores deflated. */
const schema = (fields: number) => ({
  schemaName: 'orders',
  platform: 'urn:li:dataPlatform:hive',
  fields: Array.from({ length: fields }, (_, f) => ({
    fieldPath: `column_${f}`,
    nativeDataType: 'varchar',
    type: { type: { 'com.linkedin.schema.StringType': {} } },
  })),
});

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
    created: { time: clock, actor: 'urn:li:corpuser:compaction' },
    ...extra,
  };
}

/**
 * Writes of every kind a file holds: history versions, an identical value seen again (system
 * metadata rewritten in place), runs, a CREATE conflict, an aspect deleted and an entity deleted
 * (rows kept in removed_aspects for the records naming them), and records of both formats.
 */
const WRITES: readonly AspectWrite[] = [
  write('p1', ORDERS, 'datasetProperties', { name: 'orders' }, { systemMetadata: { runId: 'run-1' } }),
  write(
    'p2',
    ORDERS,
    'datasetProperties',
    { name: 'orders', description: 'v2' },
    { systemMetadata: { runId: 'run-2', lastObserved: 7 } },
  ),
  write('p3', ORDERS, 'datasetProperties', { name: 'orders', description: 'v3' }),
  write(
    'p3-again',
    ORDERS,
    'datasetProperties',
    { name: 'orders', description: 'v3' },
    { systemMetadata: { runId: 'run-3' } },
  ),
  write('s1', ORDERS, 'schemaMetadata', schema(40), { systemMetadata: { runId: 'run-1' } }),
  write('s2', ORDERS, 'schemaMetadata', schema(41), { systemMetadata: { runId: 'run-1' } }),
  write('conflict', ORDERS, 'schemaMetadata', schema(1), { mode: 'CREATE' }),
  write('g1', GONE, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
  write('g2', GONE, 'globalTags', { tags: [{ tag: 'urn:li:tag:gold' }] }),
  write('g-delete', GONE, 'globalTags', undefined),
  write('d1', DROPPED, 'ownership', { owners: [{ owner: 'urn:li:corpuser:a', type: 'DATAOWNER' }] }),
  write('d2', DROPPED, 'schemaMetadata', schema(30)),
  { ...write('d-delete', DROPPED, 'datasetKey', undefined), mode: 'DELETE_ENTITY' },
];

/** Everything the store answers about its content, read through its port. */
async function everything(store: AspectStore): Promise<unknown> {
  return {
    scan: await store.scan({ limit: 1_000 }),
    count: await store.count(),
    countSchemas: await store.count({ aspect: 'schemaMetadata' }),
    history: await store.listVersions(ORDERS, 'datasetProperties'),
    schemaHistory: await store.listVersions(ORDERS, 'schemaMetadata'),
    firstVersion: await store.get(ORDERS, 'datasetProperties', 1),
    latestMany: Object.fromEntries(await store.getLatestMany([ORDERS, GONE, DROPPED])),
    runs: await store.listRuns({ limit: 10 }),
    run1: await store.findRunRows({ runId: 'run-1', limit: 10 }),
    run3: await store.findRunRows({ runId: 'run-3', limit: 10 }),
    noRun: await store.findRunRows({ runId: 'no-run-id-provided', limit: 10 }),
  };
}

/**
 * The rows of `table` with their JSON as text, in key order; `aspects` of a file at the current
 * schema with its dictionary ids replaced by their texts.
 */
function rowsOf(db: Database.Database, table: string): ReturnType<typeof decodeRow>[] {
  const sql =
    table === 'aspects'
      ? `SELECT ${JOINED_COLUMNS} FROM ${ROW_JOINS} ORDER BY u.urn, n.name, a.version`
      : `SELECT ${ASPECT_COLUMNS} FROM ${table} ORDER BY urn, aspect, version`;
  return db.prepare<[], EncodedAspectRow>(sql).all().map(decodeRow);
}

/**
 * A copy of `source` at schema 3, as a build before the compaction left it: the same rows, their JSON
 * as plain text (what that build stored), the same request records and removed aspects.
 */
function schema3Copy(
  source: string,
  target: string,
  formatOneRecord: { id: string; result: ApplyResult },
): number {
  const from = new Database(source, { readonly: true });
  const to = new Database(target);
  migrateSchema(to, 0, 3);
  const insert = (table: string, extra = '') =>
    to.prepare(
      `INSERT INTO ${table} (${ASPECT_COLUMNS}${extra ? `, ${extra}` : ''})
       VALUES (@urn, @aspect, @version, @metadata, @system_metadata, @created_on, @created_by, @created_for,
         @created_message${extra ? `, @${extra}` : ''})`,
    );
  const intoAspects = insert('aspects');
  for (const row of rowsOf(from, 'aspects')) intoAspects.run(row);
  const intoRemoved = insert('removed_aspects', 'removed_at');
  const removed = from
    .prepare<[], EncodedAspectRow & { removed_at: number }>(
      `SELECT ${ASPECT_COLUMNS}, removed_at FROM removed_aspects ORDER BY rowid`,
    )
    .all();
  for (const row of removed) intoRemoved.run({ ...decodeRow(row), removed_at: row.removed_at });
  const intoRequests = to.prepare(
    'INSERT INTO applied_requests (request_id, result, format, applied_at) VALUES (?, ?, ?, ?)',
  );
  const records = from
    .prepare<[], { request_id: string; result: StoredJson; format: number; applied_at: number }>(
      'SELECT request_id, result, format, applied_at FROM applied_requests ORDER BY rowid',
    )
    .all();
  // A record as builds before schema 3 kept them: the whole result.
  const texts = [
    // A packed record (schema 5) names ids, which a schema-3 file does not have.
    ...records.map((r) => {
      const { text, format } = olderRecord(from, r);
      return { ...r, result: text, format };
    }),
    {
      request_id: formatOneRecord.id,
      result: JSON.stringify(formatOneRecord.result),
      format: WHOLE_RESULT,
      applied_at: clock,
    },
  ];
  for (const r of texts) intoRequests.run(r.request_id, r.result, r.format, r.applied_at);
  from.close();
  to.close();
  return texts.reduce((sum, r) => sum + Buffer.byteLength(r.result), 0);
}

describe('the embedded aspect store file compacted by schema step 4', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'aspect-compaction-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('opens a schema 3 file with every row, run, record and removed aspect reading back the same', async () => {
    const dir = tempDir();
    const original = await openSqliteAspectStore({ file: join(dir, 'new.db'), clock: () => clock });
    const results = await original.applyBatch(WRITES);
    const before = await everything(original);
    await original.close();
    const formatOne: ApplyResult = {
      requestId: 'whole',
      status: 'CREATED',
      current: {
        urn: ORDERS,
        aspect: 'status',
        version: 0,
        value: { removed: false },
        systemMetadata: null,
        created: { time: 1, actor: 'urn:li:corpuser:old' },
      },
      replayed: false,
    };
    const old = join(dir, 'old.db');
    const plainRecordBytes = schema3Copy(join(dir, 'new.db'), old, { id: 'whole', result: formatOne });

    const messages: string[] = [];
    const logger: SqliteStoreLogger = {
      info: (_obj, msg) => messages.push(msg ?? ''),
      warn: (_obj, msg) => messages.push(`warn: ${msg ?? ''}`),
    };
    const migrated = await openSqliteAspectStore({ file: old, clock: () => clock, logger });
    expect(await everything(migrated)).toEqual(before);
    // Every request id replays what its first delivery answered, whatever its record's format.
    const replays = await migrated.applyBatch([
      ...WRITES,
      write('whole', ORDERS, 'status', { removed: true }),
    ]);
    expect(replays).toEqual([
      ...results.map((result) => ({ ...result, replayed: true })),
      { ...formatOne, replayed: true },
    ]);
    await migrated.close();
    expect(messages).toContain('migrating the aspect store file');
    expect(messages).toContain('vacuumed the aspect store file');

    const raw = new Database(old, { readonly: true });
    expect(raw.prepare('SELECT MAX(version) AS v FROM schema_version').get()).toEqual({ v: SCHEMA_VERSION });
    // The schemas were deflated, in the table and among the removed aspects; the texts read the same.
    const storage = (from: string) =>
      raw
        .prepare(`SELECT typeof(metadata) AS type FROM ${from} WHERE aspect = 'schemaMetadata' ORDER BY 1`)
        .pluck()
        .all();
    expect(storage(`(SELECT ${JOINED_COLUMNS} FROM ${ROW_JOINS})`)).toEqual(['blob', 'blob']);
    expect(storage('removed_aspects')).toEqual(['blob']);
    // The request records were encoded too.
    const recordBytes = 'SELECT sum(length(CAST(result AS BLOB))) FROM applied_requests';
    expect(raw.prepare(recordBytes).pluck().get()).toBeLessThan(plainRecordBytes);
    const fresh = new Database(join(dir, 'new.db'), { readonly: true });
    expect(rowsOf(raw, 'aspects')).toEqual(rowsOf(fresh, 'aspects'));
    expect(rowsOf(raw, 'removed_aspects')).toEqual(rowsOf(fresh, 'removed_aspects'));
    fresh.close();
    raw.close();
  });

  it('keeps a value that deflating would not shorten as text, and one that it would as a blob', async () => {
    const file = join(tempDir(), 'aspects.db');
    const store = await openSqliteAspectStore({ file, clock: () => clock });
    await store.applyBatch([
      write('small', ORDERS, 'status', { removed: false }),
      write('large', ORDERS, 'schemaMetadata', schema(20)),
    ]);
    await store.close();
    const raw = new Database(file, { readonly: true });
    const types = raw
      .prepare(
        `SELECT n.name AS aspect, typeof(a.metadata) AS type FROM ${ROW_JOINS}
         WHERE n.name <> 'datasetKey' ORDER BY n.name`,
      )
      .all();
    raw.close();
    expect(types).toEqual([
      { aspect: 'schemaMetadata', type: 'blob' },
      { aspect: 'status', type: 'text' },
    ]);
  });
});
