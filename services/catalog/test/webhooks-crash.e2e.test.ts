import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startWriters } from './acknowledged-writes.js';
import { freePort, spawnService, waitForHealth, type ChildService } from './child-catalog.js';
import { FAMILIES } from './families.js';
import { graphqlData } from './graphql-client.js';
import { datasetUrn, dropIndices, waitUntil } from './harness.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

/**
 * kill -9 of what delivers webhooks, mid-stream: the all-in-one catalog (embedded) or the dispatcher's
 * own process (distributed). Every acknowledged write's change event reaches the destination, in each
 * entity's order; what is delivered twice (the positions a kill did not let the dispatcher write) comes
 * with the same webhook-id, so a receiver that deduplicates on it sees each event once.
 */

const DISPATCH_ENV = {
  WEBHOOK_REFRESH_MS: '100',
  WEBHOOK_STATE_FLUSH_MS: '50',
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
};
const WRITERS = 4;
const PREFIX = `whkill${Date.now().toString(36)}`;
const urns = Array.from({ length: WRITERS }, (_, i) => datasetUrn(`${PREFIX}.sync_${i}`));

interface Delivered {
  readonly id: string;
  readonly urn: string;
  readonly description: string;
}

/** The documentation change events a receiver got, in arrival order. */
function deliveredOf(receiver: WebhookReceiver): Delivered[] {
  return receiver.delivered('/kill').flatMap((r) => {
    const event = JSON.parse(r.body) as { entityUrn: string; parameters?: { description?: string } };
    const description = event.parameters?.description;
    return description === undefined
      ? []
      : [{ id: r.headers['webhook-id']!, urn: event.entityUrn, description }];
  });
}

/** Every acknowledged value delivered, in each entity's order; one webhook id per event. */
async function expectEveryWriteDelivered(receiver: WebhookReceiver, acked: Map<string, string[]>) {
  const expected = [...acked.values()].flat();
  await waitUntil(
    async () => new Set(deliveredOf(receiver).map((d) => d.description)),
    (seen) => expected.every((v) => seen.has(v)),
    180_000,
  );
  const delivered = deliveredOf(receiver);
  for (const [urn, values] of acked) {
    // First deliveries, in arrival order: each entity's values as they were written.
    const firsts: string[] = [];
    for (const d of delivered)
      if (d.urn === urn && !firsts.includes(d.description)) firsts.push(d.description);
    const ackedOnly = firsts.filter((v) => values.includes(v));
    expect(ackedOnly).toEqual(values);
  }
  const idsByValue = new Map<string, Set<string>>();
  for (const d of delivered)
    idsByValue.set(d.description, (idsByValue.get(d.description) ?? new Set()).add(d.id));
  expect([...idsByValue.values()].filter((ids) => ids.size !== 1)).toEqual([]);
}

async function createKillWebhook(base: string, receiver: WebhookReceiver): Promise<void> {
  await graphqlData(
    base,
    'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { urn } } }',
    { input: { name: 'kill', url: receiver.url('/kill'), filter: { urns, categories: ['DOCUMENTATION'] } } },
  );
}

const children: ChildService[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of children) if (c.process.exitCode === null) c.process.kill('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
});

/** Writes until `more` more writes were acknowledged. */
async function writesGo(writers: ReturnType<typeof startWriters>, more: number): Promise<void> {
  const from = writers.total();
  await waitUntil(
    async () => writers.total(),
    (n) => n >= from + more,
    120_000,
  );
}

const embedded = FAMILIES.find((f) => f.name === 'embedded')!;
describe.skipIf(embedded.skip)('webhooks under kill -9 (embedded: the catalog)', () => {
  it(
    'delivers every acknowledged write’s event after the catalog is killed -9 mid-stream and restarted',
    { timeout: 400_000 },
    async () => {
      const receiver = await startWebhookReceiver();
      cleanups.push(() => receiver.close());
      const dataDir = mkdtempSync(join(tmpdir(), 'catalog-webhook-kill-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const env = { ...DISPATCH_ENV, PORT: String(port), HOST: '127.0.0.1', CATALOG_DATA_DIR: dataDir };
      const first = spawnService('services/catalog/src/main.ts', env);
      children.push(first);
      await waitForHealth(base, first);
      await createKillWebhook(base, receiver);

      const writers = startWriters(() => base, PREFIX, WRITERS, 0, { writesPerEntity: Infinity });
      await writesGo(writers, 80);
      await waitUntil(
        async () => deliveredOf(receiver).length,
        (n) => n >= 20,
        120_000,
      );
      first.process.kill('SIGKILL');
      await first.exited;

      const second = spawnService('services/catalog/src/main.ts', env);
      children.push(second);
      await waitForHealth(base, second);
      await writesGo(writers, 40);
      await writers.stop();
      expect(writers.errors).toEqual([]);
      await expectEveryWriteDelivered(receiver, writers.acked);
      second.process.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    },
  );
});

const real = FAMILIES.find((f) => f.name !== 'embedded')!;
describe.skipIf(real.skip !== undefined)('webhooks under kill -9 (distributed: the dispatcher)', () => {
  it(
    'delivers every acknowledged write’s event after the dispatcher process is killed -9 mid-stream and restarted',
    { timeout: 400_000 },
    async () => {
      const receiver = await startWebhookReceiver();
      cleanups.push(() => receiver.close());
      const env = {
        ...real.env(),
        ...DISPATCH_ENV,
        KAFKA_TOPIC_PARTITIONS: '4',
        SYNC_INGEST_TIMEOUT_MS: '60000',
      };
      cleanups.push(() => dropIndices(env));
      const start = (main: string, extra: Record<string, string> = {}) => {
        const child = spawnService(main, { ...env, ...extra });
        children.push(child);
        return child;
      };
      const setup = start('services/system-update/src/main.ts');
      expect(await setup.exited, setup.output()).toBe(0);
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const gateway = start('services/gateway/src/main.ts', { PORT: String(port), HOST: '127.0.0.1' });
      start('services/persistence/src/main.ts');
      start('services/change-events/src/main.ts');
      const dispatcher = () => start('services/webhook-dispatcher/src/main.ts');
      const first = dispatcher();
      await waitForHealth(base, gateway);
      await createKillWebhook(base, receiver);

      const writers = startWriters(() => base, PREFIX, WRITERS, 0, { writesPerEntity: Infinity });
      await writesGo(writers, 60);
      await waitUntil(
        async () => deliveredOf(receiver).length,
        (n) => n >= 20,
        120_000,
      );
      first.process.kill('SIGKILL');
      await first.exited;
      await writesGo(writers, 30);
      dispatcher();
      await writesGo(writers, 30);
      await writers.stop();
      expect(writers.errors).toEqual([]);
      await expectEveryWriteDelivered(receiver, writers.acked);
    },
  );
});
