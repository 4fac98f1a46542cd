import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { skipUnlessCi } from '@catalog/testkit';
import { freePort } from './child-catalog.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const scripts = join(repoRoot, 'infra/local');

export type InfraService = 'kafka' | 'opensearch' | 'mongo';
const ALL: readonly InfraService[] = ['kafka', 'opensearch', 'mongo'];

/**
 * Kafka, OpenSearch and FerretDB of one test file alone, started by infra/local/up.sh in a state
 * directory and on ports of their own, so a test may stop and restart them while the shared services
 * (`pnpm infra:up`) keep serving every other file. The installs come from the shared download cache.
 */
export interface PrivateInfra {
  /** KAFKA_BOOTSTRAP_SERVER, MONGODB_URI and OPENSEARCH_URL of the private services. */
  readonly urls: Readonly<Record<string, string>>;
  /** Stops one service (SIGTERM, as down.sh does), keeping its data for the next start. */
  stop(service: InfraService): Promise<void>;
  /** Starts one service again on its port and data, and waits until it answers. */
  start(service: InfraService): Promise<void>;
  /** Stops every service and removes the state directory. */
  destroy(): Promise<void>;
}

const cacheDir = process.env['CATALOG_INFRA_CACHE'] ?? join(homedir(), '.cache/catalog-infra');

/** What up.sh finds in the cache (lib.sh's versions), or the tool it would build it with. */
const INSTALLS: Record<InfraService, { readonly cached: string; readonly builder: string }> = {
  kafka: { cached: 'kafka-3.9.2/.complete', builder: 'mvn' },
  opensearch: { cached: 'opensearch-2.19.6/.complete', builder: 'mvn' },
  mongo: { cached: 'ferretdb-v1.24.2/.complete', builder: 'go' },
};

function onPath(command: string): boolean {
  return spawnSync('bash', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Why private services cannot start here, or undefined. Under CI=true a missing prerequisite fails
 * the file instead of skipping it.
 */
export function privateInfraSkip(services: readonly InfraService[] = ALL): string | undefined {
  const missing: string[] = [];
  for (const tool of ['bash', 'setsid', 'flock', 'curl']) if (!onPath(tool)) missing.push(tool);
  const java = process.env['JAVA_HOME'] ? existsSync(join(process.env['JAVA_HOME'], 'bin/java')) : false;
  if (!java && !onPath('java')) missing.push('java');
  for (const service of services) {
    const install = INSTALLS[service];
    if (!existsSync(join(cacheDir, install.cached)) && !onPath(install.builder))
      missing.push(`${service} (neither cached in ${cacheDir} nor ${install.builder} to build it)`);
  }
  return skipUnlessCi(
    missing.length === 0 ? undefined : `private services need ${missing.join(', ')} (see infra/local)`,
  );
}

function runScript(
  script: 'up.sh' | 'down.sh',
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn('bash', [join(scripts, script), ...args], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', fail);
    child.once('exit', (code) => {
      if (code === 0) done(output);
      else fail(new Error(`bash infra/local/${script} ${args.join(' ')} exited ${code}:\n${output}`));
    });
  });
}

/** Starts the services on free ports in a fresh state directory (all three at once, as up.sh does). */
export async function startPrivateInfra(services: readonly InfraService[] = ALL): Promise<PrivateInfra> {
  const state = join(tmpdir(), `catalog-faults-${randomBytes(4).toString('hex')}`);
  const ports = {
    KAFKA_PORT: String(await freePort()),
    KAFKA_CONTROLLER_PORT: String(await freePort()),
    OPENSEARCH_PORT: String(await freePort()),
    MONGO_PORT: String(await freePort()),
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...ports,
    CATALOG_INFRA_STATE: state,
    // One catalog's indices need far less than the shared node's heap, and a smaller heap starts faster.
    OPENSEARCH_HEAP_OPTS: process.env['PRIVATE_OPENSEARCH_HEAP_OPTS'] ?? '-Xms768m -Xmx768m',
  };
  const destroy = async (): Promise<void> => {
    try {
      await runScript('down.sh', [], env);
    } finally {
      rmSync(state, { recursive: true, force: true });
      rmSync(`${state}.lock`, { force: true });
    }
  };
  try {
    await runScript('up.sh', services, env);
  } catch (error) {
    await destroy().catch(() => undefined);
    throw error;
  }
  return {
    urls: {
      KAFKA_BOOTSTRAP_SERVER: `127.0.0.1:${ports.KAFKA_PORT}`,
      MONGODB_URI: `mongodb://127.0.0.1:${ports.MONGO_PORT}/catalog`,
      OPENSEARCH_URL: `http://127.0.0.1:${ports.OPENSEARCH_PORT}`,
    },
    stop: async (service) => {
      await runScript('down.sh', [service], { ...env, KEEP_DATA: '1' });
    },
    start: async (service) => {
      await runScript('up.sh', [service], env);
    },
    destroy,
  };
}
