import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectExactlyOnce, startWriters, type Writers } from './acknowledged-writes.js';
import { freePort, spawnService, waitForHealth, type ChildService } from './child-catalog.js';
import { distributedEnv, withKafkaAdmin } from './distributed-env.js';
import { SYSTEM_AUTH_HEADERS, waitUntil } from './harness.js';
import { expectIndexedAsStored } from './indexed-writes.js';
import { privateInfraSkip, startPrivateInfra, type PrivateInfra } from './private-infra.js';

const skip = privateInfraSkip();
if (skip) console.warn(`skipping the fault e2e: ${skip}`);

/** What the gateway answered besides 200, by status, for the report of a fault. */
function statuses(writers: Writers): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const error of writers.errors) {
    const status = error.slice(0, 3);
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

/** Refusals other than 503: a fault of a dependency is an outage, never a 500 or a 4xx. */
function notUnavailable(writers: Writers): string[] {
  return writers.errors.filter((e) => !e.startsWith('503 '));
}

async function searchDatasets(base: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${base}/entities?action=search`, {
    method: 'POST',
    headers: {
      ...SYSTEM_AUTH_HEADERS,
      'Content-Type': 'application/json',
      'X-RestLi-Protocol-Version': '2.0.0',
    },
    body: JSON.stringify({ entity: 'dataset', input: '*', start: 0, count: 1 }),
  });
  return { status: res.status, text: await res.text() };
}

describe.skipIf(skip !== undefined)(
  'faults: Kafka, OpenSearch and the MongoDB-wire server stopped under the distributed catalog',
  () => {
    // Services of this file alone: the shared ones serve other files meanwhile and must never stop.
    let infra: PrivateInfra | undefined;
    const children: ChildService[] = [];
    let env: Record<string, string>;
    let base: string;

    const start = (main: string, extra: Record<string, string> = {}): ChildService => {
      const child = spawnService(main, { ...env, ...extra });
      children.push(child);
      return child;
    };

    /** Members of a consumer group, as the broker reports them. */
    const groupMembers = (groupId: string): Promise<number> =>
      withKafkaAdmin(env, async (admin) => {
        const { groups } = await admin.describeGroups([groupId]);
        return groups[0]?.state === 'Stable' ? groups[0].members.length : 0;
      });

    /** A consumer service, once it has joined its group (a fault before that would only stop its start). */
    const startConsumer = async (main: string, groupId: string): Promise<void> => {
      const child = start(main);
      await waitUntil(
        async () => {
          if (child.process.exitCode !== null) throw new Error(`${main} exited:\n${child.output()}`);
          return groupMembers(groupId);
        },
        (members) => members > 0,
        120_000,
      );
    };

    beforeAll(async () => {
      infra = await startPrivateInfra();
      env = {
        ...distributedEnv(infra.urls),
        KAFKA_TOPIC_PARTITIONS: '4',
        SYNC_INGEST_TIMEOUT_MS: '60000',
        // FAULTS_LOG_LEVEL=info (or debug) puts more of the services' lines in the files afterAll writes.
        LOG_LEVEL: process.env['FAULTS_LOG_LEVEL'] ?? 'warn',
      };
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      const setup = start('services/system-update/src/main.ts');
      expect(await setup.exited, setup.output()).toBe(0);
      const gateway = start('services/gateway/src/main.ts', { PORT: String(port), HOST: '127.0.0.1' });
      await Promise.all([
        startConsumer(
          'services/persistence/src/main.ts',
          `persistence-${env['METADATA_CHANGE_PROPOSAL_TOPIC_NAME']!}`,
        ),
        startConsumer(
          'services/indexer/src/main.ts',
          `indexer-${env['METADATA_CHANGE_LOG_VERSIONED_TOPIC_NAME']!}`,
        ),
        waitForHealth(base, gateway),
      ]);
    }, 240_000);

    afterAll(async () => {
      for (const c of children) if (c.process.exitCode === null) c.process.kill('SIGKILL');
      // The services' own lines, for whoever reads a failure (they are long; a file each).
      const logs = mkdtempSync(join(tmpdir(), 'catalog-faults-logs-'));
      children.forEach((c, i) =>
        writeFileSync(
          join(logs, `${i}-${basename(dirname(dirname(c.process.spawnargs.at(-1)!)))}.log`),
          c.output(),
        ),
      );
      console.warn(`fault e2e: service logs in ${logs}`);
      await infra?.destroy();
    }, 120_000);

    /**
     * The pipeline still serves once the fault is over: fresh synchronous writes are all answered 200
     * and stored once, so no partition is left stalled behind the recovery.
     */
    async function expectStillServing(prefix: string): Promise<void> {
      const writers = startWriters(() => base, prefix, 6, 0);
      await acknowledgedMore(writers, 120, 90_000).finally(() => writers.stop());
      expect(writers.errors).toEqual([]);
      await expectExactlyOnce(base, writers.acked, 120_000);
    }

    /** Waits for `more` acknowledged writes beyond those made so far; returns the count it started from. */
    async function acknowledgedMore(writers: Writers, more: number, timeoutMs: number): Promise<number> {
      const from = writers.total();
      await waitUntil(
        async () => writers.total(),
        (n) => n >= from + more,
        timeoutMs,
      );
      return from;
    }

    /**
     * 0 lost and 0 doubled, counted in the store and in the index: every acknowledged value is stored
     * exactly once and every entity indexed as stored; then the pipeline still serves and no service died.
     */
    async function expectNoneLostOrDoubled(writers: Writers, prefix: string): Promise<void> {
      expect(await expectExactlyOnce(base, writers.acked, 120_000)).toBeGreaterThanOrEqual(200);
      expect(await expectIndexedAsStored(base, env, [...writers.acked.keys()])).toBe(writers.acked.size);
      await expectStillServing(`${prefix}-after`);
      expectAllRunning();
    }

    /** Every service process is still running: a fault of a dependency must not end one. */
    function expectAllRunning(): void {
      for (const c of children.slice(1))
        expect(c.process.exitCode, `${c.process.spawnargs.at(-1)} exited:\n${c.output()}`).toBeNull();
    }

    it(
      'a Kafka broker restarted during writes: writes succeed or answer 503, every acknowledged one is stored once and indexed',
      { timeout: 300_000 },
      async () => {
        expectAllRunning();
        const writers = startWriters(() => base, 'broker', 6, 2, { asyncPauseMs: 100 });
        await acknowledgedMore(writers, 100, 60_000);
        await infra!.stop('kafka');
        // The broker stays down until the gateway has refused a write for it.
        await waitUntil(
          async () => writers.errors.length,
          (n) => n > 0,
          90_000,
        );
        const refusedWhileDown = writers.errors.length;
        await infra!.start('kafka');
        await acknowledgedMore(writers, 100, 120_000);
        await writers.stop();
        console.warn(
          `broker restart: ${writers.total()} acknowledged, ${refusedWhileDown} refused while down, answers other than 200: ${JSON.stringify(statuses(writers))}`,
        );
        expect(notUnavailable(writers)).toEqual([]);
        await expectNoneLostOrDoubled(writers, 'broker');
      },
    );

    it(
      'OpenSearch stopped and restarted: search answers 503 naming it, writes are accepted, the index catches up',
      { timeout: 300_000 },
      async () => {
        expectAllRunning();
        const writers = startWriters(() => base, 'search', 4, 2, { asyncPauseMs: 100 });
        await acknowledgedMore(writers, 50, 60_000);
        await infra!.stop('opensearch');
        const down = await searchDatasets(base);
        expect(down.status, down.text).toBe(503);
        expect(down.text).toMatch(/OpenSearch/);
        // The store and the log are up: writes keep being acknowledged while nothing can be indexed.
        const atStop = await acknowledgedMore(writers, 100, 60_000);
        expect((await searchDatasets(base)).status).toBe(503);
        await infra!.start('opensearch');
        await waitUntil(
          () => searchDatasets(base),
          (r) => r.status === 200,
          60_000,
        );
        await acknowledgedMore(writers, 50, 60_000);
        await writers.stop();
        console.warn(
          `search restart: ${writers.total()} acknowledged, ${writers.total() - atStop} after the stop, answers other than 200: ${JSON.stringify(statuses(writers))}`,
        );
        expect(writers.errors).toEqual([]);
        await expectNoneLostOrDoubled(writers, 'search');
      },
    );

    it(
      'the MongoDB-wire server stopped and restarted: writes wait or answer 503, none is lost, every acknowledged one is stored once and indexed',
      { timeout: 300_000 },
      async () => {
        expectAllRunning();
        const writers = startWriters(() => base, 'store', 6, 2, { asyncPauseMs: 100 });
        await acknowledgedMore(writers, 100, 60_000);
        await infra!.stop('mongo');
        // Asynchronous writes are acknowledged once logged; synchronous ones wait for the store.
        await acknowledgedMore(writers, 30, 60_000);
        await infra!.start('mongo');
        await acknowledgedMore(writers, 100, 120_000);
        await writers.stop();
        console.warn(
          `store restart: ${writers.total()} acknowledged, answers other than 200: ${JSON.stringify(statuses(writers))}`,
        );
        expect(notUnavailable(writers)).toEqual([]);
        await expectNoneLostOrDoubled(writers, 'store');
      },
    );
  },
);
