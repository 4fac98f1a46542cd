import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TimeseriesDocument, TimeseriesIndex, TimeseriesQuery } from '@catalog/search';
import { uniqueNamespace } from './search-index-fixtures.js';

export interface TimeseriesIndexUnderTest {
  readonly timeseries: TimeseriesIndex;
  cleanup(): Promise<void>;
}

/**
 * The behaviour every TimeseriesIndex adapter must show; a fresh, empty index set per test. Queries
 * return one (entityType, aspect, urn)'s documents newest first, the time range inclusive at both ends,
 * at most `limit`; a filter applies to top-level fields of the value (EQUAL compares numbers as numbers).
 * The same id written twice is one document, holding the last value. A delete removes one
 * (entityType, aspect, urn)'s documents in an inclusive range (all of them without one), is seen by the
 * next query with no refresh, and deleting again deletes nothing and succeeds.
 */
export function timeseriesIndexContract(
  name: string,
  factory: () => Promise<TimeseriesIndexUnderTest>,
): void {
  describe(`TimeseriesIndex contract: ${name}`, () => {
    let underTest: TimeseriesIndexUnderTest | undefined;
    const ts = (): TimeseriesIndex => {
      if (underTest === undefined) throw new Error('time-series index not opened');
      return underTest.timeseries;
    };
    beforeEach(async () => {
      underTest = await factory();
      await underTest.timeseries.ensure('dataset', 'datasetProfile');
      await underTest.timeseries.ensure('dataset', 'datasetProfile');
      await underTest.timeseries.ensure('dataset', 'datasetUsageStatistics');
    });
    afterEach(async () => {
      await underTest?.cleanup();
      underTest = undefined;
    });

    const urnOf = (ns: string, n: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${ns}.${n},PROD)`;
    const profile = (
      urn: string,
      t: number,
      rowCount: number,
      aspect = 'datasetProfile',
    ): TimeseriesDocument => ({
      entityType: 'dataset',
      aspect,
      urn,
      timestampMillis: t,
      id: `${urn}|${aspect}|${t}`,
      value: {
        timestampMillis: t,
        rowCount,
        columnCount: 3,
        partitionSpec: { partition: 'FULL_TABLE_SNAPSHOT' },
      },
    });
    const query = async (q: Partial<TimeseriesQuery> & Pick<TimeseriesQuery, 'urn'>) => {
      await ts().refresh();
      return ts().query({ entityType: 'dataset', aspect: 'datasetProfile', limit: 100, ...q });
    };

    it('returns a urn and aspect’s documents newest first, with everything written', async () => {
      const ns = uniqueNamespace();
      const urn = urnOf(ns, 'orders');
      const docs = [profile(urn, 1_000, 10), profile(urn, 3_000, 30), profile(urn, 2_000, 20)];
      await ts().upsert([{ ...docs[0]!, systemMetadata: { runId: 'r1' } }, docs[1]!, docs[2]!]);
      await ts().upsert([
        profile(urnOf(ns, 'other'), 2_500, 99),
        profile(urn, 2_500, 77, 'datasetUsageStatistics'),
      ]);
      const result = await query({ urn });
      expect(result.map((d) => d.timestampMillis)).toEqual([3_000, 2_000, 1_000]);
      expect(result[0]).toEqual(docs[1]);
      expect(result[2]).toEqual({ ...docs[0], systemMetadata: { runId: 'r1' } });
    });

    it('bounds the time range inclusively and honours the limit', async () => {
      const ns = uniqueNamespace();
      const urn = urnOf(ns, 'orders');
      await ts().upsert([1_000, 2_000, 3_000, 4_000, 5_000].map((t) => profile(urn, t, t / 1000)));
      const ranged = await query({ urn, startTimeMillis: 2_000, endTimeMillis: 4_000 });
      expect(ranged.map((d) => d.timestampMillis)).toEqual([4_000, 3_000, 2_000]);
      expect((await query({ urn, startTimeMillis: 4_500 })).map((d) => d.timestampMillis)).toEqual([5_000]);
      expect((await query({ urn, endTimeMillis: 1_000 })).map((d) => d.timestampMillis)).toEqual([1_000]);
      expect((await query({ urn, limit: 2 })).map((d) => d.timestampMillis)).toEqual([5_000, 4_000]);
    });

    it('keeps one document per id, holding the last value written', async () => {
      const ns = uniqueNamespace();
      const urn = urnOf(ns, 'orders');
      await ts().upsert([profile(urn, 1_000, 10)]);
      await ts().upsert([profile(urn, 1_000, 11), profile(urn, 1_000, 12)]);
      const result = await query({ urn });
      expect(result).toHaveLength(1);
      expect(result[0]?.value['rowCount']).toBe(12);
    });

    it('filters on top-level fields of the value', async () => {
      const ns = uniqueNamespace();
      const urn = urnOf(ns, 'orders');
      await ts().upsert([profile(urn, 1_000, 10), profile(urn, 2_000, 20), profile(urn, 3_000, 10)]);
      const result = await query({
        urn,
        filter: { or: [{ and: [{ field: 'rowCount', values: ['10'], condition: 'EQUAL' }] }] },
      });
      expect(result.map((d) => d.timestampMillis)).toEqual([3_000, 1_000]);
      const limited = await query({
        urn,
        limit: 1,
        filter: { or: [{ and: [{ field: 'rowCount', values: ['10'], condition: 'EQUAL' }] }] },
      });
      expect(limited.map((d) => d.timestampMillis)).toEqual([3_000]);
    });

    it('scans every entity of an aspect in pages that resume after the last document, with ties by id', async () => {
      const ns = uniqueNamespace();
      // A time window no other test writes in, so the scan sees only this test's documents.
      const base = Date.now() * 16;
      const urns = ['a', 'b', 'c'].map((name) => urnOf(ns, name));
      const written = urns.flatMap((urn, i) => [
        profile(urn, base + 100, i),
        profile(urn, base + 200 + i, i),
        profile(urn, base + 300, i),
      ]);
      await ts().upsert(written);
      await ts().refresh();
      const window = {
        entityType: 'dataset',
        aspect: 'datasetProfile',
        startTimeMillis: base,
        endTimeMillis: base + 1_000,
      };
      const seen: TimeseriesDocument[] = [];
      let after: TimeseriesDocument | undefined;
      for (let page = 0; page < 10; page++) {
        const found = await ts().query({
          ...window,
          limit: 2,
          ...(after === undefined ? {} : { after: { timestampMillis: after.timestampMillis, id: after.id } }),
        });
        seen.push(...found);
        if (found.length < 2) break;
        after = found[found.length - 1];
      }
      const expected = [...written].sort((x, y) =>
        x.timestampMillis !== y.timestampMillis
          ? y.timestampMillis - x.timestampMillis
          : x.id < y.id
            ? -1
            : 1,
      );
      expect(seen.map((d) => d.id)).toEqual(expected.map((d) => d.id));
      const unpaged = await ts().query({ ...window, limit: 100 });
      expect(unpaged.map((d) => d.id)).toEqual(expected.map((d) => d.id));
    });

    it('deletes a urn’s documents of an aspect in an inclusive range, and no others', async () => {
      const ns = uniqueNamespace();
      const urn = urnOf(ns, 'orders');
      const other = urnOf(ns, 'other');
      await ts().upsert([1_000, 2_000, 3_000, 4_000, 5_000].map((t) => profile(urn, t, t / 1000)));
      await ts().upsert([profile(other, 3_000, 9), profile(urn, 3_000, 9, 'datasetUsageStatistics')]);
      const deletion = {
        entityType: 'dataset',
        aspect: 'datasetProfile',
        urn,
        startTimeMillis: 2_000,
        endTimeMillis: 4_000,
      };
      expect(await ts().delete(deletion)).toBe(3);
      // Read at once, no refresh in between: what was deleted is gone.
      const left = await ts().query({ entityType: 'dataset', aspect: 'datasetProfile', urn, limit: 100 });
      expect(left.map((d) => d.timestampMillis)).toEqual([5_000, 1_000]);
      expect((await query({ urn: other })).map((d) => d.timestampMillis)).toEqual([3_000]);
      const usage = await query({ urn, aspect: 'datasetUsageStatistics' });
      expect(usage.map((d) => d.timestampMillis)).toEqual([3_000]);

      // Redelivered: nothing more to delete, and no failure.
      expect(await ts().delete(deletion)).toBe(0);
      expect((await query({ urn })).map((d) => d.timestampMillis)).toEqual([5_000, 1_000]);
    });

    it('counts what a delete of a range would delete, also documents just written', async () => {
      const ns = uniqueNamespace();
      const urn = urnOf(ns, 'orders');
      await ts().upsert([1_000, 2_000, 3_000, 4_000, 5_000].map((t) => profile(urn, t, t / 1000)));
      await ts().upsert([
        profile(urnOf(ns, 'other'), 3_000, 9),
        profile(urn, 3_000, 9, 'datasetUsageStatistics'),
      ]);
      const where = { entityType: 'dataset', aspect: 'datasetProfile', urn };
      expect(await ts().count(where)).toBe(5);
      expect(await ts().count({ ...where, startTimeMillis: 2_000, endTimeMillis: 4_000 })).toBe(3);
      expect(await ts().count({ ...where, endTimeMillis: 1_000 })).toBe(1);
      expect(await ts().count({ ...where, aspect: 'datasetUsageStatistics' })).toBe(1);
      expect(await ts().count({ ...where, urn: urnOf(ns, 'none') })).toBe(0);
      expect(await ts().count({ ...where, aspect: 'operation' })).toBe(0);
      expect(await ts().delete({ ...where, startTimeMillis: 2_000, endTimeMillis: 4_000 })).toBe(3);
      expect(await ts().count(where)).toBe(2);
    });

    it('finds, counts and deletes a run’s documents of every entity type and aspect', async () => {
      const ns = uniqueNamespace();
      const run = `run-${ns}`;
      const other = `other-${ns}`;
      const urn = urnOf(ns, 'orders');
      const chart = `urn:li:chart:(looker,${ns})`;
      const of = (doc: TimeseriesDocument, runId?: string): TimeseriesDocument =>
        runId === undefined ? doc : { ...doc, systemMetadata: { runId, lastObserved: 1 } };
      await ts().ensure('chart', 'chartUsageStatistics');
      await ts().upsert([
        of(profile(urn, 1_000, 1), run),
        of(profile(urn, 2_000, 2), other),
        of(profile(urn, 3_000, 3), run),
        of(profile(urn, 4_000, 4)),
        of(profile(urn, 3_000, 3, 'datasetUsageStatistics'), run),
        of(profile(urnOf(ns, 'b'), 1_000, 1), run),
        of(
          {
            entityType: 'chart',
            aspect: 'chartUsageStatistics',
            urn: chart,
            timestampMillis: 5_000,
            id: `${chart}|5000`,
            value: { timestampMillis: 5_000, viewsCount: 7 },
          },
          run,
        ),
      ]);
      expect(await ts().runGroups(run)).toEqual([
        { entityType: 'chart', aspect: 'chartUsageStatistics', urn: chart, count: 1 },
        { entityType: 'dataset', aspect: 'datasetProfile', urn: urnOf(ns, 'b'), count: 1 },
        { entityType: 'dataset', aspect: 'datasetProfile', urn, count: 2 },
        { entityType: 'dataset', aspect: 'datasetUsageStatistics', urn, count: 1 },
      ]);
      expect(await ts().countRun(run)).toBe(5);
      expect(await ts().countRun(`none-${ns}`)).toBe(0);
      expect(await ts().runGroups(`none-${ns}`)).toEqual([]);
      const where = { entityType: 'dataset', aspect: 'datasetProfile', urn };
      expect(await ts().count({ ...where, runId: run })).toBe(2);
      expect(await ts().count({ ...where, runId: run, startTimeMillis: 2_000 })).toBe(1);
      // A run-scoped delete of one urn and aspect leaves the other runs’ documents and the run’s others.
      expect(await ts().delete({ ...where, runId: run })).toBe(2);
      expect(await ts().delete({ ...where, runId: run })).toBe(0);
      expect((await query({ urn })).map((d) => d.timestampMillis)).toEqual([4_000, 2_000]);
      expect(await ts().countRun(run)).toBe(3);
      expect(await ts().deleteRun(run)).toBe(3);
      expect(await ts().deleteRun(run)).toBe(0);
      expect(await ts().countRun(run)).toBe(0);
      expect(await ts().countRun(other)).toBe(1);
      expect(await query({ urn: urnOf(ns, 'b') })).toEqual([]);
      await ts().refresh();
      expect(
        await ts().query({ entityType: 'chart', aspect: 'chartUsageStatistics', urn: chart, limit: 10 }),
      ).toEqual([]);
      expect(await query({ urn, aspect: 'datasetUsageStatistics' })).toEqual([]);
    });

    it('finds by run the documents upserted just before, and keeps the run in systemMetadata', async () => {
      const ns = uniqueNamespace();
      const run = `run-${ns}`;
      const urn = urnOf(ns, 'orders');
      await ts().upsert([{ ...profile(urn, 1_000, 1), systemMetadata: { runId: run } }]);
      expect(await ts().runGroups(run)).toEqual([
        { entityType: 'dataset', aspect: 'datasetProfile', urn, count: 1 },
      ]);
      const [found] = await query({ urn });
      expect(found?.systemMetadata).toEqual({ runId: run });
      // Rewriting the document under another run moves it to that run.
      await ts().upsert([{ ...profile(urn, 1_000, 1), systemMetadata: { runId: `${run}-b` } }]);
      expect(await ts().countRun(run)).toBe(0);
      expect(await ts().countRun(`${run}-b`)).toBe(1);
    });

    it('deletes from the earliest or up to the latest when a bound is absent', async () => {
      const ns = uniqueNamespace();
      const urn = urnOf(ns, 'orders');
      await ts().upsert([1_000, 2_000, 3_000, 4_000, 5_000].map((t) => profile(urn, t, t / 1000)));
      const where = { entityType: 'dataset', aspect: 'datasetProfile', urn };
      expect(await ts().delete({ ...where, endTimeMillis: 2_000 })).toBe(2);
      expect(await ts().delete({ ...where, startTimeMillis: 4_000 })).toBe(2);
      expect((await query({ urn })).map((d) => d.timestampMillis)).toEqual([3_000]);
      expect(await ts().delete({ ...where, startTimeMillis: 3_000, endTimeMillis: 3_000 })).toBe(1);
      expect(await query({ urn })).toEqual([]);
    });

    it('deletes every document of the urn’s aspect without a range, also ones just written', async () => {
      const ns = uniqueNamespace();
      const urn = urnOf(ns, 'orders');
      const other = urnOf(ns, 'other');
      await ts().upsert([profile(urn, 0, 0), profile(urn, 1_000, 1), profile(other, 1_000, 1)]);
      await ts().refresh();
      // Written and deleted with no refresh in between.
      await ts().upsert([profile(urn, 2_000, 2)]);
      expect(await ts().delete({ entityType: 'dataset', aspect: 'datasetProfile', urn })).toBe(3);
      expect(await query({ urn })).toEqual([]);
      expect((await query({ urn: other })).map((d) => d.timestampMillis)).toEqual([1_000]);
      expect(await ts().delete({ entityType: 'dataset', aspect: 'datasetProfile', urn })).toBe(0);

      // The aspect takes values again afterwards.
      await ts().upsert([profile(urn, 1_000, 5)]);
      expect((await query({ urn })).map((d) => d.value['rowCount'])).toEqual([5]);
    });

    it('deletes nothing, without failing, for an unknown urn or an aspect never written', async () => {
      const urn = urnOf(uniqueNamespace(), 'none');
      expect(await ts().delete({ entityType: 'dataset', aspect: 'datasetProfile', urn })).toBe(0);
      expect(await ts().delete({ entityType: 'dataset', aspect: 'operation', urn, endTimeMillis: 5 })).toBe(
        0,
      );
    });

    it('returns nothing for an unknown urn', async () => {
      expect(await query({ urn: urnOf(uniqueNamespace(), 'none') })).toEqual([]);
    });
  });
}
