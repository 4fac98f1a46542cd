/**
 * Where the real services for integration tests come from: an env URL first (CI and `pnpm infra:up` set
 * them), then a Testcontainers container when a Docker engine answers, else the suite skips and says why.
 * One function per service, each memoised, so every test file of a run shares one container.
 */

export type ServiceForTests<T> = T | { readonly skip: string };

/**
 * A suite's reason to skip, passed through; under `CI=true` a suite may not skip for lack of a service,
 * so the reason becomes an error that fails the file instead. A green CI must mean the suite ran.
 */
export function skipUnlessCi(reason: string | undefined): string | undefined {
  if (reason !== undefined && process.env['CI'] === 'true')
    throw new Error(`This suite cannot skip under CI=true: ${reason}`);
  return reason;
}

function failInCi<T extends object>(found: ServiceForTests<T>): ServiceForTests<T> {
  skipUnlessCi(isSkipped(found) ? found.skip : undefined);
  return found;
}

/** Narrows a service lookup: true when the suite must skip (the reason is in `skip`). */
export function isSkipped<T extends object>(found: ServiceForTests<T>): found is { readonly skip: string } {
  return 'skip' in found;
}

const KAFKA_IMAGE = 'confluentinc/cp-kafka:7.9.0';
const KAFKA_CONTAINER_PORT = 9093;

let kafka: Promise<ServiceForTests<{ readonly brokers: string[] }>> | undefined;

/** A Kafka broker: KAFKA_BOOTSTRAP_SERVER, else a Testcontainers broker (KRaft), else a skip reason. */
export function kafkaForTests(): Promise<ServiceForTests<{ readonly brokers: string[] }>> {
  kafka ??= findKafka().then(failInCi);
  return kafka;
}

async function findKafka(): Promise<ServiceForTests<{ readonly brokers: string[] }>> {
  const fromEnv = listFromEnv('KAFKA_BOOTSTRAP_SERVER');
  if (fromEnv.length > 0) return { brokers: fromEnv };
  const docker = await dockerEngine();
  if (docker !== true) {
    return {
      skip: `Kafka unavailable: KAFKA_BOOTSTRAP_SERVER is not set and ${docker} (run \`pnpm infra:up kafka\` and source /tmp/catalog-infra/env)`,
    };
  }
  const { KafkaContainer } = await import('@testcontainers/kafka');
  const container = await new KafkaContainer(KAFKA_IMAGE).withKraft().start();
  return { brokers: [`${container.getHost()}:${container.getMappedPort(KAFKA_CONTAINER_PORT)}`] };
}

const OPENSEARCH_IMAGE = 'opensearchproject/opensearch:2';
const OPENSEARCH_PORT = 9200;

let opensearch: Promise<ServiceForTests<{ readonly node: string }>> | undefined;

/** An OpenSearch 2.x node: OPENSEARCH_URL, else a Testcontainers node (security off), else a skip reason. */
export function opensearchForTests(): Promise<ServiceForTests<{ readonly node: string }>> {
  opensearch ??= findOpenSearch().then(failInCi);
  return opensearch;
}

async function findOpenSearch(): Promise<ServiceForTests<{ readonly node: string }>> {
  const fromEnv = (process.env['OPENSEARCH_URL'] ?? '').trim();
  if (fromEnv !== '') return { node: fromEnv };
  const docker = await dockerEngine();
  if (docker !== true) {
    return {
      skip: `OpenSearch unavailable: OPENSEARCH_URL is not set and ${docker} (run \`pnpm infra:up opensearch\` and source /tmp/catalog-infra/env)`,
    };
  }
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(OPENSEARCH_IMAGE)
    .withEnvironment({
      'discovery.type': 'single-node',
      DISABLE_SECURITY_PLUGIN: 'true',
      DISABLE_INSTALL_DEMO_CONFIG: 'true',
      OPENSEARCH_JAVA_OPTS: '-Xms512m -Xmx512m',
    })
    .withExposedPorts(OPENSEARCH_PORT)
    .withWaitStrategy(
      Wait.forHttp('/_cluster/health?wait_for_status=yellow', OPENSEARCH_PORT).forStatusCode(200),
    )
    .withStartupTimeout(180_000)
    .start();
  return { node: `http://${container.getHost()}:${container.getMappedPort(OPENSEARCH_PORT)}` };
}

const MONGO_IMAGE = 'mongo:7';

let mongo: Promise<ServiceForTests<{ readonly uri: string }>> | undefined;

/**
 * A MongoDB-wire server: MONGODB_URI (the local FerretDB of `pnpm infra:up mongo`, or any MongoDB),
 * else a Testcontainers `mongo:7` (a single-node replica set), else a skip reason. Test files use a
 * fresh database of their own on it and drop it afterwards.
 */
export function mongoForTests(): Promise<ServiceForTests<{ readonly uri: string }>> {
  mongo ??= findMongo().then(failInCi);
  return mongo;
}

async function findMongo(): Promise<ServiceForTests<{ readonly uri: string }>> {
  const fromEnv = (process.env['MONGODB_URI'] ?? '').trim();
  if (fromEnv !== '') return { uri: fromEnv };
  const docker = await dockerEngine();
  if (docker !== true) {
    return {
      skip: `MongoDB unavailable: MONGODB_URI is not set and ${docker} (run \`pnpm infra:up mongo\` and source /tmp/catalog-infra/env)`,
    };
  }
  const { MongoDBContainer } = await import('@testcontainers/mongodb');
  const container = await new MongoDBContainer(MONGO_IMAGE).start();
  // directConnection: the container's replica set advertises an address only valid inside Docker.
  const uri = container.getConnectionString();
  return { uri: uri.includes('?') ? `${uri}&directConnection=true` : `${uri}/?directConnection=true` };
}

/** true when a container runtime answers, else why not (for the skip message). */
export async function dockerEngine(): Promise<true | string> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch (error) {
    return `no Docker engine for Testcontainers (${firstLine(error)})`;
  }
}

function listFromEnv(name: string): string[] {
  return (process.env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
