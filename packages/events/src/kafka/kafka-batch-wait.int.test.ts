import { randomUUID } from 'node:crypto';
import { isSkipped, kafkaForTests } from '@catalog/testkit';
import { describe, expect, it } from 'vitest';
import type { EventLog } from '../port.js';
import { openKafkaEventLog } from './kafka-event-log.js';

const kafka = await kafkaForTests();
const skip = isSkipped(kafka) ? kafka.skip : undefined;
if (skip) console.warn(`[kafka-batch-wait.int] skipped: ${skip}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Produces `count` records `gapMs` apart to a fresh topic read by a fresh group; the sizes of its batches. */
async function batchSizes(
  log: EventLog,
  count: number,
  gapMs: number,
  batchWaitMs?: number,
): Promise<number[]> {
  const topic = `batch_wait_${randomUUID().slice(0, 8)}`;
  await log.ensureTopics([{ name: topic, partitions: 1 }]);
  const sizes: number[] = [];
  let seen = 0;
  let allSeen: () => void = () => undefined;
  const done = new Promise<void>((r) => (allSeen = r));
  const consumer = await log.consume({
    groupId: `${topic}_group`,
    topics: [topic],
    fromBeginning: true,
    ...(batchWaitMs === undefined ? {} : { batchWaitMs }),
    handler: async (batch) => {
      sizes.push(batch.records.length);
      seen += batch.records.length;
      if (seen >= count) allSeen();
    },
  });
  try {
    await consumer.ready;
    for (let i = 0; i < count; i++) {
      await log.produce(topic, [{ key: 'k', value: Buffer.from(String(i)) }]);
      await sleep(gapMs);
    }
    await done;
    return sizes;
  } finally {
    await consumer.stop();
  }
}

describe.skipIf(skip !== undefined)('Kafka consumer: waiting for fuller batches', () => {
  if (isSkipped(kafka)) return;

  it('reads records produced 100 ms apart one batch each without a wait, in at most two batches with one', async () => {
    const log = await openKafkaEventLog({
      brokers: kafka.brokers,
      clientId: `kafka-batch-wait-${randomUUID().slice(0, 8)}`,
      partitions: 1,
      replicationFactor: 1,
      kafkaLogLevel: 'nothing',
    });
    try {
      // A fetch returns as soon as a record is there (its own wait, 25 ms, is shorter than the gaps).
      expect(await batchSizes(log, 5, 100)).toEqual([1, 1, 1, 1, 1]);
      // A fetch holds for 3 s: the one in flight when the first record came may end early, the next
      // one then holds the rest.
      const waited = await batchSizes(log, 5, 100, 3_000);
      expect(waited.length).toBeLessThanOrEqual(2);
      expect(waited.reduce((a, b) => a + b, 0)).toBe(5);
    } finally {
      await log.close();
    }
  }, 30_000);
});
