import { Kafka, logLevel } from 'kafkajs';
import { defaultTopicNames, openEmbeddedEventLog } from '@catalog/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { callAs, logIn, startTestCatalog, type TestCatalog } from './harness.js';

/**
 * `POST /openapi/v1/tracking/track`, the web app's usage tracking (the smoke suite's
 * tests/openapi/v1/test_tracking.py): any authenticated caller's event with a `type` is answered 200 and
 * published as JSON on the usage-event topic (DataHubUsageEvent_v1), keyed by its actor, its timestamp
 * in epoch milliseconds; a body that is no such event is a 400 and publishes nothing.
 */

type UsageRecord = { key: string; value: Record<string, unknown> };

/**
 * The JSON records of the catalog's usage-event topic, read from its start until `enough` holds (or 20 s
 * pass): from Kafka, or from the embedded log's file in the catalog's data directory.
 */
async function readUsageEvents(
  catalog: TestCatalog,
  env: Record<string, string>,
  enough: (records: UsageRecord[]) => boolean,
): Promise<UsageRecord[]> {
  const topic = env['DATAHUB_USAGE_EVENT_NAME'] ?? defaultTopicNames.dataHubUsageEvent;
  if (env['KAFKA_BOOTSTRAP_SERVER'] !== undefined) return readTopic(env, topic, enough);
  const log = await openEmbeddedEventLog({ directory: catalog.dataDir, pollIntervalMs: 10 });
  const records: UsageRecord[] = [];
  try {
    const consumer = await log.consume({
      groupId: `e2e-usage-${Date.now()}`,
      topics: [topic],
      fromBeginning: true,
      handler: async (batch) => {
        for (const r of batch.records)
          records.push({ key: r.key, value: JSON.parse(r.value.toString()) as Record<string, unknown> });
      },
    });
    const deadline = Date.now() + 20_000;
    while (!enough(records) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await consumer.stop();
  } finally {
    await log.close();
  }
  return records;
}

/** The JSON records of a Kafka topic, read from its start until `enough` holds (or 20 s pass). */
async function readTopic(
  env: Record<string, string>,
  topic: string,
  enough: (records: { key: string; value: Record<string, unknown> }[]) => boolean,
): Promise<{ key: string; value: Record<string, unknown> }[]> {
  const kafka = new Kafka({
    clientId: 'e2e-usage-events',
    brokers: env['KAFKA_BOOTSTRAP_SERVER']!.split(','),
    logLevel: logLevel.NOTHING,
  });
  const consumer = kafka.consumer({ groupId: `e2e-usage-${Date.now()}` });
  const records: { key: string; value: Record<string, unknown> }[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    await consumer.run({
      eachMessage: async ({ message }) => {
        records.push({
          key: message.key?.toString() ?? '',
          value: JSON.parse(message.value?.toString() ?? 'null') as Record<string, unknown>,
        });
        if (enough(records)) done();
      },
    });
    await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  } finally {
    await consumer.disconnect();
  }
  return records;
}

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`usage tracking (${family.name})`, () => {
    let catalog: TestCatalog;
    let env: Record<string, string>;
    let admin: string;
    const run = Date.now().toString(36);

    const track = (body: unknown) =>
      callAs(catalog.baseUrl, 'POST', '/openapi/v1/tracking/track', admin, body);

    beforeAll(async () => {
      env = family.env();
      catalog = await startTestCatalog(env);
      admin = `Bearer ${await logIn(catalog.baseUrl)}`;
    }, 60_000);
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('answers 200 to an event with a type', async () => {
      const res = await track({
        type: 'PageViewEvent',
        entityType: 'dataset',
        entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:bigquery,example_dataset,PROD)',
        actorUrn: 'urn:li:corpuser:test_user',
        timestamp: Date.now(),
        customField: `accepted_${run}`,
      });
      expect(res.status, res.text).toBe(200);
    });

    it('refuses a body that is not an event (400 naming the problem), and an anonymous caller (401)', async () => {
      const cases: [unknown, RegExp][] = [
        [[{ type: 'PageViewEvent' }], /object/i],
        [{ entityType: 'dataset' }, /type/],
        [{ type: '' }, /type/],
        [{ type: 'PageViewEvent', timestamp: 'yesterday' }, /timestamp/],
        [{ type: 'PageViewEvent', actorUrn: 42 }, /actorUrn/],
      ];
      for (const [body, message] of cases) {
        const res = await track(body);
        expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(400);
        expect(res.text).toMatch(message);
      }
      const anonymous = await callAs(catalog.baseUrl, 'POST', '/openapi/v1/tracking/track', undefined, {
        type: 'PageViewEvent',
      });
      expect(anonymous.status).toBe(401);
    });

    it('publishes the event as JSON on the usage-event topic, keyed by its actor, with millisecond timestamps', async () => {
      const marker = `published_${run}`;
      const seconds = Math.floor(Date.now() / 1000);
      expect(
        (
          await track({
            type: 'PageViewEvent',
            actorUrn: 'urn:li:corpuser:test_user',
            timestamp: seconds,
            customField: marker,
          })
        ).status,
      ).toBe(200);
      expect((await track({ type: 'SearchEvent', query: 'orders', customField: marker })).status).toBe(200);
      expect(
        (await track({ type: 'PageViewEvent', customField: `refused_${run}`, timestamp: 'x' })).status,
      ).toBe(400);
      const ours = (records: UsageRecord[]) => records.filter((r) => r.value['customField'] === marker);
      const records = ours(await readUsageEvents(catalog, env, (all) => ours(all).length >= 2));
      expect(records).toHaveLength(2);
      expect(records[0]).toEqual({
        key: 'urn:li:corpuser:test_user',
        value: {
          type: 'PageViewEvent',
          actorUrn: 'urn:li:corpuser:test_user',
          timestamp: seconds * 1000,
          customField: marker,
        },
      });
      // Without an actor in the event, the record is keyed by the caller; the time is when it came.
      expect(records[1]?.key).toBe('urn:li:corpuser:datahub');
      expect(records[1]?.value).toMatchObject({ type: 'SearchEvent', query: 'orders' });
      expect(Math.abs((records[1]?.value['timestamp'] as number) - Date.now())).toBeLessThan(60_000);
    }, 60_000);
  });
}
