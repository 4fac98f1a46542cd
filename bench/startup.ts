/**
 * Time from `pnpm start` to the first accepted synchronous write, as a new user meets it:
 *   pnpm bench:startup [--runs 3]
 * Each run starts `pnpm start` on a fresh data directory and a free port, polls an ingestProposal
 * until it is answered 200, and stops the catalog. The first run after a change includes the
 * incremental build of what changed; later runs rebuild nothing.
 */
import { SYSTEM_CLIENT_AUTHORIZATION } from './lib/load.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { intArg, readArgs } from './lib/args.js';
import { datasetUrn, propertiesProposal } from './lib/fixtures.js';
import { freePort } from '@catalog/testkit';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = readArgs({ runs: '3' });
const runs = intArg(args.runs, 'runs');

async function firstWrite(baseUrl: string, deadline: number): Promise<void> {
  const body = JSON.stringify({ proposal: propertiesProposal(datasetUrn(0, 'startup'), 0), async: 'false' });
  for (;;) {
    if (Date.now() > deadline) throw new Error('no write was accepted within 120 s');
    try {
      const res = await fetch(`${baseUrl}/aspects?action=ingestProposal`, {
        method: 'POST',
        headers: {
          Authorization: SYSTEM_CLIENT_AUTHORIZATION,
          'Content-Type': 'application/json',
          'X-RestLi-Protocol-Version': '2.0.0',
        },
        body,
      });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

const rows: Record<string, string | number>[] = [];
for (let run = 1; run <= runs; run++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'catalog-startup-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn('pnpm', ['-s', 'start'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CATALOG_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  try {
    await firstWrite(`http://127.0.0.1:${port}`, Date.now() + 120_000);
    rows.push({ run, 'first accepted write, ms': Math.round(performance.now() - started) });
  } finally {
    // pnpm runs the build and node under a shell: stop the whole group.
    process.kill(-child.pid!, 'SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
console.table(rows);
