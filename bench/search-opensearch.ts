import { entityRegistry } from '@catalog/model';
import { randomBytes } from 'node:crypto';
import { indexSpecFor, type EntityDocument } from '@catalog/search';
import { openOpenSearch } from '@catalog/search/opensearch';
import {
  datasetDocument as documentOf,
  domainWord,
  measure as measureRuns,
  DBS,
  pick,
  PLATFORMS,
  TAGS,
  WORDS,
} from './lib/search-workload.js';

/**
 * OpenSearch search at scale, the same workload as search-embedded.ts: bulk upsert of N realistic
 * dataset documents (built from aspects by buildEntityDocument), then latency of full-text, filtered,
 * aggregated searches, browse and autocomplete. Uses a fresh index prefix and drops it afterwards.
 * Run: OPENSEARCH_URL=http://127.0.0.1:9200 pnpm exec tsx --conditions=source bench/search-opensearch.ts [N=100000] [writers=1]
 */
const total = Number(process.argv[2] ?? 100_000);
const writers = Number(process.argv[3] ?? 1);
const BATCH = 1_000;
const RUNS = 300;
const dataset = entityRegistry.requireEntity('dataset');
const datasetDocument = (i: number): EntityDocument => documentOf(i, domainWord);
const measure = (label: string, run: () => Promise<unknown>): Promise<void> => measureRuns(label, run, RUNS);
const node = process.env['OPENSEARCH_URL'] ?? 'http://127.0.0.1:9200';

const prefix = `bench_${randomBytes(4).toString('hex')}`;
const { search, close } = await openOpenSearch({ node, indexPrefix: prefix, replicas: 0 });
try {
  await search.ensureIndex(indexSpecFor(dataset));
  const batches: EntityDocument[][] = [];
  const builtAt = performance.now();
  for (let start = 0; start < total; start += BATCH) {
    batches.push(
      Array.from({ length: Math.min(BATCH, total - start) }, (_, k) => datasetDocument(start + k)),
    );
  }
  const buildMs = performance.now() - builtAt;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < batches.length) {
        const batch = batches[next++];
        if (batch !== undefined) await search.upsert(batch);
      }
    }),
  );
  const writeMs = performance.now() - started;
  const t0 = performance.now();
  await search.refresh();
  const refreshMs = performance.now() - t0;
  console.log(
    `documents                          ${total} (${writers} concurrent writer(s), ${BATCH} per bulk)`,
  );
  console.log(`bulk upsert (write only)           ${Math.round(total / (writeMs / 1000))} docs/s`);
  console.log(
    `bulk upsert (build + write)        ${Math.round(total / ((writeMs + buildMs) / 1000))} docs/s`,
  );
  console.log(`refresh after load                 ${refreshMs.toFixed(0)} ms`);
  const stats = await fetch(`${node}/${prefix}_datasetindex_v2/_stats/store,docs`).then(
    (r) => r.json() as Promise<{ _all: { primaries: { store: { size_in_bytes: number } } } }>,
  );
  console.log(
    `index size (primaries)             ${(stats._all.primaries.store.size_in_bytes / 1e6).toFixed(0)} MB`,
  );

  const base = { entityTypes: ['dataset'], start: 0, count: 10 } as const;
  const facets = ['platform', 'origin', 'tags', 'owners'];
  await measure('full text, 1 word', () => search.search({ ...base, input: pick(WORDS) }));
  await measure('full text, 2 words', () =>
    search.search({ ...base, input: `${pick(WORDS)} ${pick(WORDS)}` }),
  );
  await measure('full text, prefix', () => search.search({ ...base, input: pick(WORDS).slice(0, 4) }));
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
  await measure('aggregated (*, 4 facets)', () => search.search({ ...base, input: '*', facets }));
  await measure('text + filter + 4 facets', () =>
    search.search({
      ...base,
      input: pick(WORDS),
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
    search.autocomplete({ entityType: 'dataset', query: pick(WORDS).slice(0, 3), limit: 10 }),
  );
} finally {
  await fetch(`${node}/${prefix}_*`, { method: 'DELETE' });
  await close();
}
