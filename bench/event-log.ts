/**
 * Embedded event log throughput: N single-record produce calls from C concurrent producers while one
 * consumer group reads them, end to end; then the file's size per record (closed, so checkpointed).
 * Usage: tsx --conditions=source bench/event-log.ts [N] [C] [process-crash|power-loss] [zeros|metadata]
 * zeros (default): a 600-byte value of one repeated byte, about the size of an MCP with a small aspect;
 * metadata: change logs (MCL) of a dataset's properties with their previous value, as persistence writes.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeMcl, genericAspectFromJson, openEmbeddedEventLog, SchemaIds } from '@catalog/events';
import { datasetUrn } from './lib/fixtures.js';

const total = Number(process.argv[2] ?? 50_000);
const concurrency = Number(process.argv[3] ?? 16);
const directory = await mkdtemp(join(tmpdir(), 'bench-eventlog-'));
const durability = process.argv[4] === 'power-loss' ? 'power-loss' : 'process-crash';
const log = await openEmbeddedEventLog({ directory, durability });
const topic = 'bench';
await log.ensureTopics([{ name: topic, partitions: 1 }]);

const valueKind = process.argv[5] ?? 'zeros';
if (valueKind !== 'zeros' && valueKind !== 'metadata') throw new Error('the value is zeros or metadata');
const zeros = Buffer.alloc(600, 7);

/** A change log of the i-th dataset's properties, its previous value one revision older. */
function changeLog(i: number): Buffer {
  const urn = datasetUrn(i, 'eventlog');
  const properties = (revision: number) =>
    genericAspectFromJson({
      name: `table_${i}`,
      qualifiedName: `analytics.schema_${i % 50}.table_${i}`,
      description: `Table ${i} holds the daily facts of business line ${i % 17}, revision ${revision}.`,
      customProperties: { owner_team: `team_${i % 9}`, retention_days: String(30 + (i % 300)) },
    });
  const systemMetadata = (revision: number) => ({
    lastObserved: 1_700_000_000_000 + i * 1000 + revision,
    runId: `bench-${revision}`,
    properties: { requestId: `${i.toString(36)}-${revision}` },
  });
  return encodeMcl(
    {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'datasetProperties',
      aspect: properties(2),
      systemMetadata: systemMetadata(2),
      previousAspectValue: properties(1),
      previousSystemMetadata: systemMetadata(1),
      created: { time: 1_700_000_000_000 + i, actor: 'urn:li:corpuser:datahub' },
    },
    SchemaIds.metadataChangeLog,
  );
}
// Encoded before the clock starts: the bench measures the log, not the encoder.
const changeLogs = valueKind === 'metadata' ? Array.from({ length: total }, (_, i) => changeLog(i)) : [];
const valueOf = (i: number): Buffer => changeLogs[i] ?? zeros;
let valueBytes = 0;
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
      const value = valueOf(i);
      valueBytes += value.length;
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
await consumer.stop();
await log.close();
let fileBytes = 0;
for (const name of await readdir(directory)) fileBytes += (await stat(join(directory, name))).size;
console.log(
  JSON.stringify({
    records: total,
    concurrency,
    value: valueKind,
    valueBytesPerRecord: Math.round(valueBytes / total),
    fileBytesPerRecord: Math.round(fileBytes / total),
    produceMs: Math.round(produced - started),
    endToEndMs: Math.round(finished - started),
    producesPerSecond: Math.round(total / ((produced - started) / 1000)),
    latencyMs: { p50: pct(0.5), p99: pct(0.99), max: pct(1) },
    consumerBatches: batches,
  }),
);
await rm(directory, { recursive: true, force: true });
