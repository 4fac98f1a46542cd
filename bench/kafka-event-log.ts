/**
 * Kafka throughput: the EventLog adapter against raw kafkajs on the same broker, N records of 600 bytes
 * produced while one consumer group reads them, end to end. Both produce with acks=all and an idempotent
 * producer; both consumers commit after each batch.
 *
 *   KAFKA_BOOTSTRAP_SERVER=127.0.0.1:9092 tsx --conditions=source bench/kafka-event-log.ts [N] [partitions] [concurrency]
 *
 * Modes: adapter-single (N concurrent single-record produce calls, C at a time: the gateway's hot path),
 * adapter-chunks (produce calls of 500), raw-chunks (sendBatch of 500, awaited in turn), raw-single
 * (producer.send of one message, C at a time).
 */
import { randomUUID } from 'node:crypto';
import { openKafkaEventLog } from '@catalog/events/kafka';
import { Kafka, logLevel, Partitioners } from 'kafkajs';

const total = Number(process.argv[2] ?? 50_000);
const partitions = Number(process.argv[3] ?? 1);
const concurrency = Number(process.argv[4] ?? 64);
const brokers = (process.env['KAFKA_BOOTSTRAP_SERVER'] ?? '127.0.0.1:9092').split(',');
const run = randomUUID().slice(0, 8);
const value = Buffer.alloc(600, 7);
const key = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,bench_${i % 1000},PROD)`;
const CHUNK = 500;

interface Result {
  readonly mode: string;
  readonly produceMs: number;
  readonly endToEndMs: number;
}

function report(r: Result): void {
  console.log(
    JSON.stringify({
      ...r,
      records: total,
      partitions,
      producedPerSecond: Math.round(total / (r.produceMs / 1000)),
      endToEndPerSecond: Math.round(total / (r.endToEndMs / 1000)),
    }),
  );
}

async function adapter(mode: 'single' | 'chunks'): Promise<Result> {
  const log = await openKafkaEventLog({
    brokers,
    clientId: 'bench',
    partitions,
    replicationFactor: 1,
    kafkaLogLevel: 'nothing',
  });
  const topic = `bench-${run}-adapter-${mode}`;
  await log.ensureTopics([{ name: topic, partitions }]);
  let consumed = 0;
  let allConsumed!: () => void;
  const done = new Promise<void>((resolve) => (allConsumed = resolve));
  const consumer = await log.consume({
    groupId: `${topic}-g`,
    topics: [topic],
    fromBeginning: true,
    maxBatchSize: 5000,
    handler: async (batch) => {
      consumed += batch.records.length;
      if (consumed >= total) allConsumed();
    },
  });
  await consumer.ready;
  const started = performance.now();
  if (mode === 'single') {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) {
          const i = next++;
          await log.produce(topic, [{ key: key(i), value }]);
        }
      }),
    );
  } else {
    for (let i = 0; i < total; i += CHUNK) {
      const n = Math.min(CHUNK, total - i);
      await log.produce(
        topic,
        Array.from({ length: n }, (_, j) => ({ key: key(i + j), value })),
      );
    }
  }
  const produced = performance.now();
  await done;
  const finished = performance.now();
  await log.close();
  await deleteTopic(topic);
  return {
    mode: `adapter-${mode}`,
    produceMs: Math.round(produced - started),
    endToEndMs: Math.round(finished - started),
  };
}

async function raw(mode: 'single' | 'chunks'): Promise<Result> {
  const kafka = new Kafka({ clientId: 'bench-raw', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const topic = `bench-${run}-raw-${mode}`;
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: partitions }] });
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  const consumer = kafka.consumer({ groupId: `${topic}-g`, maxWaitTimeInMs: 25 });
  let consumed = 0;
  let allConsumed!: () => void;
  const done = new Promise<void>((resolve) => (allConsumed = resolve));
  let joined!: () => void;
  const ready = new Promise<void>((resolve) => (joined = resolve));
  consumer.on(consumer.events.GROUP_JOIN, () => joined());
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    eachBatch: async ({ batch }) => {
      consumed += batch.messages.length;
      if (consumed >= total) allConsumed();
    },
  });
  await ready;
  const started = performance.now();
  if (mode === 'single') {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) {
          const i = next++;
          await producer.send({ topic, acks: -1, messages: [{ key: key(i), value }] });
        }
      }),
    );
  } else {
    for (let i = 0; i < total; i += CHUNK) {
      const n = Math.min(CHUNK, total - i);
      await producer.send({
        topic,
        acks: -1,
        messages: Array.from({ length: n }, (_, j) => ({ key: key(i + j), value })),
      });
    }
  }
  const produced = performance.now();
  await done;
  const finished = performance.now();
  await consumer.disconnect();
  await producer.disconnect();
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect();
  return {
    mode: `raw-${mode}`,
    produceMs: Math.round(produced - started),
    endToEndMs: Math.round(finished - started),
  };
}

/** The bench's own topics only. */
async function deleteTopic(topic: string): Promise<void> {
  const admin = new Kafka({ clientId: 'bench-cleanup', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect();
}

const modes = (process.env['BENCH_MODES'] ?? 'adapter-chunks,raw-chunks,adapter-single,raw-single').split(
  ',',
);
for (const mode of modes) {
  const [kind, shape] = mode.split('-') as ['adapter' | 'raw', 'single' | 'chunks'];
  report(kind === 'adapter' ? await adapter(shape) : await raw(shape));
}
