// Readiness probes and smoke checks for the local services, run by infra/local/*.sh.
//
//   node infra/local/probe.mjs kafka <host:port> [timeoutMs]    metadata request through kafkajs
//   node infra/local/probe.mjs mongo <uri> [timeoutMs]          ping through the MongoDB driver
//   node infra/local/probe.mjs smoke-kafka <host:port>          create a topic, produce, consume, delete
//   node infra/local/probe.mjs smoke-mongo <uri>                CRUD, unique index, findAndModify, bulk
//
// The client libraries come from the workspace packages that use them. Exit status 3: not available.
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const UNAVAILABLE = 3;

function load(name, packages) {
  for (const dir of [...packages, '.']) {
    try {
      return createRequire(path.join(repoRoot, dir, 'package.json'))(name);
    } catch {
      // try the next location
    }
  }
  return undefined;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function retryUntil(deadline, what, attempt) {
  let lastError;
  while (Date.now() < deadline) {
    try {
      return await attempt();
    } catch (error) {
      lastError = error;
      await sleep(500);
    }
  }
  throw new Error(`${what}: not ready in time (${lastError?.message ?? 'no attempt finished'})`);
}

function loadKafka() {
  process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';
  const kafkajs = load('kafkajs', ['packages/events']);
  if (!kafkajs) {
    console.error('kafkajs is not installed in the workspace');
    process.exit(UNAVAILABLE);
  }
  return kafkajs;
}

function kafkaClient(kafkajs, broker, clientId) {
  return new kafkajs.Kafka({
    clientId,
    brokers: [broker],
    connectionTimeout: 2000,
    requestTimeout: 5000,
    retry: { retries: 2, initialRetryTime: 200 },
    logLevel: kafkajs.logLevel.NOTHING,
  });
}

async function kafkaReady(broker, timeoutMs) {
  const kafkajs = loadKafka();
  const deadline = Date.now() + timeoutMs;
  const info = await retryUntil(deadline, 'kafka', async () => {
    const admin = kafkaClient(kafkajs, broker, 'catalog-infra-probe').admin();
    await admin.connect();
    try {
      const cluster = await admin.describeCluster();
      const topics = await admin.listTopics();
      if (cluster.brokers.length === 0) throw new Error('no broker in the metadata');
      return { brokers: cluster.brokers.length, controller: cluster.controller, topics: topics.length };
    } finally {
      await admin.disconnect();
    }
  });
  console.log(`kafka ready: ${JSON.stringify(info)}`);
}

async function kafkaSmoke(broker) {
  const kafkajs = loadKafka();
  const kafka = kafkaClient(kafkajs, broker, 'catalog-infra-smoke');
  const topic = `catalog-infra-smoke-${Date.now()}`;
  const admin = kafka.admin();
  await admin.connect();
  const producer = kafka.producer();
  const consumer = kafka.consumer({ groupId: topic, maxWaitTimeInMs: 100 });
  try {
    await admin.createTopics({
      topics: [{ topic, numPartitions: 1, replicationFactor: 1 }],
      waitForLeaders: true,
    });
    const value = `hello ${new Date().toISOString()}`;
    await producer.connect();
    await producer.send({ topic, messages: [{ key: 'urn:li:corpuser:smoke', value }] });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const received = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no message within 30 s')), 30_000);
      consumer
        .run({
          eachMessage: async ({ message }) => {
            clearTimeout(timer);
            resolve({ key: message.key?.toString(), value: message.value?.toString() });
          },
        })
        .catch(reject);
    });
    if (received.value !== value) throw new Error(`consumed ${JSON.stringify(received)}, expected ${value}`);
    console.log(`kafka ok: topic ${topic} produced and consumed ${JSON.stringify(received)}`);
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  }
}

function loadMongo() {
  return load('mongodb', ['packages/store']);
}

// A raw OP_MSG { hello: 1, $db: 'admin' }, for when the driver is not installed.
function rawHello(uri, timeoutMs) {
  const { hostname, port } = new URL(uri);
  const body = Buffer.concat([
    Buffer.from([0x10]),
    Buffer.from('hello\0'),
    Buffer.from([1, 0, 0, 0]),
    Buffer.from([0x02]),
    Buffer.from('$db\0'),
    Buffer.from([6, 0, 0, 0]),
    Buffer.from('admin\0'),
    Buffer.from([0]),
  ]);
  const doc = Buffer.concat([Buffer.alloc(4), body]);
  doc.writeInt32LE(doc.length, 0);
  const header = Buffer.alloc(21);
  header.writeInt32LE(16 + 4 + 1 + doc.length, 0);
  header.writeInt32LE(1, 4);
  header.writeInt32LE(0, 8);
  header.writeInt32LE(2013, 12);
  header.writeUInt32LE(0, 16);
  header.writeUInt8(0, 20);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port || 27017) });
    let reply = Buffer.alloc(0);
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('timeout')));
    socket.on('connect', () => socket.write(Buffer.concat([header, doc])));
    socket.on('data', (chunk) => {
      reply = Buffer.concat([reply, chunk]);
      if (reply.length >= 4 && reply.length >= reply.readInt32LE(0)) {
        socket.end();
        if (reply.readInt32LE(12) === 2013 && reply.includes('isWritablePrimary')) resolve('hello answered');
        else reject(new Error('unexpected reply to hello'));
      }
    });
    socket.on('error', reject);
  });
}

async function mongoReady(uri, timeoutMs) {
  const mongodb = loadMongo();
  const deadline = Date.now() + timeoutMs;
  const info = await retryUntil(deadline, 'mongo', async () => {
    if (!mongodb) return rawHello(uri, 2000);
    const client = new mongodb.MongoClient(uri, { serverSelectionTimeoutMS: 2000 });
    try {
      await client.connect();
      await client.db('admin').command({ ping: 1 });
      const build = await client.db('admin').command({ buildInfo: 1 });
      return `ping ok, reports MongoDB ${build.version}${build.ferretdb ? ` (FerretDB ${build.ferretdb.version})` : ''}`;
    } finally {
      await client.close();
    }
  });
  console.log(`mongo ready: ${info}`);
}

async function mongoSmoke(uri) {
  const mongodb = loadMongo();
  if (!mongodb) {
    console.error('the mongodb driver is not installed in the workspace');
    process.exit(UNAVAILABLE);
  }
  const client = new mongodb.MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  const collection = client.db().collection(`catalog_infra_smoke_${Date.now()}`);
  try {
    await collection.createIndex({ urn: 1, aspect: 1, version: 1 }, { unique: true });
    await collection.insertOne({
      urn: 'urn:li:corpuser:smoke',
      aspect: 'status',
      version: 0,
      value: { removed: false },
    });
    const found = await collection.findOne({ urn: 'urn:li:corpuser:smoke', aspect: 'status' });
    if (found?.value?.removed !== false) throw new Error(`find returned ${JSON.stringify(found)}`);
    let duplicateRejected = false;
    try {
      await collection.insertOne({ urn: 'urn:li:corpuser:smoke', aspect: 'status', version: 0 });
    } catch (error) {
      duplicateRejected = error.code === 11000;
    }
    if (!duplicateRejected) throw new Error('the unique index did not reject a duplicate');
    const updated = await collection.findOneAndUpdate(
      { urn: 'urn:li:corpuser:smoke', aspect: 'status', version: 0 },
      { $set: { 'value.removed': true } },
      { returnDocument: 'after' },
    );
    if (updated?.value?.removed !== true)
      throw new Error(`findOneAndUpdate returned ${JSON.stringify(updated)}`);
    const bulk = await collection.bulkWrite([
      { insertOne: { document: { urn: 'urn:li:corpuser:other', aspect: 'status', version: 0 } } },
      {
        updateOne: { filter: { urn: 'urn:li:corpuser:other' }, update: { $set: { seen: 1 } }, upsert: true },
      },
    ]);
    if (bulk.insertedCount !== 1 || bulk.modifiedCount !== 1) throw new Error('bulkWrite counts are off');
    console.log(
      `mongo ok: insert/find/unique index/findOneAndUpdate/bulkWrite on ${collection.collectionName}`,
    );
  } finally {
    await collection.drop().catch(() => undefined);
    await client.close();
  }
}

const [command, target, timeout] = process.argv.slice(2);
const timeoutMs = Number(timeout ?? 60_000);
const commands = {
  kafka: () => kafkaReady(target, timeoutMs),
  mongo: () => mongoReady(target, timeoutMs),
  'smoke-kafka': () => kafkaSmoke(target),
  'smoke-mongo': () => mongoSmoke(target),
};
if (!commands[command] || !target) {
  console.error('usage: probe.mjs kafka|mongo|smoke-kafka|smoke-mongo <address> [timeoutMs]');
  process.exit(2);
}
commands[command]().then(
  () => process.exit(0),
  (error) => {
    console.error(`${command}: ${error.message}`);
    process.exit(1);
  },
);
