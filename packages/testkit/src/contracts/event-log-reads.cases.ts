import { expect, it } from 'vitest';
import { text, values, type EventLogTestContext } from './event-log-helpers.js';

/** Reading without a group: partition bounds, positions by time, reads from given offsets. */
export function eventLogReadCases(ctx: EventLogTestContext): void {
  const { topicWith } = ctx;

  it('reports each partition with its first stored offset and its end', async () => {
    const { log } = ctx;
    const topic = await topicWith(2);
    const produced = await log.produce(topic, [text('a', '1'), text('a', '2'), text('a', '3')]);
    const partition = produced[0]!.partition;
    const offsets = await log.offsets(topic);
    expect(offsets.map((o) => o.partition)).toEqual([0, 1]);
    const used = offsets.find((o) => o.partition === partition)!;
    expect(BigInt(used.end) - BigInt(used.start)).toBe(3n);
    const other = offsets.find((o) => o.partition !== partition)!;
    expect(other.end).toBe(other.start);
  });

  it('finds per partition the first offset at or after a time, the end when nothing is that recent', async () => {
    const { log } = ctx;
    const topic = await topicWith(1);
    const base = Date.now() - 60_000;
    const produced = await log.produce(
      topic,
      [0, 10_000, 20_000].map((delta, i) => ({ ...text('k', `v${i}`), timestamp: base + delta })),
    );
    const at = await log.offsetsForTime(topic, base + 5_000);
    expect(at.get(0)).toBe(produced[1]!.offset);
    const exact = await log.offsetsForTime(topic, base + 20_000);
    expect(exact.get(0)).toBe(produced[2]!.offset);
    const after = await log.offsetsForTime(topic, Date.now() + 60_000);
    expect(after.get(0)).toBe((BigInt(produced[2]!.offset) + 1n).toString());
  });

  it('reads from given offsets in offset order, at most maxRecords, committing nothing', async () => {
    const { log } = ctx;
    const topic = await topicWith(1);
    const produced = await log.produce(
      topic,
      ['a', 'b', 'c', 'd', 'e'].map((v) => text('k', v)),
    );
    const from = new Map([[0, produced[1]!.offset]]);
    const first = await log.read(topic, from, { maxRecords: 3 });
    expect(values(first)).toEqual(['b', 'c', 'd']);
    expect(first.map((r) => r.offset)).toEqual(produced.slice(1, 4).map((p) => p.offset));
    const again = await log.read(topic, from, { maxRecords: 10 });
    expect(values(again)).toEqual(['b', 'c', 'd', 'e']);
    const atEnd = await log.read(topic, new Map([[0, (BigInt(produced[4]!.offset) + 1n).toString()]]), {
      maxRecords: 10,
    });
    expect(atEnd).toEqual([]);
  });

  it('waits for a first record at the end, and answers as soon as one is produced', async () => {
    const { log } = ctx;
    const topic = await topicWith(1);
    const [end] = await log.offsets(topic);
    const reading = log.read(topic, new Map([[0, end!.end]]), { maxRecords: 10, waitMs: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await log.produce(topic, [text('k', 'late')]);
    const records = await reading;
    expect(values(records)).toEqual(['late']);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
}
