import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@catalog/testkit';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** How `pnpm start` runs the catalog: the environment its script sets, and the Node flags. */
export interface CatalogStartCommand {
  readonly env: Readonly<Record<string, string>>;
  readonly nodeFlags: readonly string[];
}

/**
 * Reads how `pnpm start` runs the catalog from a start script, so that a bench runs it as users do:
 * the `NAME=value` assignments before `node` (the allocator settings) and the flags between `node` and
 * the catalog's entry. An `exec` between the assignments and `node` (the shell hands its process to
 * node, so a signal to pnpm reaches the catalog) is part of the form.
 */
export function parseStartScript(script: string): CatalogStartCommand {
  const match =
    /(?:^|&&|;)\s*((?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*)(?:exec\s+)?node((?:\s+--\S+)*)\s+services\/catalog\/dist\/main\.js/.exec(
      script,
    );
  if (!match)
    throw new Error("the root package.json's start script does not run services/catalog/dist/main.js");
  const env: Record<string, string> = {};
  for (const assignment of match[1]!.trim().split(/\s+/)) {
    if (assignment === '') continue;
    const at = assignment.indexOf('=');
    env[assignment.slice(0, at)] = assignment.slice(at + 1);
  }
  const nodeFlags = match[2]!
    .trim()
    .split(/\s+/)
    .filter((flag) => flag !== '');
  return { env, nodeFlags };
}

/** How the root package.json's start script runs the catalog. */
export function catalogStartCommand(): CatalogStartCommand {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  return parseStartScript(pkg.scripts?.['start'] ?? '');
}

export interface CatalogProcess {
  readonly baseUrl: string;
  /** Stops the process (SIGTERM); removes its data directory unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /** Removes the data directory (after a stop that kept it). */
  cleanup(): Promise<void>;
}

/**
 * Starts a service in its own process (so the load generator does not share its event loop), on a fresh
 * data directory unless the env says otherwise: from source through tsx, or, with `built`, from the
 * compiled output as users run it (`main`'s `src/*.ts` read as `dist/*.js`; see buildCatalog).
 */
export async function startCatalogProcess(
  env: Record<string, string> = {},
  main = 'services/catalog/src/main.ts',
  options: { readonly built?: boolean } = {},
): Promise<CatalogProcess> {
  const port = await freePort();
  const start = catalogStartCommand();
  const dataDir = env['CATALOG_DATA_DIR'] ?? mkdtempSync(join(tmpdir(), 'catalog-bench-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...start.nodeFlags,
      ...(options.built
        ? [resolve(repoRoot, builtEntry(main))]
        : ['--conditions=source', '--import', 'tsx', resolve(repoRoot, main)]),
    ],
    {
      cwd: repoRoot,
      env: {
        ...embeddedEnv(),
        ...start.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        CATALOG_DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${main} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${main} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    stop: async (options = {}) => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** A service entry's compiled counterpart: `services/x/src/main.ts` → `services/x/dist/main.js`. */
export function builtEntry(main: string): string {
  return main.replace(/\/src\//, '/dist/').replace(/\.ts$/, '.js');
}

/** Compiles every package and service (`pnpm build`), for processes started with `built`. */
export function buildCatalog(): void {
  const result = spawnSync(
    process.execPath,
    [resolve(repoRoot, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'],
    {
      cwd: repoRoot,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error(`the build failed (tsc exited ${result.status})`);
}

/**
 * The parent's environment without the variables that select real services, so a child runs embedded
 * unless the caller passes them explicitly (CI exports them for the suites that want them).
 */
export function embeddedEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !['KAFKA_BOOTSTRAP_SERVER', 'MONGODB_URI', 'OPENSEARCH_URL'].includes(k))
      out[k] = v;
  }
  return out;
}
