import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@catalog/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogRecord, ProduceRecord } from '../port.js';
import { openEmbeddedEventLog, type EmbeddedEventLog } from './embedded-event-log.js';

// Behaviour specific to the embedded adapter; the shared behaviour is in the contract suite.

let directory: string;
const opened: EmbeddedEventLog[] = [];
const open = async (options: { defaultPartitions?: number; pollIntervalMs?: number } = {}) => {
  const log = await openEmbeddedEventLog({ directory, ...options });
  opened.push(log);
  return log;
};
const rec = (key: string, value: string, timestamp?: number): ProduceRecord => ({
  key,
  value: Buffer.from(value),
  ...(timestamp === undefined ? {} : { timestamp }),
});

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'eventlog-embedded-'));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((log) => log.close()));
  await rm(directory, { recursive: true, force: true });
});

describe('embedded event log', () => {
  it('keeps records and committed offsets across close and reopen', async () => {
    const first = await open();
    await first.produce('t', [rec('k', 'a'), rec('k', 'b'), rec('k', 'c')]);
    const seen: LogRecord[] = [];
    const consumer = await first.consume({
      groupId: 'g',
      topics: ['t'],
      fromBeginning: true,
      maxBatchSize: 2,
      handler: async (batch) => void seen.push(...batch.records),
    });
    await waitFor(() => seen.length === 3);
    await consumer.stop();
    await first.close();

    const second = await open();
    expect(await second.lag('g', 't')).toEqual([{ partition: 0, offset: '3', endOffset: '3', lag: 0 }]);
    const [position] = await second.produce('t', [rec('k', 'd')]);
    expect(position?.offset).toBe('3');
  });

  it('group-commits concurrent produce calls and keeps offsets contiguous', async () => {
    const log = await open();
    const positions = await Promise.all(
      Array.from({ length: 500 }, (_, i) => log.produce('t', [rec('k', `v${i}`)])),
    );
    expect(positions.map((p) => p[0]?.offset)).toEqual(Array.from({ length: 500 }, (_, i) => String(i)));
  });

  it('rejects an invalid record without failing the produce calls committed with it', async () => {
    const log = await open();
    const good = log.produce('t', [rec('k', 'ok')]);
    const bad = log.produce('t', [{ key: 'k', value: 'not a buffer' as unknown as Buffer }]);
    await expect(bad).rejects.toThrow(TypeError);
    await expect(good).resolves.toEqual([{ topic: 't', partition: 0, offset: '0' }]);
  });

  it('auto-creates topics with the default partition count; ensureTopics keeps existing ones', async () => {
    const log = await open({ defaultPartitions: 3 });
    await log.produce('auto', [rec('k', 'v')]);
    expect(await log.lag('g', 'auto')).toHaveLength(3);
    await log.ensureTopics([
      { name: 'auto', partitions: 5 },
      { name: 'made', partitions: 2 },
    ]);
    expect(await log.lag('g', 'auto')).toHaveLength(3);
    expect(await log.lag('g', 'made')).toHaveLength(2);
  });

  it('lets timers run and writes its position durably between batches while a backlog lasts, with a handler that never waits', async () => {
    const log = await open();
    const observer = await open();
    await log.produce(
      't',
      Array.from({ length: 3000 }, (_, i) => rec('k', `v${i}`)),
    );
    let handled = 0;
    let handledWhenTimerRan: number | undefined;
    let durableMidway: string | undefined;
    const consumer = await log.consume({
      groupId: 'g',
      topics: ['t'],
      fromBeginning: true,
      maxBatchSize: 10,
      // Synchronous work, as the embedded stores do: no macrotask between batches unless the consumer yields.
      handler: async (batch) => {
        if (handled === 0) setTimeout(() => (handledWhenTimerRan = handled), 0);
        handled += batch.records.length;
        if (handled === 2000) durableMidway = (await observer.lag('g', 't'))[0]?.offset;
      },
    });
    await waitFor(() => handled === 3000);
    await consumer.stop();
    expect(handledWhenTimerRan).toBeDefined();
    expect(handledWhenTimerRan!).toBeLessThan(3000);
    // Another connection (the lag endpoint, another process) sees the position move during the backlog.
    expect(Number(durableMidway)).toBeGreaterThan(0);
  });

  it('sees records produced by another instance on the same file (another process) by polling', async () => {
    const writer = await open();
    const reader = await open({ pollIntervalMs: 20 });
    await writer.ensureTopics([{ name: 'shared', partitions: 2 }]);
    const seen: LogRecord[] = [];
    await reader.consume({
      groupId: 'g',
      topics: ['shared'],
      handler: async (batch) => void seen.push(...batch.records),
    });
    await writer.produce(
      'shared',
      Array.from({ length: 50 }, (_, i) => rec(`k${i}`, `v${i}`)),
    );
    await waitFor(() => seen.length === 50, 10_000, 'records from the other instance');
    const more = await Promise.all([
      writer.produce('shared', [rec('a', '1')]),
      reader.produce('shared', [rec('a', '2')]),
    ]);
    expect(more[1]![0]!.offset).toBe(String(Number(more[0]![0]!.offset) + 1));
  });

  it('deletes records past the retention by timestamp, never reusing their offsets', async () => {
    const log = await open();
    await log.ensureTopics([{ name: 'short', retentionMs: 1000 }]);
    const now = Date.now();
    // Two appends, two batches: a batch goes whole, once its newest record is past the retention.
    await log.produce('short', [rec('k', 'old', now - 5000), rec('k', 'older', now - 4000)]);
    await log.produce('short', [rec('k', 'fresh', now)]);
    expect(await log.runRetention(now)).toBe(2);
    expect(await log.lag('g', 'short')).toEqual([{ partition: 0, offset: '-1', endOffset: '3', lag: 1 }]);
    const seen: LogRecord[] = [];
    await log.consume({
      groupId: 'g',
      topics: ['short'],
      fromBeginning: true,
      handler: async (b) => void seen.push(...b.records),
    });
    await waitFor(() => seen.length === 1);
    expect(seen[0]?.offset).toBe('2');
    const [position] = await log.produce('short', [rec('k', 'next')]);
    expect(position?.offset).toBe('3');
  });

  it('refuses work after close', async () => {
    const log = await open();
    await log.close();
    await expect(log.produce('t', [rec('k', 'v')])).rejects.toThrow(/closed/);
  });
});
