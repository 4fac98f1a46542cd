import Database from 'better-sqlite3';
import { entityRegistry } from '@catalog/model';
import { seededRandom } from '@catalog/testkit';
import { describe, expect, it } from 'vitest';
import { indexSpecFor } from '../index-spec-for.js';
import type { EntityDocument } from '../port.js';
import { BROWSE_COUNT_TRIGGERS } from './browse-counts.js';
import type { EmbeddedSearch } from './open-embedded-search.js';
import { indexedEntity } from './indexed-entity.js';
import { scratchSearchFiles } from './search-files.testing.js';
import { browseCountsByScan, browseCountsOfPath, browseRowsWhere } from './sqlite-browse.js';
import { StatementCache } from './statement-cache.js';

/**
 * browse_groups and browse_totals (browse-counts.ts) must hold, after any sequence of writes, what
 * counting the `browse` rows gives; and browse without a filter, served from them, must answer as the
 * scan of the rows under the path does.
 */

const spec = indexSpecFor(entityRegistry.requireEntity('dataset'));
const entity = indexedEntity(spec);
const { file, open, closeLast } = scratchSearchFiles('browse-counts');

/** Folders a document may be listed in, some spelled two ways (one path after normalization). */
const FOLDERS = [
  '/prod/hive/db1',
  '/prod/hive/db2',
  'prod/hive/db2/',
  '/prod/kafka',
  '/prod',
  '/dev/hive/db1',
  '/dev/hive/db1/schema',
  '',
];

function dataset(key: string, name: string, browsePaths: string[], removed: boolean): EntityDocument {
  const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,${key},PROD)`;
  return { urn, entityType: 'dataset', fields: { urn, removed, name, browsePaths } };
}

type Row = Record<string, string | number>;

/** The aggregates as counting the `browse` rows in JS gives them (not through the fill's SQL). */
function countedRows(db: Database.Database): { groups: Row[]; totals: Row[] } {
  const rows = db
    .prepare<
      [],
      { entity_type: string; parent: string; leaf: number; segment: string; removed: number; multi: number }
    >('SELECT entity_type, parent, leaf, segment, removed, multi FROM browse')
    .all();
  const groups = new Map<string, Row>();
  const totals = new Map<string, Row>();
  for (const r of rows) {
    if (r.removed !== 0) continue;
    if (r.leaf === 0) {
      const key = JSON.stringify([r.entity_type, r.parent, r.segment]);
      const g = groups.get(key) ?? {
        entity_type: r.entity_type,
        parent: r.parent,
        segment: r.segment,
        live: 0,
      };
      g['live'] = (g['live'] as number) + 1;
      groups.set(key, g);
    }
    if (r.leaf === 1 || r.multi === 0) {
      const key = JSON.stringify([r.entity_type, r.parent]);
      const t = totals.get(key) ?? { entity_type: r.entity_type, parent: r.parent, leaves: 0, single: 0 };
      t['leaves'] = (t['leaves'] as number) + (r.leaf === 1 ? 1 : 0);
      t['single'] = (t['single'] as number) + (r.multi === 0 ? 1 : 0);
      totals.set(key, t);
    }
  }
  const sorted = (m: Map<string, Row>) =>
    [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v);
  return { groups: sorted(groups), totals: sorted(totals) };
}

function storedAggregates(db: Database.Database): { groups: Row[]; totals: Row[] } {
  return {
    groups: db
      .prepare<[], Row>('SELECT entity_type, parent, segment, live FROM browse_groups')
      .all()
      .sort((a, b) =>
        JSON.stringify(Object.values(a).slice(0, 3)) < JSON.stringify(Object.values(b).slice(0, 3)) ? -1 : 1,
      ),
    totals: db
      .prepare<[], Row>('SELECT entity_type, parent, leaves, single FROM browse_totals')
      .all()
      .sort((a, b) =>
        JSON.stringify(Object.values(a).slice(0, 2)) < JSON.stringify(Object.values(b).slice(0, 2)) ? -1 : 1,
      ),
  };
}

/** Every path browse could be asked (parents in the file, and some without rows). */
function pathsOf(db: Database.Database): string[] {
  const parents = db.prepare<[], string>('SELECT DISTINCT parent FROM browse').pluck().all();
  return [...new Set([...parents, '/nowhere', '/prod/hive/db3'])].sort();
}

/** The aggregates equal the rows' counts, and browse (served and from the aggregates) equals the scan. */
async function expectConsistent(search: EmbeddedSearch, db: Database.Database, step: string): Promise<void> {
  expect(storedAggregates(db), step).toEqual(countedRows(db));
  const queries = new StatementCache(db);
  for (const path of pathsOf(db)) {
    const scan = browseCountsByScan(queries, browseRowsWhere(entity, path, undefined));
    expect(browseCountsOfPath(queries, 'dataset', path), `${step}: ${path}`).toEqual(scan);
    const served = await search.search.browse({ entityType: 'dataset', path, start: 0, limit: 0 });
    expect(
      {
        groups: served.groups,
        totalEntities: served.totalEntities,
        totalNumEntities: served.totalNumEntities,
      },
      `${step}: served ${path}`,
    ).toEqual(scan);
  }
}

describe('browse counts kept per path', () => {
  it('equal the counts of the browse rows after random writes', async () => {
    const path = file();
    const search = await open(path);
    await search.search.ensureIndex(spec);
    const db = new Database(path, { readonly: true });
    try {
      const next = seededRandom(20261128);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
      const pathsAtRandom = (): string[] =>
        Array.from({ length: Math.floor(next() * 4) }, () => pick(FOLDERS));
      const live = new Map<string, EntityDocument>();
      const keys = Array.from({ length: 12 }, (_, k) => `db.t${k}`);
      let sawMulti = false;
      let sawRemoved = false;
      for (let step = 0; step < 150; step++) {
        const key = pick(keys);
        const before = live.get(key);
        const op =
          before === undefined ? 'create' : pick(['rename', 'move', 'remove', 'restore', 'delete', 'batch']);
        const fields = before?.fields as
          { name: string; browsePaths: string[]; removed: boolean } | undefined;
        let doc: EntityDocument | undefined;
        if (op === 'create') doc = dataset(key, `n${step}`, pathsAtRandom(), false);
        else if (op === 'rename') doc = dataset(key, `n${step}`, fields!.browsePaths, fields!.removed);
        else if (op === 'move') doc = dataset(key, fields!.name, pathsAtRandom(), fields!.removed);
        else if (op === 'remove') doc = dataset(key, fields!.name, fields!.browsePaths, true);
        else if (op === 'restore') doc = dataset(key, fields!.name, fields!.browsePaths, false);
        if (doc !== undefined) {
          await search.search.upsert([doc]);
          live.set(key, doc);
        } else if (op === 'delete') {
          await search.search.delete([{ entityType: 'dataset', urn: before!.urn }]);
          live.delete(key);
        } else {
          // Several documents in one write, one of them twice.
          const batch = [key, pick(keys), key].map((k, i) =>
            dataset(k, `b${step}.${i}`, pathsAtRandom(), next() < 0.2),
          );
          await search.search.upsert(batch);
          for (const d of batch) live.set(d.urn.split(',')[1]!, d);
        }
        sawMulti ||= db.prepare('SELECT 1 FROM browse WHERE multi = 1 AND removed = 0').get() !== undefined;
        sawRemoved ||= db.prepare('SELECT 1 FROM browse WHERE removed = 1').get() !== undefined;
        await expectConsistent(search, db, `step ${step} (${op} ${key})`);
      }
      expect(sawMulti && sawRemoved).toBe(true);
      // Every document gone: nothing left counted.
      await search.search.delete([...live.values()].map((d) => ({ entityType: 'dataset', urn: d.urn })));
      await expectConsistent(search, db, 'all deleted');
      expect(storedAggregates(db)).toEqual({ groups: [], totals: [] });
      // The index dropped with rows in it.
      await search.search.upsert([dataset('db.again', 'again', ['/prod/hive/db1', '/prod/kafka'], false)]);
      await search.search.deleteIndex('dataset');
      expect(storedAggregates(db)).toEqual({ groups: [], totals: [] });
    } finally {
      db.close();
    }
  });

  it('follows updates of counted columns, as conversions write them', async () => {
    const path = file();
    const search = await open(path);
    await search.search.ensureIndex(spec);
    await search.search.upsert([
      dataset('db.a', 'a', ['/prod/hive/db1'], false),
      dataset('db.b', 'b', ['/prod/hive/db1', '/prod/kafka'], false),
      dataset('db.c', 'c', ['/prod/hive/db2'], true),
    ]);
    await closeLast();
    const db = new Database(path);
    try {
      for (const update of [
        'UPDATE browse SET multi = 1 - multi',
        'UPDATE browse SET removed = 1 - removed',
        "UPDATE browse SET segment = segment || 'x' WHERE leaf = 0",
        "UPDATE browse SET parent = '/moved' || parent WHERE doc % 2 = 0",
        'UPDATE browse SET leaf = 1 - leaf',
        "UPDATE browse SET entity_type = 'other' WHERE doc % 2 = 1",
        'DELETE FROM browse',
      ]) {
        db.exec(update);
        expect(storedAggregates(db), update).toEqual(countedRows(db));
      }
    } finally {
      db.close();
    }
  });

  it('are made and filled at the open of a file made before them', async () => {
    const path = file();
    {
      const search = await open(path);
      await search.search.ensureIndex(spec);
      await search.search.upsert([
        dataset('db.a', 'a', ['/prod/hive/db1'], false),
        dataset('db.b', 'b', ['/prod/hive/db1', '/prod/hive/db2', '/prod/kafka'], false),
        dataset('db.c', 'c', ['/prod/hive/db2', 'prod/hive/db2/'], false),
        dataset('db.d', 'd', ['/prod/hive/db2'], true),
        dataset('db.e', 'e', [], false),
      ]);
      await closeLast();
    }
    {
      // As a build before them left the file.
      const db = new Database(path);
      for (const name of Object.keys(BROWSE_COUNT_TRIGGERS)) db.exec(`DROP TRIGGER ${name}`);
      db.exec('DROP TABLE browse_groups; DROP TABLE browse_totals; DROP INDEX browse_multi');
      db.close();
    }
    const messages: string[] = [];
    const search = await open(path, messages);
    expect(messages).toContain('counted the browse rows by path');
    const db = new Database(path, { readonly: true });
    try {
      expect(storedAggregates(db).groups).toEqual([
        { entity_type: 'dataset', parent: '', segment: 'prod', live: 3 },
        { entity_type: 'dataset', parent: '/prod', segment: 'hive', live: 3 },
        { entity_type: 'dataset', parent: '/prod', segment: 'kafka', live: 1 },
        { entity_type: 'dataset', parent: '/prod/hive', segment: 'db1', live: 2 },
        { entity_type: 'dataset', parent: '/prod/hive', segment: 'db2', live: 2 },
      ]);
      await expectConsistent(search, db, 'converted');
      // The triggers are back: writes keep the counts.
      await search.search.upsert([
        dataset('db.a', 'a', ['/prod/kafka'], false),
        dataset('db.d', 'd', ['/prod/hive/db2'], false),
      ]);
      await search.search.delete([{ entityType: 'dataset', urn: dataset('db.b', 'b', [], false).urn }]);
      await expectConsistent(search, db, 'written after');
    } finally {
      db.close();
    }
    // Opened again: nothing to convert.
    await closeLast();
    const again: string[] = [];
    await open(path, again);
    expect(again).not.toContain('counted the browse rows by path');
  });

  it('count the documents under several paths through browse_multi alone', async () => {
    const path = file();
    const search = await open(path);
    await search.search.ensureIndex(spec);
    const db = new Database(path, { readonly: true });
    try {
      const plan = db
        .prepare<[], { detail: string }>(
          `EXPLAIN QUERY PLAN SELECT COUNT(DISTINCT doc) FROM browse
           WHERE entity_type = 'dataset' AND parent = '/prod' AND removed = 0 AND multi = 1`,
        )
        .all()
        .map((r) => r.detail);
      expect(plan.join('\n')).toMatch(
        /USING COVERING INDEX browse_multi \(entity_type=\? AND parent=\? AND removed=\?\)/,
      );
    } finally {
      db.close();
    }
  });
});
