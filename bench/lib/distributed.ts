import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StoreWorkStats } from '@catalog/store';
import { freePort } from '@catalog/testkit';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Environment for a fresh, isolated distributed catalog on the local services (pnpm infra:up). */
export function distributedBenchEnv(partitions = 2): Record<string, string> {
  for (const v of ['KAFKA_BOOTSTRAP_SERVER', 'MONGODB_URI', 'OPENSEARCH_URL']) {
    if (!process.env[v])
      throw new Error(`${v} is not set (pnpm infra:up, then: set -a; . /tmp/catalog-infra/env; set +a)`);
  }
  const run = `bench${randomBytes(3).toString('hex')}`;
  const mongo = new URL(process.env['MONGODB_URI']!);
  mongo.pathname = `/catalog_${run}`;
  const topic = (name: string) => `${run}_${name}`;
  return {
    KAFKA_BOOTSTRAP_SERVER: process.env['KAFKA_BOOTSTRAP_SERVER']!,
    MONGODB_URI: mongo.toString(),
    OPENSEARCH_URL: process.env['OPENSEARCH_URL']!,
    INDEX_PREFIX: run,
    KAFKA_TOPIC_PARTITIONS: String(partitions),
    METADATA_CHANGE_PROPOSAL_TOPIC_NAME: topic('MetadataChangeProposal_v1'),
    FAILED_METADATA_CHANGE_PROPOSAL_TOPIC_NAME: topic('FailedMetadataChangeProposal_v1'),
    METADATA_CHANGE_LOG_VERSIONED_TOPIC_NAME: topic('MetadataChangeLog_Versioned_v1'),
    METADATA_CHANGE_LOG_TIMESERIES_TOPIC_NAME: topic('MetadataChangeLog_Timeseries_v1'),
    METADATA_CHANGE_PROPOSAL_OUTCOME_TOPIC_NAME: topic('MetadataChangeProposalOutcome_v1'),
    CATALOG_SCHEMAS_TOPIC_NAME: topic('CatalogSchemas_v1'),
    LOG_LEVEL: 'warn',
  };
}

function run(main: string, env: Record<string, string>): ChildProcess {
  const profile = process.env['BENCH_CPU_PROF_DIR'];
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  return spawn(
    process.execPath,
    [...flags, '--conditions=source', '--import', 'tsx', resolve(repoRoot, main)],
    {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
}

export interface DistributedCatalog {
  readonly baseUrl: string;
  /** Persistence's `/stats`: the aspect store's work since it started (batches, rounds, commands). */
  persistenceStats(): Promise<StoreWorkStats>;
  stop(): Promise<void>;
}

/** system-update, then gateway, persistence, indexer and audit consumer as separate processes, as deployed. */
export async function startDistributedCatalog(env: Record<string, string>): Promise<DistributedCatalog> {
  const setup = run('services/system-update/src/main.ts', env);
  const code = await new Promise((r) => setup.once('exit', r));
  if (code !== 0) throw new Error(`system-update exited with ${String(code)}`);
  const port = await freePort();
  const persistenceHealth = await freePort();
  const children = [
    run('services/gateway/src/main.ts', { ...env, PORT: String(port), HOST: '127.0.0.1' }),
    // One host: the consumers' health servers would share the default port, so only persistence's is on
    // (on a port of its own), for its /stats.
    run('services/persistence/src/main.ts', { ...env, HEALTH_PORT: String(persistenceHealth) }),
    run('services/indexer/src/main.ts', { HEALTH_PORT: '0', ...env }),
    run('services/audit/src/main.ts', { HEALTH_PORT: '0', ...env }),
  ];
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('the gateway did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    persistenceStats: async () => {
      const res = await fetch(`http://127.0.0.1:${persistenceHealth}/stats`);
      if (!res.ok) throw new Error(`persistence /stats answered ${res.status}`);
      const body = (await res.json()) as { store: StoreWorkStats | null };
      if (body.store === null) throw new Error('persistence reports no store work (not a MongoDB store?)');
      return body.store;
    },
    stop: async () => {
      await Promise.all(
        children.map((c) => {
          const exited = new Promise((r) => c.once('exit', r));
          c.kill('SIGTERM');
          return exited;
        }),
      );
    },
  };
}

/**
 * The store's work between two snapshots, per applied batch: writes, rounds, and for each command its
 * count, milliseconds and documents (what a profile of the write protocol needs to see).
 */
export function storeWorkPerBatch(
  scenario: string,
  before: StoreWorkStats,
  after: StoreWorkStats,
): Record<string, string | number> {
  const batches = after.batches - before.batches;
  const per = (value: number) => (batches === 0 ? 0 : Number((value / batches).toFixed(2)));
  const row: Record<string, string | number> = {
    scenario,
    batches,
    'writes/batch': per(after.writes - before.writes),
    'rounds/batch': per(after.rounds - before.rounds),
  };
  let commands = 0;
  let ms = 0;
  for (const [name, total] of Object.entries(after.commands)) {
    const was = before.commands[name] ?? { count: 0, ms: 0, documents: 0, failed: 0 };
    const count = total.count - was.count;
    if (count === 0) continue;
    commands += count;
    ms += total.ms - was.ms;
    row[name] = `${per(count)} × ${per(total.documents - was.documents)} docs, ${per(total.ms - was.ms)} ms`;
  }
  row['commands/batch'] = per(commands);
  row['store ms/batch'] = per(ms);
  return row;
}
