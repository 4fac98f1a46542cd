import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitFor } from '@catalog/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { embeddedEnv } from './child-catalog.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

interface StartedScript {
  readonly pnpm: ChildProcess;
  readonly baseUrl: string;
  readonly output: () => string;
  /** Settles once pnpm has exited and every process holding its output (the catalog) has too. */
  readonly closed: Promise<void>;
}

/**
 * `pnpm start` as an operator runs it, in a process group of its own: the group stands for a
 * terminal's foreground group, and lets the test kill whatever the script left behind.
 */
async function startScript(dataDir: string): Promise<StartedScript> {
  const port = await freePort();
  const pnpm = spawn('pnpm', ['start'], {
    cwd: repoRoot,
    env: {
      ...embeddedEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      CATALOG_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  started.push(pnpm);
  let output = '';
  pnpm.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  pnpm.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const closed = new Promise<void>((done) => pnpm.once('close', () => done()));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (pnpm.exitCode !== null) throw new Error(`pnpm start exited early:\n${output}`);
      return (await fetch(`${baseUrl}/health`)).ok;
    },
    150_000,
    'pnpm start to answer /health',
    200,
  );
  return { pnpm, baseUrl, output: () => output, closed };
}

async function refusesConnections(baseUrl: string): Promise<boolean> {
  try {
    await fetch(`${baseUrl}/health`);
    return false;
  } catch {
    return true;
  }
}

const started: ChildProcess[] = [];
const dataDirs: string[] = [];

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-start-script-'));
  dataDirs.push(dir);
  return dir;
}

afterEach(() => {
  // A catalog the script failed to stop is still in the group: end it, so it frees its port.
  for (const pnpm of started.splice(0)) {
    try {
      process.kill(-pnpm.pid!, 'SIGKILL');
    } catch {
      // the group is gone: everything stopped
    }
  }
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('pnpm start and signals', () => {
  it('pnpm start stopped with SIGTERM shuts the catalog down and frees its port', async () => {
    const script = await startScript(dataDir());
    // A service manager or a container runtime signals pnpm alone.
    process.kill(script.pnpm.pid!, 'SIGTERM');
    await expect(
      Promise.race([
        script.closed.then(() => 'closed'),
        new Promise((r) => setTimeout(() => r('still running'), 20_000)),
      ]),
      script.output(),
    ).resolves.toBe('closed');
    expect(await refusesConnections(script.baseUrl)).toBe(true);
    expect(script.output()).toContain('"signal":"SIGTERM","msg":"shutting down"');
    expect(script.output()).not.toContain('second signal');
  }, 200_000);

  it('pnpm start stopped with Ctrl+C shuts the catalog down gracefully, not by a forced exit', async () => {
    const script = await startScript(dataDir());
    // A terminal's Ctrl+C: SIGINT to the whole foreground group, pnpm and the catalog alike.
    process.kill(-script.pnpm.pid!, 'SIGINT');
    await expect(
      Promise.race([
        script.closed.then(() => 'closed'),
        new Promise((r) => setTimeout(() => r('still running'), 20_000)),
      ]),
      script.output(),
    ).resolves.toBe('closed');
    expect(await refusesConnections(script.baseUrl)).toBe(true);
    expect(script.output()).toContain('"signal":"SIGINT","msg":"shutting down"');
    expect(script.output()).not.toContain('second signal');
  }, 200_000);
});
