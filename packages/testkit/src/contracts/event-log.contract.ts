import { partitionForKey, type EventLog } from '@catalog/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../wait-for.js';
import { eventLogDeliveryCases } from './event-log-delivery.cases.js';
import { eventLogGroupCases } from './event-log-groups.cases.js';
import { eventLogReadCases } from './event-log-reads.cases.js';
import {
  collector,
  ConsumerTracker,
  freshName,
  offsetsOf,
  text,
  values,
  type EventLogTestContext,
} from './event-log-helpers.js';

export interface EventLogFixture {
  readonly log: EventLog;
  cleanup(): Promise<void>;
}

export interface EventLogContractOptions {
  /** How long to wait for a condition (deliveries, rebalances). Default 30 s, generous for real brokers. */
  readonly waitMs?: number;
}

/**
 * The behaviour every EventLog adapter must show. `factory` gives a fresh log per test; every test uses its
 * own topics and groups (random suffixes), so the suite also runs against a shared Kafka broker.
 */
export function eventLogContract(
  name: string,
  factory: () => Promise<EventLogFixture>,
  options: EventLogContractOptions = {},
): void {
  const waitMs = options.waitMs ?? 30_000;

  describe(`EventLog contract: ${name}`, () => {
    let fixture: EventLogFixture | undefined;
    const consumers = new ConsumerTracker();
    const context: EventLogTestContext = {
      get log() {
        if (!fixture) throw new Error('no event log: the factory has not run');
        return fixture.log;
      },
      consumers,
      waitMs,
      topicWith: async (partitions) => {
        const topic = freshName('contract');
        await context.log.ensureTopics([{ name: topic, partitions }]);
        return topic;
      },
    };
    const { topicWith } = context;

    beforeEach(async () => {
      fixture = await factory();
    });

    afterEach(async () => {
      await consumers.stopAll();
      await fixture?.cleanup();
      fixture = undefined;
    });

    it('answers ping while open, and refuses it once closed', async () => {
      const { log } = context;
      await expect(log.ping()).resolves.toBeUndefined();
      await log.close();
      await expect(log.ping()).rejects.toThrow();
    });

    it('resolves produce with positions in input order, offsets contiguous per partition', async () => {
      const { log } = context;
      const topic = await topicWith(1);
      const first = await log.produce(
        topic,
        ['a', 'b', 'c', 'd', 'e'].map((v) => text('k', v)),
      );
      expect(first.map((p) => [p.topic, p.partition])).toEqual(first.map(() => [topic, 0]));
      const base = BigInt(first[0]!.offset);
      expect(offsetsOf(first)).toEqual([0n, 1n, 2n, 3n, 4n].map((i) => base + i));
      const second = await log.produce(topic, [text('k', 'f'), text('other', 'g')]);
      expect(offsetsOf(second)).toEqual([base + 5n, base + 6n]);
    });

    it('places the same key on the same partition, in call order, under concurrent produce', async () => {
      const { log } = context;
      const topic = await topicWith(4);
      const keys = Array.from({ length: 8 }, (_, i) => `urn:li:dataset:${i}`);
      const calls = [];
      for (let i = 0; i < 20; i++)
        for (const key of keys) calls.push(log.produce(topic, [text(key, `${key}#${i}`)]));
      const positions = (await Promise.all(calls)).map((p) => p[0]!);
      for (let k = 0; k < keys.length; k++) {
        const mine = positions.filter((_, index) => index % keys.length === k);
        expect(new Set(mine.map((p) => p.partition)).size).toBe(1);
        const offsets = offsetsOf(mine);
        expect(offsets).toEqual([...offsets].sort((a, b) => (a < b ? -1 : 1)));
      }
      const seen = collector();
      await consumers.start(log, {
        groupId: freshName('g'),
        topics: [topic],
        fromBeginning: true,
        handler: seen.handler,
      });
      await waitFor(() => seen.records.length >= calls.length, waitMs, 'all records');
      for (const key of keys) {
        expect(values(seen.records.filter((r) => r.key === key))).toEqual(
          Array.from({ length: 20 }, (_, i) => `${key}#${i}`),
        );
      }
    });

    it("chooses partitions as Kafka's default partitioner does (murmur2 of the key)", async () => {
      const { log } = context;
      const topic = await topicWith(6);
      const keys = Array.from({ length: 60 }, (_, i) => `urn:li:corpuser:user${i * 7919}`);
      const positions = await log.produce(
        topic,
        keys.map((k) => text(k, k)),
      );
      expect(positions.map((p) => p.partition)).toEqual(keys.map((k) => partitionForKey(k, 6)));
    });

    it('creates topics with a time and a size retention and keeps what is within them', async () => {
      const { log } = context;
      const topic = freshName('retained');
      await log.ensureTopics([
        { name: topic, partitions: 2, retentionMs: 3_600_000, retentionBytes: 10_485_760 },
      ]);
      const keys = ['a', 'b', 'c', 'd'];
      await log.produce(
        topic,
        keys.map((k) => text(k, `${k}-value`)),
      );
      const seen = collector();
      await consumers.start(log, {
        groupId: freshName('g'),
        topics: [topic],
        fromBeginning: true,
        handler: seen.handler,
      });
      await waitFor(() => seen.records.length === keys.length, waitMs, 'the retained records');
      expect(values(seen.records).sort()).toEqual(keys.map((k) => `${k}-value`));
      expect((await log.lag(freshName('new'), topic)).map((l) => l.partition)).toEqual([0, 1]);
    });

    it('round-trips binary values, headers and timestamps', async () => {
      const { log } = context;
      const topic = await topicWith(1);
      const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      const headers = {
        'x-request-id': 'req-1',
        traceparent: '00-abc-def-01',
        unicode: 'héllo ✓ 🚀',
        empty: '',
      };
      await log.produce(topic, [
        {
          key: 'urn:li:dataset:(urn:li:dataPlatform:hive,ü,PROD)',
          value: binary,
          headers,
          timestamp: 1_700_000_000_123,
        },
        { key: 'plain', value: Buffer.from('x') },
      ]);
      const seen = collector();
      await consumers.start(log, {
        groupId: freshName('g'),
        topics: [topic],
        fromBeginning: true,
        handler: seen.handler,
      });
      await waitFor(() => seen.records.length >= 2, waitMs, 'both records');
      const [withHeaders, plain] = seen.records;
      expect(withHeaders!.key).toBe('urn:li:dataset:(urn:li:dataPlatform:hive,ü,PROD)');
      expect(Buffer.compare(withHeaders!.value, binary)).toBe(0);
      expect(withHeaders!.headers).toEqual(headers);
      expect(withHeaders!.timestamp).toBe(1_700_000_000_123);
      expect(plain!.headers).toEqual({});
      expect(plain!.value.toString()).toBe('x');
    });

    eventLogDeliveryCases(context);
    eventLogGroupCases(context);
    eventLogReadCases(context);
  });
}
