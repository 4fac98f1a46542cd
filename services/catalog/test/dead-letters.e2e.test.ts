import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  datasetUrn,
  enc,
  get,
  post,
  proposal,
  request,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';
import { FAMILIES } from './families.js';

interface DeadLetterCounts {
  readonly topic: string;
  readonly records: number;
  readonly notReplayed: number;
}

/**
 * The message-size limit (MAX_MESSAGE_BYTES, one setting) and the consumers' dead letters, through the
 * HTTP interface on each family: a write whose change log could not fit is a 413 before anything is
 * stored; a change log no consumer can apply is set aside per group, counted in the consumer-lag
 * endpoint, and the partition moves on; the replay endpoint produces it again for its group alone.
 */
for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping dead-letter e2e on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`message-size limit and dead letters on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    const run = `dl${Math.random().toString(36).slice(2, 8)}`;
    const limit = 1024 * 1024;

    beforeAll(async () => {
      catalog = await startTestCatalog({ ...family.env(), MAX_MESSAGE_BYTES: String(limit) });
      base = catalog.baseUrl;
    });
    afterAll(async () => catalog?.dispose());

    const proposalLogEnd = async () => {
      const lag = await catalog.log.lag(`${run}-probe`, catalog.topics.metadataChangeProposal);
      return lag.reduce((sum, p) => sum + Number(p.endOffset), 0);
    };
    const lagOf = async (kind: string) => {
      const res = await get(base, `/openapi/operations/messaging/${kind}/consumer/lag`);
      expect(res.status).toBe(200);
      const body = res.body as {
        consumerGroups: Record<string, Record<string, { metrics: { totalLag: number } }>>;
        deadLetters: DeadLetterCounts;
      };
      const groups = Object.values(body.consumerGroups);
      const totalLag = groups
        .flatMap((g) => Object.values(g))
        .reduce((sum, t) => sum + t.metrics.totalLag, 0);
      return { totalLag, deadLetters: body.deadLetters };
    };
    const description = (size: number, fill: string) =>
      proposal(datasetUrn(`${run}.big`), 'datasetProperties', { description: fill.repeat(size) });

    it('refuses with 413 a write whose change log could not fit in the log, before anything is stored', async () => {
      const before = await proposalLogEnd();
      // About 600 KB: the proposal fits, but its change log (previous and new value) could not.
      const res = await post(base, '/aspects?action=ingestProposal', { proposal: description(600_000, 'a') });
      expect(res.status).toBe(413);
      expect(res.text).toMatch(new RegExp(`message-size limit of ${limit} bytes \\(MAX_MESSAGE_BYTES\\)`));
      expect(await proposalLogEnd()).toBe(before);
      const entity = await get(base, `/entitiesV2/${enc(datasetUrn(`${run}.big`))}`);
      expect((entity.body as { aspects: object }).aspects).toEqual({});
    });

    it('accepts an aspect that fits written twice, whose change log then carries both values', async () => {
      for (const fill of ['b', 'c']) {
        const res = await request(base, 'POST', '/aspects?action=ingestProposal', {
          proposal: description(400_000, fill),
        });
        expect(res.status).toBe(200);
      }
      const stored = await get(
        base,
        `/aspects/${enc(datasetUrn(`${run}.big`))}?aspect=datasetProperties&version=0`,
      );
      expect(JSON.stringify(stored.body)).toContain('c'.repeat(1000));
      const mcl = await waitUntil(
        () => lagOf('mcl'),
        (l) => l.totalLag === 0,
        30_000,
      );
      expect(mcl.deadLetters.records).toBe(0);
    });

    it('sets aside a change log no consumer can apply, per group, and keeps applying the rest', async () => {
      // A foreign producer's record that is not a change log at all.
      await catalog.log.produce(catalog.topics.metadataChangeLogVersioned, [
        { key: datasetUrn(`${run}.garbage`), value: Buffer.from('not an avro change log') },
      ]);
      const after = datasetUrn(`${run}.after`);
      const res = await request(base, 'POST', '/aspects?action=ingestProposal', {
        proposal: proposal(after, 'datasetProperties', { name: `${run}_after` }),
      });
      expect(res.status).toBe(200);
      const search = await request(base, 'POST', '/entities?action=search', {
        entity: 'dataset',
        input: `${run}_after`,
        start: 0,
        count: 10,
      });
      expect(JSON.stringify(search.body)).toContain(after);

      const mcl = await waitUntil(
        () => lagOf('mcl'),
        (l) => l.totalLag === 0 && l.deadLetters.records === 1,
        30_000,
      );
      expect(mcl.deadLetters).toMatchObject({ records: 1, notReplayed: 1 });
      const audit = await waitUntil(
        () => lagOf('usage-events'),
        (l) => l.totalLag === 0 && l.deadLetters.records === 1,
        30_000,
      );
      expect(audit.deadLetters.topic).not.toBe(mcl.deadLetters.topic);
    });

    it("replays a group's dead letters for that group alone, once", async () => {
      const replay = await post(base, '/openapi/operations/dead-letters/replay?group=indexer', {});
      expect(replay.status).toBe(200);
      expect(replay.body).toMatchObject({ replayed: { [catalog.topics.metadataChangeLogVersioned]: 1 } });
      // Still not a change log: the indexer sets it aside again; the audit consumer skips the replay.
      await waitUntil(
        () => lagOf('mcl'),
        (l) => l.totalLag === 0 && l.deadLetters.records === 2,
        30_000,
      );
      const audit = await waitUntil(
        () => lagOf('usage-events'),
        (l) => l.totalLag === 0,
        30_000,
      );
      expect(audit.deadLetters.records).toBe(1);
      const again = await post(base, '/openapi/operations/dead-letters/replay?group=audit', {});
      expect(again.body).toMatchObject({ replayed: { [catalog.topics.metadataChangeLogVersioned]: 1 } });
      const none = await post(base, '/openapi/operations/dead-letters/replay?group=audit', {});
      expect(none.body).toMatchObject({ replayed: {} });
      const unknown = await post(base, '/openapi/operations/dead-letters/replay?group=nobody', {});
      expect(unknown.status).toBe(400);
      expect((unknown.body as { message: string }).message).toMatch(/Unknown consumer group "nobody"/);
    });
  });
}
