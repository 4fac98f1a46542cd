import type { LogRecord } from '@catalog/events';
import { expect, it } from 'vitest';
import { waitFor } from '../wait-for.js';
import {
  collector,
  freshName,
  gate,
  offsetsOf,
  positionKey,
  text,
  values,
  type EventLogTestContext,
} from './event-log-helpers.js';

/** Delivery to one group: order, resumption, redelivery, partial commits, seek and stop. */
export function eventLogDeliveryCases(ctx: EventLogTestContext): void {
  const { consumers, waitMs, topicWith } = ctx;

  it('delivers every record to a group exactly once, in offset order per partition', async () => {
    const { log } = ctx;
    const topic = await topicWith(3);
    const produced = await log.produce(
      topic,
      Array.from({ length: 150 }, (_, i) => text(`key-${i % 17}`, `v${i}`)),
    );
    const seen = collector();
    await consumers.start(log, {
      groupId: freshName('g'),
      topics: [topic],
      fromBeginning: true,
      handler: seen.handler,
    });
    await waitFor(() => seen.records.length >= produced.length, waitMs, 'all records');
    expect(new Set(seen.records.map(positionKey)).size).toBe(seen.records.length);
    expect(new Set(seen.records.map(positionKey))).toEqual(new Set(produced.map(positionKey)));
    for (const partition of [0, 1, 2]) {
      const delivered = offsetsOf(seen.records.filter((r) => r.partition === partition));
      const expected = offsetsOf(produced.filter((p) => p.partition === partition));
      expect(delivered).toEqual(expected);
    }
  });

  it('resumes a group from its committed offset after a stop: no loss, no duplicates', async () => {
    const { log } = ctx;
    const topic = await topicWith(1);
    const groupId = freshName('g');
    await log.produce(
      topic,
      Array.from({ length: 10 }, (_, i) => text('k', `old${i}`)),
    );
    const first = collector();
    const c1 = await consumers.start(log, {
      groupId,
      topics: [topic],
      fromBeginning: true,
      handler: first.handler,
    });
    await waitFor(() => first.records.length >= 10, waitMs, 'first ten');
    await consumers.stop(c1);
    await log.produce(
      topic,
      Array.from({ length: 10 }, (_, i) => text('k', `new${i}`)),
    );
    const second = collector();
    await consumers.start(log, { groupId, topics: [topic], fromBeginning: true, handler: second.handler });
    await waitFor(() => second.records.length >= 10, waitMs, 'next ten');
    expect(values(first.records)).toEqual(Array.from({ length: 10 }, (_, i) => `old${i}`));
    expect(values(second.records)).toEqual(Array.from({ length: 10 }, (_, i) => `new${i}`));
  });

  it('redelivers the same records after a handler failure, before any later record', async () => {
    const { log } = ctx;
    const topic = await topicWith(1);
    const produced = [
      ...(await log.produce(
        topic,
        Array.from({ length: 5 }, (_, i) => text('k', `v${i}`)),
      )),
    ];
    const attempts: bigint[][] = [];
    const processed: LogRecord[] = [];
    const errors: unknown[] = [];
    await consumers.start(log, {
      groupId: freshName('g'),
      topics: [topic],
      fromBeginning: true,
      handler: async (batch) => {
        attempts.push(offsetsOf(batch.records));
        if (attempts.length <= 2) throw new Error(`transient failure ${attempts.length}`);
        processed.push(...batch.records);
      },
      onError: (error) => errors.push(error),
    });
    await waitFor(() => errors.length >= 1, waitMs, 'first failure');
    produced.push(
      ...(await log.produce(
        topic,
        Array.from({ length: 5 }, (_, i) => text('k', `v${i + 5}`)),
      )),
    );
    await waitFor(() => processed.length >= 10, waitMs, 'all records processed');
    expect(errors.length).toBe(2);
    expect(attempts[0]![0]).toBe(BigInt(produced[0]!.offset));
    expect(attempts[1]![0]).toBe(BigInt(produced[0]!.offset));
    expect(attempts[2]![0]).toBe(BigInt(produced[0]!.offset));
    expect(offsetsOf(processed)).toEqual(offsetsOf(produced));
  });

  it('honours batch.commit partial progress when the group restarts', async () => {
    const { log } = ctx;
    const topic = await topicWith(1);
    const groupId = freshName('g');
    const produced = await log.produce(
      topic,
      Array.from({ length: 10 }, (_, i) => text('k', `v${i}`)),
    );
    const poison = produced[6]!.offset;
    const failures: unknown[] = [];
    const c1 = await consumers.start(log, {
      groupId,
      topics: [topic],
      fromBeginning: true,
      handler: async (batch) => {
        for (const record of batch.records) {
          if (record.offset === poison) throw new Error('poison');
          await batch.commit((BigInt(record.offset) + 1n).toString());
        }
      },
      onError: (error) => failures.push(error),
    });
    await waitFor(() => failures.length >= 1, waitMs, 'the failure');
    await consumers.stop(c1);
    expect((await c1.committed(topic)).get(0)).toBe(poison);
    const rest = collector();
    await consumers.start(log, { groupId, topics: [topic], fromBeginning: true, handler: rest.handler });
    await waitFor(() => rest.records.length >= 4, waitMs, 'the remaining records');
    expect(values(rest.records)).toEqual(['v6', 'v7', 'v8', 'v9']);
  });

  it('replays from the offset given to seek', async () => {
    const { log } = ctx;
    const topic = await topicWith(1);
    const produced = await log.produce(
      topic,
      Array.from({ length: 10 }, (_, i) => text('k', `v${i}`)),
    );
    const seen = collector();
    const consumer = await consumers.start(log, {
      groupId: freshName('g'),
      topics: [topic],
      fromBeginning: true,
      handler: seen.handler,
    });
    await waitFor(() => seen.records.length >= 10, waitMs, 'first pass');
    await waitFor(
      async () => (await consumer.committed(topic)).get(0) === (BigInt(produced[9]!.offset) + 1n).toString(),
      waitMs,
      'commit',
    );
    await consumer.seek(topic, 0, produced[3]!.offset);
    await waitFor(() => seen.records.length >= 17, waitMs, 'replay');
    expect(values(seen.records.slice(10))).toEqual(['v3', 'v4', 'v5', 'v6', 'v7', 'v8', 'v9']);
  });

  it('stop waits for the batch in flight and commits it', async () => {
    const { log } = ctx;
    const topic = await topicWith(1);
    const produced = await log.produce(topic, [text('k', 'slow')]);
    const hold = gate();
    let entered = false;
    const consumer = await consumers.start(log, {
      groupId: freshName('g'),
      topics: [topic],
      fromBeginning: true,
      handler: async () => {
        entered = true;
        await hold.promise;
      },
    });
    await waitFor(() => entered, waitMs, 'handler entered');
    let stopped = false;
    const stopping = consumers.stop(consumer).then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    hold.open();
    await stopping;
    expect((await consumer.committed(topic)).get(0)).toBe((BigInt(produced[0]!.offset) + 1n).toString());
  });
}
