import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

export { freePort } from '@catalog/testkit';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ChildService {
  readonly process: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

/** Runs a service's main.ts from source in a child process, as its own deployable would run. */
export function spawnService(mainPath: string, env: Record<string, string>): ChildService {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', resolve(repoRoot, mainPath)],
    {
      cwd: repoRoot,
      // Consumers on one host would all take the default health port: off unless the test picks one.
      env: { ...embeddedEnv(), LOG_LEVEL: 'warn', HEALTH_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { process: child, output: () => output, exited };
}

export async function waitForHealth(baseUrl: string, child: ChildService, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) throw new Error(`service exited early:\n${child.output()}`);
    try {
      const res = await fetch(`${baseUrl}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`service not healthy in ${timeoutMs} ms:\n${child.output()}`);
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
