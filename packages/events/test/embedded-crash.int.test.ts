import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@catalog/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEmbeddedEventLog, type LogRecord } from '../src/index.js';
import { runFixture } from './child-process.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'eventlog-crash-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function readAll(topic: string): Promise<LogRecord[]> {
  const log = await openEmbeddedEventLog({ directory });
  const records: LogRecord[] = [];
  const groupId = `reader-${Math.random()}`;
  const consumer = await log.consume({
    groupId,
    topics: [topic],
    fromBeginning: true,
    handler: async (batch) => void records.push(...batch.records),
  });
  await waitFor(
    async () => (await log.lag(groupId, topic)).every((p) => p.lag === 0),
    20_000,
    'reader caught up',
  );
  await consumer.stop();
  await log.close();
  return records;
}

describe('embedded event log under kill -9', () => {
  it.each([1, 2, 3])(
    'keeps every acknowledged record exactly once, offsets contiguous (run %i)',
    async () => {
      const topic = 'crash-produce';
      const producer = runFixture('produce-until-killed.ts', [directory, topic]);
      const killAfterAcks = 200 + Math.floor(Math.random() * 2000);
      await waitFor(
        () => producer.lines.length > killAfterAcks,
        30_000,
        `${killAfterAcks} acks (${producer.stderr()})`,
      );
      producer.child.kill('SIGKILL');
      expect((await producer.exited).signal).toBe('SIGKILL');

      const acked = producer.lines
        .filter((l) => l.startsWith('ack '))
        .map((l) => {
          const [, key, partition, offset] = l.split(' ');
          return { key: key!, partition: Number(partition), offset: offset! };
        });
      const records = await readAll(topic);
      const byKey = new Map<string, LogRecord[]>();
      for (const r of records) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
      for (const ack of acked) {
        const found = byKey.get(ack.key) ?? [];
        expect(found, ack.key).toHaveLength(1);
        expect([found[0]!.partition, found[0]!.offset]).toEqual([ack.partition, ack.offset]);
        expect(found[0]!.value.toString()).toBe(`value of ${ack.key}`);
      }
      expect(byKey.size).toBe(records.length);
      for (const partition of [0, 1, 2]) {
        const offsets = records.filter((r) => r.partition === partition).map((r) => Number(r.offset));
        expect(offsets).toEqual(offsets.map((_, i) => i));
      }
      expect(records.length).toBeGreaterThanOrEqual(acked.length);
    },
  );

  it('redelivers from the committed offset after a consumer is killed; commits never go backwards', async () => {
    const topic = 'crash-consume';
    const groupId = 'appliers';
    const total = 3000;
    const setup = await openEmbeddedEventLog({ directory });
    await setup.ensureTopics([{ name: topic, partitions: 2 }]);
    await setup.produce(
      topic,
      Array.from({ length: total }, (_, i) => ({ key: `k${i}`, value: Buffer.from(`v${i}`) })),
    );
    await setup.close();

    const parse = (lines: readonly string[], kind: string) =>
      lines
        .filter((l) => l.startsWith(`${kind} `))
        .map((l) => l.split(' ').slice(1).map(Number) as [number, number]);

    const first = runFixture('consume-until-killed.ts', [directory, topic, groupId]);
    const killAfter = 100 + Math.floor(Math.random() * 1500);
    await waitFor(() => first.lines.length > killAfter, 30_000, `${killAfter} lines (${first.stderr()})`);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(first.lines).not.toContain('done');

    const inspect = await openEmbeddedEventLog({ directory });
    const afterKill = new Map(
      (await inspect.lag(groupId, topic)).map((p) => [p.partition, Number(p.offset)]),
    );
    await inspect.close();
    for (const [partition, next] of parse(first.lines, 'committed')) {
      expect(afterKill.get(partition)!).toBeGreaterThanOrEqual(next);
    }

    const second = runFixture('consume-until-killed.ts', [directory, topic, groupId]);
    await waitFor(() => second.lines.includes('done'), 30_000, `second run done (${second.stderr()})`);
    expect((await second.exited).code).toBe(0);

    const appliedFirst = parse(first.lines, 'applied');
    const appliedSecond = parse(second.lines, 'applied');
    for (const partition of [0, 1]) {
      const resumed = appliedSecond.find(([p]) => p === partition);
      if (resumed) expect(resumed[1]).toBe(afterKill.get(partition));
    }
    const delivered = new Set([...appliedFirst, ...appliedSecond].map(([p, o]) => `${p}:${o}`));
    const final = await openEmbeddedEventLog({ directory });
    const lag = await final.lag(groupId, topic);
    await final.close();
    expect(lag.every((p) => p.lag === 0 && p.offset === p.endOffset)).toBe(true);
    const expected = lag.flatMap((p) =>
      Array.from({ length: Number(p.endOffset) }, (_, o) => `${p.partition}:${o}`),
    );
    expect(expected).toHaveLength(total);
    for (const position of expected) expect(delivered.has(position), position).toBe(true);
  });
});
