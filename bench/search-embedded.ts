import { entityRegistry } from '@catalog/model';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildEntityDocument, indexSpecFor, openEmbeddedSearch, type EntityDocument } from '@catalog/search';
import { intArg, readArgs } from './lib/args.js';
import {
  BENCH_PLATFORMS,
  BENCH_TAGS,
  COMMONEST_FIELD_WORD,
  datasetProposals,
  SEARCH_WORDS,
} from './lib/dataset-aspects.js';
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
 *   pnpm exec tsx --conditions=source bench/search-embedded.ts [--n 100000] [--docs adapter|service]
 *     [--file path] [--runs 300]
 * `--docs service` builds the documents bench:search ingests through the whole service
 * (dataset-aspects.ts) instead of this workload's (search-workload.ts), and its words are the text
 * queries, so the "service" classes are bench:search's queries over its value distribution.
 * `--file` keeps the search file at that path and, when it already exists, measures it without building
 * (whatever it holds: build it with the same --n and --docs).
 */
const args = readArgs({ n: '100000', docs: 'adapter', file: '', runs: '300' });
const total = intArg(args.n, 'n');
if (args.docs !== 'adapter' && args.docs !== 'service')
  throw new Error(`--docs must be adapter or service, got ${args.docs}`);
const service = args.docs === 'service';
const BATCH = 1_000;
const RUNS = intArg(args.runs, 'runs');
const dataset = entityRegistry.requireEntity('dataset');
const datasetDocument = (i: number): EntityDocument => (service ? serviceDocument(i) : documentOf(i, zipf));
const measure = (label: string, run: () => Promise<unknown>): Promise<void> => measureRuns(label, run, RUNS);
const word = (): string => (service ? pick(SEARCH_WORDS) : pick(VOCAB));
const commonWord = (): string => (service ? COMMONEST_FIELD_WORD : pick(WORDS));
const SERVICE_DBS = Array.from({ length: 40 }, (_, k) => `bench_db${k}`);
const db = (): string => pick(service ? SERVICE_DBS : DBS);

/** Dataset `i` as bench:search ingests it: its proposals' aspects, built into a document. */
function serviceDocument(i: number): EntityDocument {
  const proposals = datasetProposals(i, 'bench');
  const aspects = new Map(
    proposals.map((p) => [
      p['aspectName'] as string,
      JSON.parse((p['aspect'] as { value: string }).value) as Record<string, unknown>,
    ]),
  );
  return buildEntityDocument(dataset, proposals[0]!['entityUrn'] as string, aspects);
}

const dir = args.file === '' ? mkdtempSync(join(tmpdir(), 'bench-search-')) : undefined;
const file = dir === undefined ? args.file : join(dir, 'search.sqlite');
const reuse = dir === undefined && existsSync(file);
const { search, close } = await openEmbeddedSearch({ file });
try {
  await search.ensureIndex(indexSpecFor(dataset));
  if (reuse) console.log(`reusing ${file} (${(statSync(file).size / 1e6).toFixed(0)} MB)`);
  else {
    let built = 0;
    let writeMs = 0;
    const started = performance.now();
    for (let start = 0; start < total; start += BATCH) {
      const docs = Array.from({ length: Math.min(BATCH, total - start) }, (_, k) =>
        datasetDocument(start + k),
      );
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
  }

  const base = { entityTypes: ['dataset'], start: 0, count: 10 } as const;
  const facets = ['platform', 'origin', 'tags', 'owners'];
  // bench:search's filtered query: one of its platforms and one of its tags in turn, with the facets
  // the gateway asks for a dataset search (restli/search-actions.ts defaultFacets).
  const gatewayFacets = ['platform', 'typeNames', 'domains', 'container', 'owners', 'tags', 'glossaryTerms'];
  let nth = 0;
  const serviceFiltered = () => {
    const i = nth++;
    return search.search({
      ...base,
      input: '*',
      facets: gatewayFacets,
      filter: {
        or: [
          {
            and: [
              {
                field: 'platform',
                values: [`urn:li:dataPlatform:${BENCH_PLATFORMS[i % BENCH_PLATFORMS.length]}`],
                condition: 'EQUAL',
              },
              {
                field: 'tags',
                values: [`urn:li:tag:${BENCH_TAGS[i % BENCH_TAGS.length]}`],
                condition: 'EQUAL',
              },
            ],
          },
        ],
      },
    });
  };
  // The first search of a process builds the in-memory facet index: bench:search measures it (no
  // warm-up), so it is reported apart.
  const t0 = performance.now();
  await serviceFiltered();
  console.log(`${'service filtered, first query'.padEnd(34)} ${(performance.now() - t0).toFixed(2)} ms`);
  await measure('service filtered (+ 7 facets)', serviceFiltered);
  await measure('full text, 1 word', () => search.search({ ...base, input: word() }));
  await measure('full text, 2 words', () => search.search({ ...base, input: `${word()} ${word()}` }));
  await measure('full text, prefix', () => search.search({ ...base, input: word().slice(0, 4) }));
  await measure('full text, common word (worst)', () => search.search({ ...base, input: commonWord() }));
  await measure('full text, 1 word + 7 facets', () =>
    search.search({ ...base, input: word(), facets: gatewayFacets }),
  );
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
      input: word(),
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
      path: `/prod/${pick(PLATFORMS)}/${db()}`,
      start: 0,
      limit: 10,
    }),
  );
  await measure('browse root', () =>
    search.browse({ entityType: 'dataset', path: '/', start: 0, limit: 10 }),
  );
  await measure('autocomplete (3-letter prefix)', () =>
    search.autocomplete({ entityType: 'dataset', query: word().slice(0, 3), limit: 10 }),
  );
} finally {
  await close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}
