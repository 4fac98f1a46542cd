import { AssignerProtocol, Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, spawnService, waitForHealth, type ChildService } from './child-catalog.js';
import { FAMILIES, distributedEnv } from './families.js';
import { expectExactlyOnce, startWriters } from './acknowledged-writes.js';
import { expectAuditedExactlyOnce } from './audited-writes.js';
import { SYSTEM_AUTH_HEADERS, datasetUrn, dropIndices, enc, get, waitUntil } from './harness.js';

const real = FAMILIES.find((f) => f.name !== 'embedded')!;
if (real.skip) console.warn(`skipping the distributed e2e: ${real.skip}`);

describe.skipIf(real.skip !== undefined)(
  'distributed: gateway, persistence, indexer and audit consumer as separate processes',
  () => {
    const children: ChildService[] = [];
    let env: Record<string, string>;
    let base: string;

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
      start('services/indexer/src/main.ts');
      start('services/audit/src/main.ts', { AUDIT_MAX_BATCH: '7' });
      await waitForHealth(base, gateway);
    }, 180_000);

    afterAll(async () => {
      for (const c of children) if (c.process.exitCode === null) c.process.kill('SIGKILL');
      await dropIndices(env);
    });

    /** Partitions assigned to each member of a consumer group, as the broker reports them. */
    async function groupAssignments(groupId: string): Promise<number[]> {
      const kafka = new Kafka({
        clientId: 'e2e-inspect',
        brokers: env['KAFKA_BOOTSTRAP_SERVER']!.split(','),
        logLevel: logLevel.NOTHING,
      });
      const admin = kafka.admin();
      await admin.connect();
      try {
        const { groups } = await admin.describeGroups([groupId]);
        return (groups[0]?.members ?? []).map((m) => {
          const assignment = AssignerProtocol.MemberAssignment.decode(m.memberAssignment);
          return Object.values(assignment?.assignment ?? {}).reduce((sum, parts) => sum + parts.length, 0);
        });
      } finally {
        await admin.disconnect();
      }
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
