/**
 * Embedded event log throughput: N single-record produce calls from C concurrent producers while one
 * consumer group reads them, end to end. Usage: tsx --conditions=source bench/event-log.ts [N] [C] [process-crash|power-loss]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedEventLog } from '@catalog/events';

const total = Number(process.argv[2] ?? 50_000);
const concurrency = Number(process.argv[3] ?? 16);
const directory = await mkdtemp(join(tmpdir(), 'bench-eventlog-'));
const durability = process.argv[4] === 'power-loss' ? 'power-loss' : 'process-crash';
const log = await openEmbeddedEventLog({ directory, durability });
const topic = 'bench';
await log.ensureTopics([{ name: topic, partitions: 1 }]);

const value = Buffer.alloc(600, 7); // about the size of an MCP with a small aspect
let consumed = 0;
let batches = 0;
let allConsumed!: () => void;
const done = new Promise<void>((resolve) => (allConsumed = resolve));
const consumer = await log.consume({
  groupId: 'bench',
  topics: [topic],
  fromBeginning: true,
  handler: async (batch) => {
    batches++;
    consumed += batch.records.length;
    if (consumed >= total) allConsumed();
  },
});
await consumer.ready;

const latencies: number[] = [];
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < total) {
      const i = next++;
      const t0 = performance.now();
      await log.produce(topic, [{ key: `urn:li:dataset:${i % 1000}`, value }]);
      latencies.push(performance.now() - t0);
    }
  }),
);
const produced = performance.now();
await done;
const finished = performance.now();
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!.toFixed(2);
console.log(
  JSON.stringify({
    records: total,
    concurrency,
    produceMs: Math.round(produced - started),
    endToEndMs: Math.round(finished - started),
    producesPerSecond: Math.round(total / ((produced - started) / 1000)),
    latencyMs: { p50: pct(0.5), p99: pct(0.99), max: pct(1) },
    consumerBatches: batches,
  }),
);
await consumer.stop();
await log.close();
await rm(directory, { recursive: true, force: true });
