/**
 * Disk under sustained writes: an embedded catalog with a short retention takes `--n` writes, and the
 * size of every file of its data directory is printed at intervals. With retention working, the disk
 * stays flat once the first retention window has passed (the warm-up), instead of growing with n.
 *   pnpm bench:soak [--n 1000000] [--c 4] [--batch 100] [--entities 10000] [--retention-ms 60000]
 *                   [--retention-bytes -1] [--check-ms 5000] [--max-request-rows 100000] [--every-s 15]
 * The writes upsert the same value into a fixed set of entities (`--entities`), so the aspect store
 * keeps one version per aspect and what could grow is what retention bounds: the proposal and outcome
 * topics, the request ids remembered for redelivery. A write that changes a value adds a version to
 * the store, which is the system of record and is never trimmed by retention.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { intArg, readArgs } from './lib/args.js';
import { startCatalogProcess } from './lib/catalog-process.js';
import { datasetUrn, propertiesProposal } from './lib/fixtures.js';
import { JsonClient } from './lib/load.js';

const args = readArgs({
  n: '1000000',
  c: '4',
  batch: '100',
  entities: '10000',
  'retention-ms': '60000',
  'retention-bytes': '-1',
  'check-ms': '5000',
  'max-request-rows': '100000',
  'every-s': '15',
});
const n = intArg(args.n, 'n');
const c = intArg(args.c, 'c');
const batchSize = intArg(args.batch, 'batch');
const entities = intArg(args.entities, 'entities');
const retentionMs = intArg(args['retention-ms'], 'retention-ms');
const everyMs = intArg(args['every-s'], 'every-s') * 1000;
const retentionBytes = Number(args['retention-bytes']);
if (!Number.isInteger(retentionBytes) || retentionBytes < -1)
  throw new Error('--retention-bytes must be -1 (none) or a byte count per partition');

const dataDir = mkdtempSync(join(tmpdir(), 'catalog-soak-'));
const catalog = await startCatalogProcess({
  CATALOG_DATA_DIR: dataDir,
  CATALOG_LOG_RETENTION_MS: String(retentionMs),
  CATALOG_LOG_RETENTION_BYTES: String(retentionBytes),
  CATALOG_LOG_TIMESERIES_RETENTION_MS: String(retentionMs),
  CATALOG_LOG_OUTCOME_RETENTION_MS: String(retentionMs),
  CATALOG_LOG_RETENTION_CHECK_INTERVAL_MS: args['check-ms'],
  CATALOG_REQUEST_RETENTION_MS: String(retentionMs),
  CATALOG_REQUEST_MAX_ROWS: args['max-request-rows'],
});
const client = new JsonClient(catalog.baseUrl, c);
const run = Date.now().toString(36);
const MB = 1024 * 1024;

/** Every file of the data directory (recursively) with its size in bytes. */
function dataFiles(dir: string, prefix = ''): Map<string, number> {
  const files = new Map<string, number>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) for (const [f, s] of dataFiles(path, `${prefix}${entry.name}/`)) files.set(f, s);
    else if (entry.isFile()) files.set(prefix + entry.name, statSync(path).size);
  }
  return files;
}

const samples: Record<string, string | number>[] = [];
const started = performance.now();
let written = 0;
let errors = 0;
function sample(phase: string): void {
  const files = dataFiles(dataDir);
  let total = 0;
  const row: Record<string, string | number> = {
    phase,
    s: Math.round((performance.now() - started) / 1000),
    writes: written,
  };
  for (const [file, size] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    total += size;
    // Shared-memory index files are a few pages at most: not worth a column.
    if (!file.endsWith('-shm')) row[file] = Number((size / MB).toFixed(1));
  }
  row['total MB'] = Number((total / MB).toFixed(1));
  samples.push(row);
  console.log(JSON.stringify(row));
}

const timer = setInterval(() => sample('writing'), everyMs);
try {
  sample('start');
  const batches = Math.ceil(n / batchSize);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < batches) {
      const b = next++;
      const size = Math.min(batchSize, n - b * batchSize);
      const proposals = Array.from({ length: size }, (_, j) => {
        // The same value for an entity every time it comes round: no new versions in the store.
        const entity = (b * batchSize + j) % entities;
        return propertiesProposal(datasetUrn(entity, run), entity);
      });
      try {
        await client.expectOk('POST', '/aspects?action=ingestProposalBatch', { proposals, async: 'false' });
        written += size;
      } catch (error) {
        errors++;
        if (errors <= 3) console.error(`batch ${b} failed: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: c }, worker));
  clearInterval(timer);
  const writeSeconds = (performance.now() - started) / 1000;
  sample('written');
  // One more retention window (and a pass after it): what the last writes left behind goes too.
  const settle = retentionMs + 2 * intArg(args['check-ms'], 'check-ms') + 5_000;
  for (let waited = 0; waited < settle; waited += everyMs) {
    await new Promise((r) => setTimeout(r, Math.min(everyMs, settle - waited)));
    sample('idle');
  }
  console.table(samples);
  console.log(
    `${written} writes (${errors} failed batches) in ${writeSeconds.toFixed(0)} s, ` +
      `${Math.round(written / writeSeconds)} writes/s; retention ${retentionMs} ms, ${retentionBytes} bytes`,
  );
} finally {
  clearInterval(timer);
  client.close();
  await catalog.stop({ keepData: true });
  rmSync(dataDir, { recursive: true, force: true });
}
