import { Kafka, logLevel } from 'kafkajs';
import { MongoClient } from 'mongodb';

/**
 * What a distributed bench run leaves on the local services: its topics (and its consumer groups' dead
 * letter topics), its OpenSearch indices and its MongoDB database, all named after the run. Left behind,
 * every run adds about 85 indices to the one OpenSearch node (each with its own refresh and merge work, and
 * a bigger cluster state for the next run's index creations) and its topics and database to the others: runs
 * slow down and measure one another. BENCH_KEEP=1 keeps them for inspection.
 */
export interface RunResources {
  /** Topic names of the run, and dead letter topics, contain it. */
  readonly runIds: readonly string[];
  /** Index name prefixes (INDEX_PREFIX values) of the run. */
  readonly indexPrefixes: readonly string[];
  /** MongoDB connection strings whose database belongs to the run. */
  readonly mongoUris: readonly string[];
}

export async function removeRunResources(resources: RunResources): Promise<void> {
  if (process.env['BENCH_KEEP'] === '1') {
    console.log(`BENCH_KEEP=1: left run ${resources.runIds.join(', ')} on the local services`);
    return;
  }
  const failures: string[] = [];
  const attempt = async (what: string, step: () => Promise<void>) => {
    try {
      await step();
    } catch (error) {
      failures.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const brokers = process.env['KAFKA_BOOTSTRAP_SERVER'];
  if (brokers) await attempt('Kafka topics', () => removeTopics(brokers.split(','), resources.runIds));
  const opensearch = process.env['OPENSEARCH_URL'];
  if (opensearch)
    await attempt('OpenSearch indices', () => removeIndices(opensearch, resources.indexPrefixes));
  for (const uri of resources.mongoUris) await attempt('MongoDB database', () => dropDatabase(uri));
  if (failures.length > 0) console.warn(`bench clean-up incomplete: ${failures.join('; ')}`);
}

async function removeTopics(brokers: string[], runIds: readonly string[]): Promise<void> {
  const admin = new Kafka({ clientId: 'bench-cleanup', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((t) => runIds.some((id) => t.includes(id)));
    if (topics.length > 0) await admin.deleteTopics({ topics });
  } finally {
    await admin.disconnect();
  }
}

async function removeIndices(url: string, prefixes: readonly string[]): Promise<void> {
  for (const prefix of prefixes) {
    const listed = await fetch(new URL(`/_cat/indices/${prefix}_*?format=json&h=index`, url));
    if (!listed.ok) throw new Error(`listing ${prefix}_* answered ${listed.status}`);
    const names = ((await listed.json()) as { index: string }[]).map((i) => i.index);
    // Named, not by wildcard: a node may refuse destructive wildcards (action.destructive_requires_name).
    for (let at = 0; at < names.length; at += 50) {
      const removed = await fetch(new URL(`/${names.slice(at, at + 50).join(',')}`, url), {
        method: 'DELETE',
      });
      if (!removed.ok) throw new Error(`deleting ${prefix}_* indices answered ${removed.status}`);
    }
  }
}

async function dropDatabase(uri: string): Promise<void> {
  const client = await new MongoClient(uri).connect();
  try {
    await client.db().dropDatabase();
  } finally {
    await client.close();
  }
}
