import { AssignerProtocol, type Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, spawnService, waitForHealth, type ChildService } from './child-catalog.js';
import { distributedEnv, withKafkaAdmin } from './distributed-env.js';
import { FAMILIES } from './families.js';
import { expectExactlyOnce, startWriters } from './acknowledged-writes.js';
import { expectAuditedExactlyOnce } from './audited-writes.js';
import { expectIndexedAsStored } from './indexed-writes.js';
import {
  SYSTEM_AUTH_HEADERS,
  SYSTEM_CLIENT_AUTHORIZATION,
  callAs,
  datasetUrn,
  dropIndices,
  enc,
  get,
  ingest,
  proposal,
  waitUntil,
} from './harness.js';

const real = FAMILIES.find((f) => f.name !== 'embedded')!;
if (real.skip) console.warn(`skipping the distributed e2e: ${real.skip}`);

describe.skipIf(real.skip !== undefined)(
  'distributed: gateway, persistence, indexer and audit consumer as separate processes',
  () => {
    const children: ChildService[] = [];
    let env: Record<string, string>;
    let base: string;
    /** The indexer's health endpoints. */
    let indexerHealth: string;

    const start = (main: string, extra: Record<string, string> = {}): ChildService => {
      const child = spawnService(main, { ...env, ...extra });
      children.push(child);
      return child;
    };

    beforeAll(async () => {
      env = { ...distributedEnv(), KAFKA_TOPIC_PARTITIONS: '4', SYNC_INGEST_TIMEOUT_MS: '60000' };
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      // system-update creates the topics with their partitions and the index mappings, as in a deployment.
      const setup = start('services/system-update/src/main.ts');
      expect(await setup.exited, setup.output()).toBe(0);
      const gateway = start('services/gateway/src/main.ts', { PORT: String(port), HOST: '127.0.0.1' });
      start('services/persistence/src/main.ts');
      const healthPort = await freePort();
      indexerHealth = `http://127.0.0.1:${healthPort}`;
      start('services/indexer/src/main.ts', { HEALTH_PORT: String(healthPort) });
      start('services/audit/src/main.ts', { AUDIT_MAX_BATCH: '7' });
      start('services/change-events/src/main.ts', { CHANGE_EVENTS_MAX_BATCH: '7', HEALTH_PORT: '0' });
      await waitForHealth(base, gateway);
    }, 180_000);

    afterAll(async () => {
      for (const c of children) if (c.process.exitCode === null) c.process.kill('SIGKILL');
      await dropIndices(env);
    });

    const withAdmin = <T>(work: (admin: Admin) => Promise<T>): Promise<T> => withKafkaAdmin(env, work);

    /** Partitions assigned to each member of a consumer group, as the broker reports them. */
    async function groupAssignments(groupId: string): Promise<number[]> {
      return withAdmin(async (admin) => {
        const { groups } = await admin.describeGroups([groupId]);
        return (groups[0]?.members ?? []).map((m) => {
          const assignment = AssignerProtocol.MemberAssignment.decode(m.memberAssignment);
          return Object.values(assignment?.assignment ?? {}).reduce((sum, parts) => sum + parts.length, 0);
        });
      });
    }

    /** The consumer groups the broker lists whose id contains `part`. */
    async function groupsNaming(part: string): Promise<string[]> {
      return withAdmin(async (admin) =>
        (await admin.listGroups()).groups.map((g) => g.groupId).filter((id) => id.includes(part)),
      );
    }

    /** A gateway process on its own port, named by GATEWAY_INSTANCE_ID, logging at info. */
    async function startGateway(instanceId: string): Promise<{ child: ChildService; base: string }> {
      const port = await freePort();
      const child = start('services/gateway/src/main.ts', {
        PORT: String(port),
        HOST: '127.0.0.1',
        GATEWAY_INSTANCE_ID: instanceId,
        LOG_LEVEL: 'info',
      });
      const url = `http://127.0.0.1:${port}`;
      await waitForHealth(url, child);
      return { child, base: url };
    }

    /** Stops a gateway with SIGTERM; returns what its outcome listener reported when it stopped. */
    async function stopGateway(child: ChildService): Promise<{ decoded: number; skipped: number }> {
      child.process.kill('SIGTERM');
      expect(await child.exited, child.output()).toBe(0);
      const line = child
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg?: string; decoded?: number; skipped?: number })
        .find((l) => l.msg === 'outcome listener stopped');
      expect(line, child.output()).toBeDefined();
      return { decoded: line!.decoded!, skipped: line!.skipped! };
    }

    it(
      'loses no acknowledged write and stores none twice when persistence is killed -9 mid-stream',
      { timeout: 300_000 },
      async () => {
        const writers = startWriters(() => base, 'kill', 6, 2);
        await waitUntil(
          async () => writers.total(),
          (n) => n >= 150,
          60_000,
        );
        const persistence = children.find((c) => c.process.spawnargs.some((a) => a.includes('persistence')))!;
        persistence.process.kill('SIGKILL');
        await persistence.exited;
        const atKill = writers.total();
        // Writes keep arriving while persistence is down: async ones are acknowledged, sync ones wait.
        await new Promise((r) => setTimeout(r, 1_000));
        start('services/persistence/src/main.ts');
        await waitUntil(
          async () => writers.total(),
          (n) => n >= atKill + 150,
          90_000,
        );
        await writers.stop();
        const total = await expectExactlyOnce(base, writers.acked);
        expect(total).toBeGreaterThanOrEqual(300);
      },
    );

    it(
      'shares the partitions between two persistence processes, and one takes over when the other stops',
      { timeout: 300_000 },
      async () => {
        const t0 = Date.now();
        const mark = (what: string) => console.warn(`scale-out: ${what} at ${Date.now() - t0} ms`);
        const second = start('services/persistence/src/main.ts');
        const writers = startWriters(() => base, 'scale', 8, 0);
        await waitUntil(
          async () => writers.total(),
          (n) => n >= 200,
          60_000,
        );
        mark('200 writes with two members');
        const members = await waitUntil(
          () => groupAssignments(`persistence-${env['METADATA_CHANGE_PROPOSAL_TOPIC_NAME']}`),
          (m) => m.length === 2 && m.every((partitions) => partitions > 0),
          60_000,
        );
        expect(members.reduce((a, b) => a + b, 0)).toBe(4);
        // Both members consume: the group's lag stays bounded and every write is answered.
        second.process.kill('SIGTERM');
        expect(await second.exited, second.output()).toBe(0);
        mark('second member stopped');
        const atStop = writers.total();
        await waitUntil(
          async () => writers.total(),
          (n) => n >= atStop + 100,
          90_000,
        );
        mark('100 more writes with one member');
        await writers.stop();
        expect(writers.errors).toEqual([]);
        await expectExactlyOnce(base, writers.acked);
      },
    );

    it(
      'misses no audit event and records none twice when the audit consumer is killed -9 mid-stream',
      { timeout: 300_000 },
      async () => {
        const since = Date.now() - 1;
        const writers = startWriters(() => base, 'auditkill', 6, 2);
        await waitUntil(
          async () => writers.total(),
          (n) => n >= 100,
          60_000,
        );
        const audit = children.find((c) => c.process.spawnargs.some((a) => a.includes('services/audit')))!;
        audit.process.kill('SIGKILL');
        await audit.exited;
        const atKill = writers.total();
        await waitUntil(
          async () => writers.total(),
          (n) => n >= atKill + 50,
          60_000,
        );
        start('services/audit/src/main.ts', { AUDIT_MAX_BATCH: '7' });
        await writers.stop();
        expect(writers.errors).toEqual([]);
        expect(
          await expectAuditedExactlyOnce(base, [...writers.acked.keys()], since, 120_000),
        ).toBeGreaterThanOrEqual(150);
      },
    );

    it(
      'produces every change event exactly once when the change event producer is killed -9 mid-stream',
      { timeout: 300_000 },
      async () => {
        const poll = async (query: string): Promise<{ offsetId: string; events: { value: string }[] }> => {
          const res = await callAs(
            base,
            'GET',
            `/openapi/v1/events/poll?topic=PlatformEvent_v1&${query}`,
            SYSTEM_CLIENT_AUTHORIZATION,
          );
          expect(res.status, res.text).toBe(200);
          return res.body as { offsetId: string; events: { value: string }[] };
        };
        const from = (await poll('pollTimeoutSeconds=0')).offsetId;
        const writers = startWriters(() => base, 'eventkill', 6, 2);
        await waitUntil(
          async () => writers.total(),
          (n) => n >= 100,
          60_000,
        );
        const producer = children.find((c) =>
          c.process.spawnargs.some((a) => a.includes('services/change-events')),
        )!;
        producer.process.kill('SIGKILL');
        await producer.exited;
        const atKill = writers.total();
        await waitUntil(
          async () => writers.total(),
          (n) => n >= atKill + 50,
          60_000,
        );
        start('services/change-events/src/main.ts', { CHANGE_EVENTS_MAX_BATCH: '7', HEALTH_PORT: '0' });
        await writers.stop();
        expect(writers.errors).toEqual([]);
        const expected = new Set([...writers.acked.values()].flat());
        const seen = new Map<string, number>();
        let offsetId = from;
        await waitUntil(
          async () => {
            const page = await poll(
              `offsetId=${encodeURIComponent(offsetId)}&pollTimeoutSeconds=1&limit=5000`,
            );
            offsetId = page.offsetId;
            for (const e of page.events) {
              const envelope = JSON.parse(e.value) as { name: string; payload: { value: string } };
              if (envelope.name !== 'entityChangeEvent') continue;
              const event = JSON.parse(envelope.payload.value) as {
                category: string;
                parameters?: { description?: string };
              };
              const value = event.parameters?.description;
              if (event.category === 'DOCUMENTATION' && value !== undefined && expected.has(value))
                seen.set(value, (seen.get(value) ?? 0) + 1);
            }
            return seen.size;
          },
          (n) => n >= expected.size,
          120_000,
        );
        expect(seen.size).toBe(expected.size);
        expect([...seen.values()].filter((n) => n !== 1)).toEqual([]);
      },
    );

    it(
      'answers the writes of three gateways, each decoding only its own outcomes, and leaves no group behind',
      { timeout: 180_000 },
      async () => {
        const prefix = `${env['INDEX_PREFIX']}-gw`;
        const outcomeTopic = env['METADATA_CHANGE_PROPOSAL_OUTCOME_TOPIC_NAME']!;
        const outcomesProduced = async (): Promise<number> =>
          (await withAdmin((admin) => admin.fetchTopicOffsets(outcomeTopic))).reduce(
            (sum, p) => sum + Number(p.high),
            0,
          );
        const before = await outcomesProduced();
        const gateways = await Promise.all([0, 1, 2].map((i) => startGateway(`${prefix}${i}`)));
        const write = async (base: string, name: string, async = false): Promise<void> => {
          const res = await ingest(
            base,
            proposal(datasetUrn(`outcomes.${name}`), 'datasetProperties', { description: name }),
            async,
          );
          expect(res.status, res.text).toBe(200);
        };
        const syncWrites = 4;
        for (const [i, gateway] of gateways.entries()) {
          for (let n = 0; n < syncWrites; n++) await write(gateway.base, `gw${i}_${n}`);
        }
        // Asynchronous writes wait for nothing: their outcomes are addressed to no gateway.
        for (let n = 0; n < 3; n++) await write(gateways[0]!.base, `async_${n}`, true);
        const names = [0, 1, 2].map((i) => `gateway-outcomes-${prefix}${i}`);
        expect((await groupsNaming(prefix)).filter((g) => g.startsWith('gateway-outcomes-')).sort()).toEqual(
          names,
        );
        const others = 2 * syncWrites + 3;
        await waitUntil(outcomesProduced, (n) => n === before + 3 * syncWrites + 3, 30_000);
        const stats: { decoded: number; skipped: number }[] = [];
        for (const [i, gateway] of gateways.entries()) {
          // One more write through it: answered once its listener has read past what came before.
          await write(gateway.base, `gw${i}_last`);
          stats.push(await stopGateway(gateway.child));
        }
        for (const [i, s] of stats.entries()) {
          // Its own outcomes only were parsed; every other one was seen and passed over unparsed.
          expect(s.decoded, `gateway ${i}`).toBe(syncWrites + 1);
          expect(s.skipped, `gateway ${i}`).toBeGreaterThanOrEqual(others + i);
          expect(s.decoded + s.skipped, `gateway ${i}`).toBeLessThanOrEqual(
            (await outcomesProduced()) - before,
          );
        }
        expect(await groupsNaming(prefix)).toEqual([]);

        // A restarted gateway reads from the end under the same name, and leaves nothing either.
        const again = await startGateway(`${prefix}0`);
        const res = await ingest(
          again.base,
          proposal(datasetUrn('outcomes.restarted'), 'datasetProperties', { description: 'again' }),
        );
        expect(res.status, res.text).toBe(200);
        expect(await groupsNaming(prefix)).toContain(names[0]);
        expect(await stopGateway(again.child)).toEqual({ decoded: 1, skipped: 0 });
        expect(await groupsNaming(prefix)).toEqual([]);
      },
    );

    it('serves the health of a consumer process: live, and ready once consuming with its dependencies up', async () => {
      expect((await fetch(`${indexerHealth}/health/live`)).status).toBe(200);
      const ready = await waitUntil(
        () =>
          fetch(`${indexerHealth}/health/ready`).then(async (r) => ({
            status: r.status,
            body: await r.json(),
          })),
        (r) => r.status === 200,
        30_000,
      );
      expect(ready.body).toEqual({
        status: 'UP',
        unavailable: [],
        checks: {
          store: { status: 'UP' },
          search: { status: 'UP' },
          log: { status: 'UP' },
          consumer: { status: 'UP' },
        },
      });
    });

    it(
      'indexes every stored write once when the indexer is killed -9 mid-stream',
      { timeout: 300_000 },
      async () => {
        const writers = startWriters(() => base, 'indexkill', 6, 2, { asyncPauseMs: 100 });
        await waitUntil(
          async () => writers.total(),
          (n) => n >= 100,
          60_000,
        );
        const indexer = children.find(
          (c) =>
            c.process.exitCode === null && c.process.spawnargs.some((a) => a.includes('services/indexer')),
        )!;
        indexer.process.kill('SIGKILL');
        await indexer.exited;
        const atKill = writers.total();
        // Stored meanwhile, indexed by nobody until the indexer is back.
        await waitUntil(
          async () => writers.total(),
          (n) => n >= atKill + 100,
          60_000,
        );
        start('services/indexer/src/main.ts');
        const atRestart = writers.total();
        await waitUntil(
          async () => writers.total(),
          (n) => n >= atRestart + 50,
          60_000,
        );
        await writers.stop();
        expect(writers.errors).toEqual([]);
        expect(await expectExactlyOnce(base, writers.acked)).toBeGreaterThanOrEqual(250);
        expect(await expectIndexedAsStored(base, env, [...writers.acked.keys()])).toBe(writers.acked.size);
      },
    );

    it('indexes what persistence stored, for search across the processes', async () => {
      const urn = datasetUrn('kill.sync_0');
      const found = await waitUntil(
        async () => {
          const r = await fetch(`${base}/entities?action=search`, {
            method: 'POST',
            headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json' },
            body: JSON.stringify({
              entity: 'dataset',
              input: '*',
              start: 0,
              count: 100,
              filter: { or: [{ and: [{ field: 'urn', condition: 'EQUAL', values: [urn] }] }] },
            }),
          });
          return ((await r.json()) as { value: { entities: string[] } }).value.entities;
        },
        (entities) => entities.includes(urn),
        30_000,
      );
      expect(found).toContain(urn);
      expect((await get(base, `/entitiesV2/${enc(urn)}`)).status).toBe(200);
    });
  },
);
