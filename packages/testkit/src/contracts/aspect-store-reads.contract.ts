import type { AspectStore, StoredAspect } from '@catalog/store';
import { describe, expect, it } from 'vitest';
import {
  aspectWrite,
  byUrnThenAspect,
  datasetUrn,
  stamp,
  uniqueNamespace,
  upsert,
} from './aspect-store-fixtures.js';

/** Read-side half of the aspect store contract; run by aspectStoreContract. */
export function aspectStoreReadContract(store: () => AspectStore): void {
  describe('point reads', () => {
    it('gets a version, the latest by default, and null when absent', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'get');
      await store().applyBatch([
        upsert(urn, 'status', { removed: false }),
        upsert(urn, 'status', { removed: true }),
      ]);
      expect((await store().get(urn, 'status'))?.value).toEqual({ removed: true });
      expect((await store().get(urn, 'status', 1))?.value).toEqual({ removed: false });
      expect(await store().get(urn, 'status', 2)).toBeNull();
      expect(await store().get(urn, 'ownership')).toBeNull();
      expect(await store().listVersions(urn, 'ownership')).toEqual([]);
    });

    it('getLatest returns version 0 of every aspect, or of the names given, ordered by name', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'latest');
      await store().applyBatch([
        upsert(urn, 'status', { removed: false }),
        upsert(urn, 'datasetProperties', { v: 1 }),
        upsert(urn, 'datasetProperties', { v: 2 }),
        upsert(urn, 'ownership', { owners: [] }),
      ]);
      const all = await store().getLatest(urn);
      expect(all.map((a) => [a.aspect, a.version])).toEqual([
        ['datasetProperties', 0],
        ['ownership', 0],
        ['status', 0],
      ]);
      expect(all[0]?.value).toEqual({ v: 2 });
      const some = await store().getLatest(urn, ['status', 'datasetProperties', 'missing']);
      expect(some.map((a) => a.aspect)).toEqual(['datasetProperties', 'status']);
      expect(await store().getLatest(datasetUrn(uniqueNamespace(), 'none'))).toEqual([]);
    });

    it('getLatestMany leaves out entities with no aspects', async () => {
      const namespace = uniqueNamespace();
      const [one, two, missing] = ['one', 'two', 'missing'].map((n) => datasetUrn(namespace, n)) as [
        string,
        string,
        string,
      ];
      await store().applyBatch([
        upsert(one, 'status', { removed: false }),
        upsert(one, 'ownership', { owners: [] }),
        upsert(two, 'status', { removed: true }),
        upsert(two, 'status', { removed: false }),
      ]);
      const many = await store().getLatestMany([two, missing, one]);
      expect([...many.keys()].sort()).toEqual([one, two].sort());
      expect(many.get(one)?.map((a) => a.aspect)).toEqual(['ownership', 'status']);
      expect(many.get(two)?.map((a) => [a.version, a.value])).toEqual([[0, { removed: false }]]);
      const filtered = await store().getLatestMany([one, two, missing], ['ownership']);
      expect([...filtered.keys()]).toEqual([one]);
    });

    it('existingUrns names the entities having any aspect, without the deleted or never written', async () => {
      const namespace = uniqueNamespace();
      const urns = Array.from({ length: 1_200 }, (_, i) => datasetUrn(namespace, `exists${i}`));
      await store().applyBatch(
        urns.filter((_, i) => i % 3 === 0).map((urn) => upsert(urn, 'status', { removed: false })),
      );
      const [deleted, keptOne] = [urns[3]!, urns[6]!];
      await store().applyBatch([
        upsert(keptOne, 'ownership', { owners: [] }),
        aspectWrite('DELETE', deleted, 'status', undefined),
        aspectWrite('DELETE', keptOne, 'status', undefined),
      ]);
      const found = await store().existingUrns([...urns, urns[0]!]);
      const expected = urns.filter((urn, i) => i % 3 === 0 && urn !== deleted);
      expect([...found].sort()).toEqual(expected.sort());
      expect(found.has(keptOne)).toBe(true);
      expect((await store().existingUrns([])).size).toBe(0);
    });

    it('getLatestMany handles more entities than one query takes', async () => {
      const namespace = uniqueNamespace();
      const urns = Array.from({ length: 1_200 }, (_, i) => datasetUrn(namespace, `bulk${i}`));
      await store().applyBatch(
        urns.filter((_, i) => i % 2 === 0).map((urn) => upsert(urn, 'status', { urn })),
      );
      const many = await store().getLatestMany(urns);
      expect(many.size).toBe(600);
      expect(many.get(urns[1_198] ?? '')?.[0]?.value).toEqual({ urn: urns[1_198] });
    });

    it('round-trips values, system metadata and audit stamps as JSON', async () => {
      const urn = datasetUrn(uniqueNamespace(), 'json');
      const value = {
        text: 'Ünïcödé ✓ 数据 🚀 "quoted" \\ back\nslash',
        numbers: [0, -1.5, 1e-7, 2 ** 53, -(2 ** 53), 9_007_199_254_740_991, 1_700_000_000_123],
        flags: { yes: true, no: false, nothing: null },
        nested: { deeper: { deepest: [{ a: [] }, {}, ''] } },
      };
      const systemMetadata = { lastObserved: 1_234, runId: 'run-ü', properties: { k: 'v' } };
      const created = stamp(2 ** 41, { impersonator: 'urn:li:corpuser:other', message: 'why' });
      const [result] = await store().applyBatch([
        upsert(urn, 'datasetProperties', value, { systemMetadata, created }),
      ]);
      const stored = await store().get(urn, 'datasetProperties');
      expect(stored).toEqual({
        urn,
        aspect: 'datasetProperties',
        version: 0,
        value,
        // As written, with the version bookkeeping the store adds to the first version.
        systemMetadata: { ...systemMetadata, version: '1', aspectCreated: created, aspectModified: created },
        created,
      });
      expect(result?.current).toEqual(stored);
      const [withoutMetadata] = await store().applyBatch([upsert(urn, 'status', { removed: false })]);
      expect(withoutMetadata?.current?.systemMetadata ?? null).toEqual(
        (await store().get(urn, 'status'))?.systemMetadata ?? null,
      );
    });
  });

  describe('scan and count', () => {
    async function seed(): Promise<{ urnLike: string; rows: StoredAspect[] }> {
      const namespace = uniqueNamespace();
      const writes = [];
      for (let i = 0; i < 7; i += 1) {
        const urn = datasetUrn(namespace, `t${i}`);
        writes.push(upsert(urn, 'status', { removed: i % 2 === 0 }));
        if (i % 3 !== 0) writes.push(upsert(urn, 'datasetProperties', { i }));
        // History rows must not show up in a scan.
        if (i % 2 === 0) writes.push(upsert(urn, 'status', { removed: true, i }));
      }
      await store().applyBatch(writes);
      const urnLike = `urn:li:dataset:(urn:li:dataPlatform:hive,${namespace}.%`;
      // Noise outside the pattern.
      await store().applyBatch([
        upsert(datasetUrn(uniqueNamespace(), 'other'), 'status', { removed: false }),
      ]);
      const latest = await store().getLatestMany(
        Array.from({ length: 7 }, (_, i) => datasetUrn(namespace, `t${i}`)),
      );
      const rows = [...latest.values()].flat().sort(byUrnThenAspect);
      return { urnLike, rows };
    }

    const keyOf = (a: StoredAspect) => `${a.urn}|${a.aspect}|${a.version}`;

    it('scans version 0 in (urn, aspect) order, filtered by urnLike', async () => {
      const { urnLike, rows } = await seed();
      expect(rows).toHaveLength(7 + 4);
      const page = await store().scan({ urnLike, limit: 100 });
      expect(page.items).toEqual(rows);
      expect(page.next).toBeUndefined();
      expect(await store().count({ urnLike })).toBe(rows.length);
    });

    it('pages with start, covering every row exactly once', async () => {
      const { urnLike, rows } = await seed();
      const seen: StoredAspect[] = [];
      for (let start = 0; start < rows.length + 4; start += 4) {
        seen.push(...(await store().scan({ urnLike, start, limit: 4 })).items);
      }
      expect(seen.map(keyOf)).toEqual(rows.map(keyOf));
    });

    it('pages with after, covering every row exactly once and ending without a cursor', async () => {
      const { urnLike, rows } = await seed();
      const seen: StoredAspect[] = [];
      let after: string | undefined;
      let pages = 0;
      do {
        const page = await store().scan({ urnLike, limit: 3, ...(after === undefined ? {} : { after }) });
        seen.push(...page.items);
        after = page.next;
        pages += 1;
      } while (after !== undefined && pages < 100);
      expect(seen.map(keyOf)).toEqual(rows.map(keyOf));
      expect(pages).toBe(Math.ceil(rows.length / 3));
    });

    it('matches urnLike case-sensitively, with _ for one character and \\ as escape', async () => {
      const { urnLike, rows } = await seed();
      expect(await store().count({ urnLike: urnLike.toUpperCase() })).toBe(0);
      const oneChar = urnLike.replace(/%$/, '_1,PROD)');
      expect((await store().scan({ urnLike: oneChar, limit: 100 })).items).toEqual(
        rows.filter((r) => r.urn.endsWith('.t1,PROD)')),
      );
      expect(await store().count({ urnLike: urnLike.replace(/%$/, '\\_1,PROD)') })).toBe(0);
    });

    it('filters by aspect and by urn', async () => {
      const { urnLike, rows } = await seed();
      const statuses = await store().scan({ urnLike, aspect: 'status', limit: 100 });
      expect(statuses.items).toEqual(rows.filter((r) => r.aspect === 'status'));
      expect(await store().count({ urnLike, aspect: 'datasetProperties' })).toBe(4);
      const first = rows[0];
      if (first === undefined) throw new Error('seed wrote nothing');
      const one = await store().scan({ urn: first.urn, limit: 100 });
      expect(one.items).toEqual(rows.filter((r) => r.urn === first.urn));
    });
  });
}
