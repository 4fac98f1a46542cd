import { expect, it } from 'vitest';
import { waitFor } from '../wait-for.js';
import {
  collector,
  freshName,
  positionKey,
  text,
  values,
  type EventLogTestContext,
} from './event-log-helpers.js';

/** Several groups and several members of one group: independence, start positions, lag, sharing. */
export function eventLogGroupCases(ctx: EventLogTestContext): void {
  const { consumers, waitMs, topicWith } = ctx;

  it('lets two groups read the same topic independently', async () => {
    const { log } = ctx;
    const topic = await topicWith(2);
    const produced = await log.produce(
      topic,
      Array.from({ length: 20 }, (_, i) => text(`k${i}`, `v${i}`)),
    );
    const a = collector();
    const b = collector();
    const groupA = freshName('ga');
    const consumerA = await consumers.start(log, {
      groupId: groupA,
      topics: [topic],
      fromBeginning: true,
      handler: a.handler,
    });
    await waitFor(() => a.records.length >= 20, waitMs, 'group A');
    await consumers.stop(consumerA);
    await consumers.start(log, {
      groupId: freshName('gb'),
      topics: [topic],
      fromBeginning: true,
      handler: b.handler,
    });
    await waitFor(() => b.records.length >= 20, waitMs, 'group B');
    expect(new Set(a.records.map(positionKey))).toEqual(new Set(produced.map(positionKey)));
    expect(new Set(b.records.map(positionKey))).toEqual(new Set(produced.map(positionKey)));
  });

  it('starts a new group at the earliest record with fromBeginning, at the end without', async () => {
    const { log } = ctx;
    const topic = await topicWith(1);
    await log.produce(topic, [text('k', 'old1'), text('k', 'old2')]);
    const early = collector();
    const late = collector();
    await consumers.start(log, {
      groupId: freshName('early'),
      topics: [topic],
      fromBeginning: true,
      handler: early.handler,
    });
    await consumers.start(log, {
      groupId: freshName('late'),
      topics: [topic],
      fromBeginning: false,
      handler: late.handler,
    });
    await log.produce(topic, [text('k', 'new1'), text('k', 'new2')]);
    await waitFor(() => early.records.length >= 4 && late.records.length >= 2, waitMs, 'both groups');
    expect(values(early.records)).toEqual(['old1', 'old2', 'new1', 'new2']);
    expect(values(late.records)).toEqual(['new1', 'new2']);
  });

  it('reports lag per partition: committed offset, end offset and the difference', async () => {
    const { log } = ctx;
    const topic = await topicWith(1);
    const groupId = freshName('g');
    const produced = await log.produce(
      topic,
      Array.from({ length: 10 }, (_, i) => text('k', `v${i}`)),
    );
    const end = BigInt(produced[9]!.offset) + 1n;
    expect(await log.lag(freshName('nobody'), topic)).toEqual([
      { partition: 0, offset: '-1', endOffset: end.toString(), lag: 10 },
    ]);
    const seen = collector();
    const consumer = await consumers.start(log, {
      groupId,
      topics: [topic],
      fromBeginning: true,
      handler: seen.handler,
    });
    await waitFor(async () => (await log.lag(groupId, topic))[0]?.lag === 0, waitMs, 'lag 0');
    await consumers.stop(consumer);
    await log.produce(
      topic,
      Array.from({ length: 4 }, (_, i) => text('k', `w${i}`)),
    );
    expect(await log.lag(groupId, topic)).toEqual([
      { partition: 0, offset: end.toString(), endOffset: (end + 4n).toString(), lag: 4 },
    ]);
  });

  it('keeps an ephemeral group only while its consumer runs: a new one starts at the end, no commit stays', async () => {
    const { log } = ctx;
    const topic = await topicWith(2);
    const groupId = freshName('ephemeral');
    await log.produce(topic, [text('a', 'before')]);
    const first = collector();
    const consumer = await consumers.start(log, {
      groupId,
      topics: [topic],
      ephemeral: true,
      handler: first.handler,
    });
    const produced = await log.produce(topic, [text('a', 'one'), text('b', 'two'), text('c', 'three')]);
    await waitFor(() => first.records.length >= 3, waitMs, 'first consumer');
    expect(values(first.records).sort()).toEqual(['one', 'three', 'two']);
    // While it runs, the consumer knows where it is, as a durable one does.
    const ends = new Map<number, string>();
    for (const p of produced) {
      const next = (BigInt(p.offset) + 1n).toString();
      if (BigInt(next) > BigInt(ends.get(p.partition) ?? '0')) ends.set(p.partition, next);
    }
    await waitFor(
      async () => {
        const committed = await consumer.committed(topic);
        return [...ends].every(([partition, next]) => committed.get(partition) === next);
      },
      waitMs,
      'positions of the running consumer',
    );
    await consumers.stop(consumer);
    expect((await log.lag(groupId, topic)).map((l) => l.offset)).toEqual(['-1', '-1']);
    await log.produce(topic, [text('a', 'missed')]);
    const second = collector();
    await consumers.start(log, {
      groupId,
      topics: [topic],
      ephemeral: true,
      handler: second.handler,
    });
    await log.produce(topic, [text('a', 'after')]);
    await waitFor(() => second.records.length >= 1, waitMs, 'second consumer');
    expect(values(second.records)).toEqual(['after']);
  });

  it('splits partitions between two consumers of one group, without duplicates, and rebalances on stop', async () => {
    const { log } = ctx;
    const topic = await topicWith(4);
    const groupId = freshName('g');
    const one = collector();
    const two = collector();
    await consumers.start(log, { groupId, topics: [topic], fromBeginning: true, handler: one.handler });
    const c2 = await consumers.start(log, {
      groupId,
      topics: [topic],
      fromBeginning: true,
      handler: two.handler,
    });
    const keys = Array.from({ length: 100 }, (_, i) => `key-${i}`);
    await log.produce(
      topic,
      keys.map((k) => text(k, k)),
    );
    await waitFor(() => one.records.length + two.records.length >= 100, waitMs, 'first hundred');
    expect(one.records.length).toBeGreaterThan(0);
    expect(two.records.length).toBeGreaterThan(0);
    const partitionsOne = new Set(one.records.map((r) => r.partition));
    expect(two.records.some((r) => partitionsOne.has(r.partition))).toBe(false);
    await consumers.stop(c2);
    await log.produce(
      topic,
      keys.map((k) => text(k, `${k}-again`)),
    );
    await waitFor(
      () => one.records.length + two.records.length >= 200,
      waitMs,
      'second hundred after rebalance',
    );
    const all = [...one.records, ...two.records].map(positionKey);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(200);
  });
}
