import { entityRegistry } from '@catalog/model';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexSpecFor, openEmbeddedSearch, type EntityDocument } from '@catalog/search';
import {
  datasetDocument as documentOf,
  measure as measureRuns,
  DBS,
  pick,
  PLATFORMS,
  TAGS,
  VOCAB,
  WORDS,
  zipf,
} from './lib/search-workload.js';

/**
 * Embedded search at scale: bulk upsert of N realistic dataset documents (built from aspects by
 * buildEntityDocument), then latency of full-text, filtered, aggregated searches, browse and autocomplete.
 * Run: pnpm exec tsx --conditions=source bench/search-embedded.ts [N=100000]
 */
const total = Number(process.argv[2] ?? 100_000);
const BATCH = 1_000;
const RUNS = 300;
const dataset = entityRegistry.requireEntity('dataset');
const datasetDocument = (i: number): EntityDocument => documentOf(i, zipf);
const measure = (label: string, run: () => Promise<unknown>): Promise<void> => measureRuns(label, run, RUNS);

const dir = mkdtempSync(join(tmpdir(), 'bench-search-'));
const file = join(dir, 'search.sqlite');
const { search, close } = await openEmbeddedSearch({ file });
try {
  await search.ensureIndex(indexSpecFor(dataset));
  let built = 0;
  let writeMs = 0;
  const started = performance.now();
  for (let start = 0; start < total; start += BATCH) {
    const docs = Array.from({ length: Math.min(BATCH, total - start) }, (_, k) => datasetDocument(start + k));
    built += docs.length;
    const t0 = performance.now();
    await search.upsert(docs);
    writeMs += performance.now() - t0;
  }
  const elapsed = performance.now() - started;
  console.log(`documents                          ${built}`);
  console.log(`bulk upsert (write only)           ${Math.round(built / (writeMs / 1000))} docs/s`);
  console.log(`bulk upsert (build + write)        ${Math.round(built / (elapsed / 1000))} docs/s`);
  console.log(`file size                          ${(statSync(file).size / 1e6).toFixed(0)} MB (+WAL)`);

  const base = { entityTypes: ['dataset'], start: 0, count: 10 } as const;
  const facets = ['platform', 'origin', 'tags', 'owners'];
  await measure('full text, 1 word', () => search.search({ ...base, input: pick(VOCAB) }));
  await measure('full text, 2 words', () =>
    search.search({ ...base, input: `${pick(VOCAB)} ${pick(VOCAB)}` }),
  );
  await measure('full text, prefix', () => search.search({ ...base, input: pick(VOCAB).slice(0, 4) }));
  await measure('full text, common word (worst)', () => search.search({ ...base, input: pick(WORDS) }));
  await measure('filtered (*, platform + tag)', () =>
    search.search({
      ...base,
      input: '*',
      filter: {
        or: [
          {
            and: [
              { field: 'platform', values: [`urn:li:dataPlatform:${pick(PLATFORMS)}`], condition: 'EQUAL' },
              { field: 'tags', values: [pick(TAGS)], condition: 'EQUAL' },
            ],
          },
        ],
      },
    }),
  );
  await measure('aggregated (*, 4 facets, cached)', () => search.search({ ...base, input: '*', facets }));
  let extra = total;
  await measure('aggregated, after a 1-doc write', async () => {
    await search.upsert([datasetDocument(extra++)]);
    return search.search({ ...base, input: '*', facets });
  });
  await measure('text + filter + 4 facets', () =>
    search.search({
      ...base,
      input: pick(VOCAB),
      facets,
      filter: { or: [{ and: [{ field: 'origin', values: ['PROD'], condition: 'EQUAL' }] }] },
    }),
  );
  await measure('browse /prod/<platform>', () =>
    search.browse({ entityType: 'dataset', path: `/prod/${pick(PLATFORMS)}`, start: 0, limit: 10 }),
  );
  await measure('browse /prod/<platform>/<db>', () =>
    search.browse({
      entityType: 'dataset',
      path: `/prod/${pick(PLATFORMS)}/${pick(DBS)}`,
      start: 0,
      limit: 10,
    }),
  );
  await measure('browse root', () =>
    search.browse({ entityType: 'dataset', path: '/', start: 0, limit: 10 }),
  );
  await measure('autocomplete (3-letter prefix)', () =>
    search.autocomplete({ entityType: 'dataset', query: pick(VOCAB).slice(0, 3), limit: 10 }),
  );
} finally {
  await close();
  if (process.env['KEEP'] === undefined) rmSync(dir, { recursive: true, force: true });
  else console.log(file);
}
