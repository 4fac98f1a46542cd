import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openEmbeddedSearch } from './open-embedded-search.js';

describe('embedded time-series run id migration', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('adds run_id to a file made before it, filled from each document’s systemMetadata.runId', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'embedded-ts-run-'));
    dirs.push(dir);
    const file = join(dir, 'search.sqlite');
    const old = new Database(file);
    old.exec(`
      CREATE TABLE timeseries (
        id TEXT PRIMARY KEY, entity_type TEXT NOT NULL, aspect TEXT NOT NULL, urn TEXT NOT NULL,
        ts INTEGER NOT NULL, value TEXT NOT NULL, system_metadata TEXT
      );
    `);
    const insert = old.prepare('INSERT INTO timeseries VALUES (?, ?, ?, ?, ?, ?, ?)');
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,old.orders,PROD)';
    const value = JSON.stringify({ timestampMillis: 1 });
    insert.run('a', 'dataset', 'datasetProfile', urn, 1, value, JSON.stringify({ runId: 'old-run' }));
    insert.run('b', 'dataset', 'datasetProfile', urn, 2, value, JSON.stringify({ runId: 7 }));
    insert.run('c', 'dataset', 'datasetProfile', urn, 3, value, null);
    old.close();

    const opened = await openEmbeddedSearch({ file });
    try {
      expect(await opened.timeseries.runGroups('old-run')).toEqual([
        { entityType: 'dataset', aspect: 'datasetProfile', urn, count: 1 },
      ]);
      expect(await opened.timeseries.deleteRun('old-run')).toBe(1);
      await opened.timeseries.refresh();
      const left = await opened.timeseries.query({
        entityType: 'dataset',
        aspect: 'datasetProfile',
        urn,
        limit: 10,
      });
      expect(left.map((d) => d.id)).toEqual(['c', 'b']);
    } finally {
      await opened.close();
    }
  });
});
