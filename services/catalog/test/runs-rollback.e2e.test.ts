import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  datasetUrn,
  enc,
  get,
  proposal,
  request,
  startTestCatalog,
  type JsonResponse,
  type TestCatalog,
} from './harness.js';
import { FAMILIES } from './families.js';

/**
 * `/runs?action=list|describe|rollback` (facts 5.4, 5.5): runs are what the latest rows record; a
 * rollback restores the value an earlier run wrote, removes aspects the run created, soft- or
 * hard-deletes entities whose key it wrote, reports unsafe entities, and a dry run changes nothing.
 */
for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping runs rollback e2e on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`ingestion runs and rollback on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    const tag = `rb${Math.random().toString(36).slice(2, 8)}`;
    const dataset = (name: string) => datasetUrn(`${tag}.${name}`);
    const runA = `${tag}-run-a`;
    const runB = `${tag}-run-b`;

    const write = async (runId: string | undefined, proposals: Record<string, unknown>[]) => {
      const withRun = proposals.map((p) => ({
        ...p,
        ...(runId === undefined ? {} : { systemMetadata: { runId, lastObserved: Date.now() } }),
      }));
      const res = await request(base, 'POST', '/aspects?action=ingestProposalBatch', {
        proposals: withRun,
        async: 'false',
      });
      if (res.status !== 200) throw new Error(`write: ${res.status} ${res.text}`);
    };
    const runs = (action: string, body: Record<string, unknown>): Promise<JsonResponse> =>
      request(base, 'POST', `/runs?action=${action}`, body);
    const valueOf = <T>(res: JsonResponse): T => {
      if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
      return (res.body as { value: T }).value;
    };
    const aspectOf = async (urn: string, aspect: string) => {
      const res = await get(base, `/aspects/${enc(urn)}?aspect=${aspect}&version=0`);
      if (res.status === 404) return undefined;
      if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
      const body = res.body as { aspect: Record<string, Record<string, unknown>>; systemMetadata?: unknown };
      return { value: Object.values(body.aspect)[0]!, systemMetadata: body.systemMetadata };
    };
    interface Row {
      runId: string;
      urn: string;
      aspectName: string;
      timestamp: number;
      keyAspect: boolean;
      aspect?: unknown;
    }
    const describeRun = async (runId: string, extra: Record<string, unknown> = {}) =>
      valueOf<Row[]>(await runs('describe', { runId, start: 0, count: 100, ...extra }));
    const rowKeys = (rows: Row[]) => rows.map((r) => `${r.aspectName}@${r.urn}`).sort();

    const shared = dataset('shared');
    const created = dataset('created');
    const unsafe = dataset('unsafe');
    const hard = dataset('hard');
    const profiled = dataset('profiled');
    const runE = `${tag}-run-e`;
    const runF = `${tag}-run-f`;
    const profile = (timestampMillis: number, rowCount: number) =>
      proposal(profiled, 'datasetProfile', { timestampMillis, rowCount, columnCount: 2 });
    const profilesOf = async (urn: string) => {
      const res = await request(base, 'POST', '/aspects?action=getTimeseriesAspectValues', {
        urn,
        entity: 'dataset',
        aspect: 'datasetProfile',
      });
      const value = valueOf<{ values: { aspect: { value: string }; systemMetadata?: { runId?: string } }[] }>(
        res,
      );
      return value.values.map((v) => ({
        ...(JSON.parse(v.aspect.value) as { timestampMillis: number; rowCount: number }),
        runId: v.systemMetadata?.runId,
      }));
    };

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      await write(runA, [proposal(shared, 'datasetProperties', { description: 'from run a' })]);
      await write(undefined, [proposal(unsafe, 'globalTags', { tags: [] })]);
      await write(runB, [
        proposal(shared, 'datasetProperties', { description: 'from run b' }),
        proposal(shared, 'globalTags', { tags: [{ tag: 'urn:li:tag:b' }] }),
        proposal(created, 'datasetProperties', { description: 'new in run b' }),
        proposal(unsafe, 'datasetProperties', { description: 'b on an entity with other data' }),
      ]);
      await write(`${tag}-run-c`, [proposal(hard, 'datasetProperties', { description: 'c' })]);
      // Run e writes a versioned aspect and a time-series value of an entity it did not create; run f
      // another value of the same aspect.
      await write(undefined, [proposal(profiled, 'datasetProperties', { description: 'before e' })]);
      await write(runE, [
        proposal(profiled, 'datasetProperties', { description: 'from e' }),
        profile(1_000, 1),
      ]);
      await write(runF, [profile(2_000, 2)]);
    }, 180_000);

    afterAll(async () => catalog?.dispose());

    it('records runId and lastRunId on every write, an identical one too', async () => {
      const before = await aspectOf(shared, 'datasetProperties');
      expect(before?.systemMetadata).toMatchObject({ runId: runB, lastRunId: runA });
      const tags = await aspectOf(unsafe, 'globalTags');
      expect([undefined, 'no-run-id-provided']).toContain(
        (tags?.systemMetadata as { runId?: string } | undefined)?.runId,
      );
    });

    it('lists runs newest first with their rows, the default run among them', async () => {
      const listed = valueOf<{ runId: string; rows: number; timestamp: number }[]>(
        await runs('list', { pageOffset: 0, pageSize: 100, includeSoft: false }),
      );
      const b = listed.find((r) => r.runId === runB);
      // shared: properties + tags; unsafe: properties; created: key, properties and its default aspects.
      const createdRows = (await describeRun(runB)).filter((r) => r.urn === created).length;
      expect(createdRows).toBeGreaterThanOrEqual(2);
      expect(b).toMatchObject({ rows: 3 + createdRows });
      expect(typeof b?.timestamp).toBe('number');
      expect(listed.some((r) => r.runId === 'no-run-id-provided')).toBe(true);
      // Run a keeps the rows of `shared` it created (key, defaults); its properties moved on to run b.
      const a = await describeRun(runA);
      expect(rowKeys(a)).toContain(`datasetKey@${shared}`);
      expect(rowKeys(a)).not.toContain(`datasetProperties@${shared}`);
      expect(listed.find((r) => r.runId === runA)?.rows).toBe(a.length);
      const timestamps = listed.map((r) => r.timestamp);
      expect([...timestamps].sort((x, y) => y - x)).toEqual(timestamps);
      const paged = valueOf<unknown[]>(await runs('list', { pageOffset: 0, pageSize: 1 }));
      expect(paged).toHaveLength(1);
    });

    it('describes a run row by row, with the aspect when asked', async () => {
      const rows = await describeRun(runB);
      expect(rowKeys(rows)).toEqual(
        expect.arrayContaining([
          `datasetKey@${created}`,
          `datasetProperties@${created}`,
          `datasetProperties@${shared}`,
          `datasetProperties@${unsafe}`,
          `globalTags@${shared}`,
        ]),
      );
      expect(rows.filter((r) => r.urn !== created)).toHaveLength(3);
      expect(rows.every((r) => r.runId === runB)).toBe(true);
      const key = rows.find((r) => r.aspectName === 'datasetKey');
      expect(key).toMatchObject({ runId: runB, urn: created, keyAspect: true });
      expect(key).not.toHaveProperty('aspect');
      const withAspect = await describeRun(runB, { includeAspect: true });
      const props = withAspect.find((r) => r.urn === shared && r.aspectName === 'datasetProperties');
      expect(props?.aspect).toMatchObject({ description: 'from run b' });
      const page = await describeRun(runB, { start: 1, count: 2 });
      expect(page).toHaveLength(2);
    });

    it('refuses the default run id, naming it', async () => {
      const res = await runs('rollback', { runId: 'no-run-id-provided', dryRun: true });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.text).toContain('no-run-id-provided');
    });

    it('reports what a dry run would do and changes nothing', async () => {
      const total = (await describeRun(runB)).length;
      const report = valueOf<Record<string, unknown>>(
        await runs('rollback', { runId: runB, dryRun: true, safe: true }),
      );
      expect(report).toMatchObject({
        entitiesAffected: 3,
        entitiesDeleted: 1,
        aspectsReverted: total - 1,
        unsafeEntitiesCount: 0,
        unsafeEntities: [],
      });
      expect(report).not.toHaveProperty('aspectsAffected');
      const summaries = report['aspectRowSummaries'] as Row[];
      // A soft dry run does not show the key rows it keeps.
      expect(summaries.some((r) => r.keyAspect)).toBe(false);
      expect(await describeRun(runB)).toHaveLength(total);
      expect((await aspectOf(shared, 'datasetProperties'))?.value).toMatchObject({
        description: 'from run b',
      });
    });

    it('rolls back softly: restores the earlier value, removes what the run created, soft-deletes its entity', async () => {
      const total = (await describeRun(runB)).length;
      const report = valueOf<Record<string, unknown>>(
        await runs('rollback', { runId: runB, dryRun: false, safe: true }),
      );
      expect(report).toMatchObject({ entitiesAffected: 3, entitiesDeleted: 1, aspectsReverted: total });
      expect(report['aspectsAffected']).toBe(0);

      const restored = await aspectOf(shared, 'datasetProperties');
      expect(restored?.value).toMatchObject({ description: 'from run a' });
      expect(restored?.systemMetadata).toMatchObject({ runId: runA, lastRunId: runB });
      expect(await aspectOf(shared, 'globalTags')).toBeUndefined();
      expect(await aspectOf(unsafe, 'datasetProperties')).toBeUndefined();
      expect(await aspectOf(unsafe, 'globalTags')).toBeDefined();
      expect(await aspectOf(created, 'datasetProperties')).toBeUndefined();
      expect((await aspectOf(created, 'status'))?.value).toEqual({ removed: true });
      expect(await aspectOf(created, 'datasetKey')).toBeDefined();

      // The run now shows only rows of soft-deleted entities, which describe hides unless asked.
      expect(await describeRun(runB)).toEqual([]);
      expect(rowKeys(await describeRun(runB, { includeSoft: true }))).toEqual([`datasetKey@${created}`]);
      // Rolling back again is a no-op that finishes cleanly.
      const again = valueOf<Record<string, unknown>>(await runs('rollback', { runId: runB, safe: true }));
      expect(again).toMatchObject({ entitiesAffected: 0, aspectsReverted: 0 });
    });

    it('hides from the list the runs whose rows all belong to soft-deleted entities, unless includeSoft', async () => {
      // After its soft rollback, run b holds only the key of the entity it created, now soft-deleted.
      expect(rowKeys(await describeRun(runB, { includeSoft: true }))).toEqual([`datasetKey@${created}`]);
      type Listed = { runId: string; rows: number }[];
      const live = valueOf<Listed>(await runs('list', { pageSize: 1000 }));
      expect(live.some((r) => r.runId === runB)).toBe(false);
      expect(live.some((r) => r.runId === runA)).toBe(true);
      const all = valueOf<Listed>(await runs('list', { pageSize: 1000, includeSoft: true }));
      expect(all.find((r) => r.runId === runB)).toMatchObject({ rows: 1 });
      expect(valueOf<Listed>(await runs('list', { pageSize: 1000, includeSoft: 'false' }))).toEqual(live);
      // Paging counts only the listed runs.
      const second = valueOf<Listed>(await runs('list', { pageOffset: 1, pageSize: 1 }));
      expect(second).toEqual(live.slice(1, 2));
    });

    it('rolls back the time-series values a run wrote through the log, other runs’ kept', async () => {
      expect((await profilesOf(profiled)).map((p) => [p.timestampMillis, p.runId])).toEqual([
        [2_000, runF],
        [1_000, runE],
      ]);
      const dry = valueOf<Record<string, unknown>>(await runs('rollback', { runId: runE, dryRun: true }));
      expect(dry).toMatchObject({ entitiesAffected: 1, aspectsReverted: 1, timeseriesAspectsReverted: 1 });
      expect(await profilesOf(profiled)).toHaveLength(2);

      const done = valueOf<Record<string, unknown>>(await runs('rollback', { runId: runE, safe: true }));
      // The restored datasetProperties and the deleted time-series value.
      expect(done).toMatchObject({ entitiesAffected: 1, aspectsReverted: 2, timeseriesAspectsReverted: 1 });
      expect(await profilesOf(profiled)).toEqual([
        { timestampMillis: 2_000, rowCount: 2, columnCount: 2, runId: runF },
      ]);
      expect((await aspectOf(profiled, 'datasetProperties'))?.value).toMatchObject({
        description: 'before e',
      });

      // Resumable: a value of the run left behind (or written since) goes on the next rollback.
      await write(runE, [profile(3_000, 3)]);
      const again = valueOf<Record<string, unknown>>(await runs('rollback', { runId: runE, safe: true }));
      expect(again).toMatchObject({ entitiesAffected: 0, aspectsReverted: 1, timeseriesAspectsReverted: 1 });
      expect((await profilesOf(profiled)).map((p) => p.runId)).toEqual([runF]);
      const nothing = valueOf<Record<string, unknown>>(await runs('rollback', { runId: runE, safe: true }));
      expect(nothing).toMatchObject({ aspectsReverted: 0, timeseriesAspectsReverted: 0 });
    });

    it('rolls back hard: deletes the entity whose key the run wrote, and reports unsafe entities', async () => {
      const runC = `${tag}-run-c`;
      // Another run adds data to the entity run c created: deleting it would take that along.
      await write(`${tag}-run-d`, [proposal(hard, 'globalTags', { tags: [] })]);
      const total = (await describeRun(runC)).length;
      const dry = valueOf<Record<string, unknown>>(
        await runs('rollback', { runId: runC, dryRun: true, hardDelete: true }),
      );
      expect(dry).toMatchObject({
        entitiesDeleted: 1,
        aspectsReverted: total,
        unsafeEntitiesCount: 1,
        unsafeEntities: [{ urn: hard }],
      });
      expect((dry['aspectRowSummaries'] as Row[]).some((r) => r.keyAspect)).toBe(true);
      const done = valueOf<Record<string, unknown>>(await runs('rollback', { runId: runC, safe: false }));
      expect(done).toMatchObject({ entitiesDeleted: 1, unsafeEntitiesCount: 1, aspectsAffected: 1 });
      expect(await aspectOf(hard, 'datasetKey')).toBeUndefined();
      expect(await aspectOf(hard, 'globalTags')).toBeUndefined();
      expect(await describeRun(runC, { includeSoft: true })).toEqual([]);
      const listed = valueOf<{ runId: string }[]>(await runs('list', { pageSize: 1000 }));
      expect(listed.some((r) => r.runId === runC)).toBe(false);
    });

    it('answers 400 for an unknown action and a missing run id', async () => {
      expect((await runs('nope', {})).status).toBe(400);
      expect((await runs('describe', {})).status).toBe(400);
    });
  });
}
