import { randomUUID } from 'node:crypto';
import type { Admin, Kafka } from 'kafkajs';
import type { EventLogLogger } from '../event-log-logger.js';
import type { LogRecord, PartitionOffsets, ReadOptions } from '../port.js';
import { toLogRecord } from './kafka-records.js';
import { retryRetriable } from './retry-retriable.js';

/** How long a read may take to join its throwaway group and fetch, beyond its own wait. */
const JOIN_ALLOWANCE_MS = 15_000;

export async function kafkaOffsets(admin: Admin, topic: string): Promise<readonly PartitionOffsets[]> {
  const ends = await retryRetriable(() => admin.fetchTopicOffsets(topic));
  return ends
    .map(({ partition, low, high }) => ({ partition, start: low, end: high }))
    .sort((a, b) => a.partition - b.partition);
}

export async function kafkaOffsetsForTime(
  admin: Admin,
  topic: string,
  timestamp: number,
): Promise<ReadonlyMap<number, string>> {
  const [found, ends] = await Promise.all([
    retryRetriable(() => admin.fetchTopicOffsetsByTimestamp(topic, timestamp)),
    kafkaOffsets(admin, topic),
  ]);
  const out = new Map<number, string>();
  for (const { partition, end } of ends) {
    const offset = found.find((f) => f.partition === partition)?.offset;
    // The broker answers -1 when no record is that recent.
    out.set(partition, offset === undefined || BigInt(offset) < 0n ? end : offset);
  }
  return out;
}

/**
 * A read without a durable group: kafkajs has no manual partition assignment, so the read joins a
 * throwaway group of its own, seeks the asked partitions on joining (the others are paused), collects
 * until it has `maxRecords`, has reached the ends it saw at the start (with at least one record, or once
 * the wait is over), then leaves and deletes the group. Nothing is committed.
 */
export async function kafkaRead(
  kafka: Kafka,
  admin: Admin,
  logger: EventLogLogger,
  topic: string,
  from: ReadonlyMap<number, string>,
  options: ReadOptions,
): Promise<readonly LogRecord[]> {
  const ends = await kafkaOffsets(admin, topic);
  const starts = new Map<number, bigint>();
  for (const [partition, offset] of from) {
    const bounds = ends.find((e) => e.partition === partition);
    if (!bounds) throw new RangeError(`${topic} has no partition ${partition}`);
    if (!/^\d+$/.test(offset)) throw new RangeError(`invalid offset "${offset}"`);
    const start = BigInt(offset) < BigInt(bounds.start) ? BigInt(bounds.start) : BigInt(offset);
    starts.set(partition, start);
  }
  const endOf = (partition: number) => BigInt(ends.find((e) => e.partition === partition)?.end ?? '0');
  const pending = () => [...starts].some(([partition, next]) => next < endOf(partition));
  const waitMs = Math.max(0, options.waitMs ?? 0);
  if (starts.size === 0 || (!pending() && waitMs === 0)) return [];

  const groupId = `catalog-read-${randomUUID()}`;
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: Math.min(Math.max(waitMs, 25), 500) });
  const records: LogRecord[] = [];
  const deadline = Date.now() + waitMs;
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const check = (): void => {
    const enough = records.length >= options.maxRecords;
    const caughtUp = !pending();
    if (enough || (caughtUp && records.length > 0) || (caughtUp && Date.now() >= deadline)) done();
  };
  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    for (const [name, partitions] of Object.entries(event.payload.memberAssignment)) {
      if (name !== topic) continue;
      const unasked = (partitions ?? []).filter((p) => !starts.has(p));
      if (unasked.length > 0) consumer.pause([{ topic, partitions: unasked }]);
      for (const [partition, offset] of starts)
        consumer.seek({ topic, partition, offset: offset.toString() });
    }
  });
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: false });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const next = starts.get(batch.partition);
        if (next === undefined) return;
        let position = next;
        for (const message of batch.messages) {
          if (BigInt(message.offset) < position) continue;
          if (records.length >= options.maxRecords) break;
          records.push(toLogRecord(topic, batch.partition, message));
          position = BigInt(message.offset) + 1n;
        }
        starts.set(batch.partition, position);
        check();
      },
    });
    const timer = setInterval(check, 50);
    const giveUp = setTimeout(done, waitMs + JOIN_ALLOWANCE_MS);
    await finished;
    clearInterval(timer);
    clearTimeout(giveUp);
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await retryRetriable(() => admin.deleteGroups([groupId])).catch((error: unknown) =>
      logger.warn(
        { err: error, groupId },
        'could not delete a read group; the broker drops it once it expires',
      ),
    );
  }
  return records.slice(0, options.maxRecords);
}
