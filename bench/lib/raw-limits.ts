import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { MongoClient } from 'mongodb';

/**
 * The raw limit of the infrastructure with no catalog logic: kafkajs produce + consume of `n` records
 * of `bytes` bytes (batches of 500, acks=all, one group), and a MongoDB insertMany of `n` documents of
 * the same size.
 */
export async function kafkaProduceConsume(
  brokers: string[],
  n: number,
  bytes: number,
  partitions: number,
): Promise<number> {
  const kafka = new Kafka({ clientId: 'raw-limit', brokers, logLevel: logLevel.NOTHING });
  const topic = `raw_${randomBytes(4).toString('hex')}`;
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: partitions }], waitForLeaders: true });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  const consumer = kafka.consumer({ groupId: `${topic}_g`, maxWaitTimeInMs: 25 });
  await Promise.all([producer.connect(), consumer.connect()]);
  await consumer.subscribe({ topic, fromBeginning: true });
  let received = 0;
  let done: () => void = () => undefined;
  const all = new Promise<void>((r) => (done = r));
  await consumer.run({
    eachBatch: async ({ batch }) => {
      received += batch.messages.length;
      if (received >= n) done();
    },
  });
  const value = randomBytes(bytes);
  const started = performance.now();
  for (let i = 0; i < n; i += 500) {
    await producer.send({
      topic,
      acks: -1,
      messages: Array.from({ length: Math.min(500, n - i) }, (_, j) => ({ key: `k${i + j}`, value })),
    });
  }
  await all;
  const seconds = (performance.now() - started) / 1000;
  await consumer.disconnect();
  await producer.disconnect();
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect();
  return n / seconds;
}

export async function mongoInsertMany(uri: string, n: number, bytes: number): Promise<number> {
  const client = await new MongoClient(uri).connect();
  const db = client.db(`raw_${randomBytes(4).toString('hex')}`);
  const collection = db.collection('docs');
  const metadata = 'x'.repeat(bytes);
  const started = performance.now();
  for (let i = 0; i < n; i += 500) {
    await collection.insertMany(
      Array.from({ length: Math.min(500, n - i) }, (_, j) => ({
        urn: `urn:li:dataset:${i + j}`,
        aspect: 'datasetProperties',
        version: 0,
        metadata,
      })),
      { ordered: false },
    );
  }
  const seconds = (performance.now() - started) / 1000;
  await db.dropDatabase().catch(() => undefined);
  await client.close();
  return n / seconds;
}
