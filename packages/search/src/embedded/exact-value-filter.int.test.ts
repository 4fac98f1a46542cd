import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { countsOf, datasetDoc, datasets, datasetSpec, uniqueNamespace } from '@catalog/testkit';
import type { Criterion, EntityDocument, Filter, SearchRequest } from '../port.js';
import { openEmbeddedSearch, type EmbeddedSearch } from './open-embedded-search.js';

/**
 * `*` searches with exact-value filters, answered in memory (exactFilterIds, UrnOrder), against a model
 * of the documents. Faceted fields (platform, tags) are in memory, owners is not; their values are
 * common enough (over a thousand documents) to be tested in memory and rare enough to be read as id
 * lists; and writes between searches leave documents out of the urn order built before them.
 */

let opened: EmbeddedSearch | undefined;
let dir: string | undefined;
afterEach(async () => {
  await opened?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  opened = undefined;
  dir = undefined;
});

let seed = 7;
const random = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

interface Model {
  readonly name: string;
  readonly urn: string;
  readonly platform: string;
  readonly tags: readonly string[];
  readonly owners: readonly string[];
  readonly removed: boolean;
}

const PLATFORMS = ['hive', 'hive', 'hive', 'kafka', 's3', 'mysql'];
const TAGS = ['pii', 'gold', 'rare'];

/** Document `name`, of a random platform unless given (the urn names the platform). */
function randomModel(
  ns: string,
  name: string,
  platform = random() < 0.02 ? 'oracle' : pick(PLATFORMS),
): Model {
  const tags = [random() < 0.6 ? 'pii' : undefined, random() < 0.2 ? 'gold' : undefined];
  if (random() < 0.01) tags.push('rare');
  const owners = random() < 0.5 ? [`user${Math.floor(random() * 5)}`] : [];
  return {
    name,
    urn: datasetDoc(ns, { name, platform }).urn,
    platform,
    tags: tags.filter((t) => t !== undefined),
    owners,
    removed: random() < 0.05,
  };
}

function documentOf(ns: string, m: Model): EntityDocument {
  return datasetDoc(ns, {
    name: m.name,
    platform: m.platform,
    tags: m.tags,
    owners: m.owners,
    removed: m.removed,
  });
}

function valuesOf(m: Model, field: string): string[] {
  if (field === 'platform') return [`urn:li:dataPlatform:${m.platform}`];
  if (field === 'tags') return m.tags.map((t) => `urn:li:tag:${t}`);
  return m.owners.map((o) => `urn:li:corpuser:${o}`);
}

function passes(m: Model, criterion: Criterion): boolean {
  const values = valuesOf(m, criterion.field);
  const hit =
    criterion.condition === 'EXISTS' ? values.length > 0 : values.some((v) => criterion.values.includes(v));
  return criterion.negated === true ? !hit : hit;
}

function equal(field: string, value: string): Criterion {
  return { field, condition: 'EQUAL', values: [value] };
}

function randomCriterion(): Criterion {
  const field = pick(['platform', 'platform', 'tags', 'tags', 'owners']);
  const value = (): string =>
    field === 'platform'
      ? `urn:li:dataPlatform:${pick([...PLATFORMS, 'oracle', 'absent'])}`
      : field === 'tags'
        ? `urn:li:tag:${pick([...TAGS, 'absent'])}`
        : `urn:li:corpuser:user${Math.floor(random() * 6)}`;
  const condition = pick(['EQUAL', 'EQUAL', 'IN', 'EXISTS'] as const);
  const values = condition === 'EXISTS' ? [] : condition === 'IN' ? [value(), value()] : [value()];
  return { field, condition, values, ...(random() < 0.2 ? { negated: true } : {}) };
}

function randomFilter(): Filter {
  const conjunctions = random() < 0.8 ? 1 : 2;
  return {
    or: Array.from({ length: conjunctions }, () => ({
      and: Array.from({ length: 1 + Math.floor(random() * 3) }, randomCriterion),
    })),
  };
}

/** The same filter with IEQUAL for EQUAL and IN: the same matches (the values are lower case), in SQL. */
function throughSql(filter: Filter): Filter {
  return {
    or: filter.or.map((c) => ({
      and: c.and.map((k) => (k.condition === 'EXISTS' ? k : { ...k, condition: 'IEQUAL' as const })),
    })),
  };
}

function expectedCounts(matching: readonly Model[], field: string): Record<string, number> {
  const counts = new Map<string, number>();
  for (const m of matching) for (const v of valuesOf(m, field)) counts.set(v, (counts.get(v) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 20));
}

async function checkAgainstModel(search: EmbeddedSearch['search'], models: readonly Model[]): Promise<void> {
  for (let q = 0; q < 40; q++) {
    const filter = randomFilter();
    const includeRemoved = random() < 0.2;
    const start = pick([0, 0, 3, 40]);
    const count = pick([1, 10, 25]);
    const request: SearchRequest = datasets({
      filter,
      start,
      count,
      facets: ['platform', 'tags'],
      ...(includeRemoved ? { includeRemoved } : {}),
    });
    const matching = models
      .filter((m) => includeRemoved || !m.removed)
      .filter((m) => filter.or.some((c) => c.and.every((k) => passes(m, k))))
      .sort((a, b) => (a.urn < b.urn ? -1 : 1));
    const response = await search.search(request);
    const context = JSON.stringify({ filter, includeRemoved, start, count });
    expect(response.total, context).toBe(matching.length);
    expect(
      response.hits.map((h) => h.urn),
      context,
    ).toEqual(matching.slice(start, start + count).map((m) => m.urn));
    expect(countsOf(response, 'platform'), context).toEqual(expectedCounts(matching, 'platform'));
    expect(countsOf(response, 'tags'), context).toEqual(expectedCounts(matching, 'tags'));
    // Sort keys and keyset paging read the match set from temp.search_hits: as the SQL filter does.
    const sorted = { ...request, sort: [{ field: 'name', order: 'DESCENDING' as const }] };
    const [inMemory, inSql] = await Promise.all([
      search.search(sorted),
      search.search({ ...sorted, filter: throughSql(filter) }),
    ]);
    expect(inMemory, context).toEqual(inSql);
  }
}

describe('filtered `*` searches answered in memory', () => {
  it('match, page and count as the model does, before and after writes', async () => {
    dir = mkdtempSync(join(tmpdir(), 'exact-filter-'));
    opened = await openEmbeddedSearch({ file: join(dir, 'search.sqlite') });
    const { search } = opened;
    await search.ensureIndex(datasetSpec);
    const ns = uniqueNamespace();
    const models = Array.from({ length: 2_500 }, (_, i) => randomModel(ns, `d${i}`));
    await search.upsert(models.map((m) => documentOf(ns, m)));
    expect(models.filter((m) => m.platform === 'hive').length).toBeGreaterThan(1_024);
    expect(models.filter((m) => m.tags.includes('pii')).length).toBeGreaterThan(1_024);
    // First, before any facet brought the fields into memory: every value is read as an id list.
    const common = await search.search(
      datasets({ filter: { or: [{ and: [equal('platform', 'urn:li:dataPlatform:hive')] }] } }),
    );
    expect(common.total).toBe(models.filter((m) => m.platform === 'hive' && !m.removed).length);
    await checkAgainstModel(search, models);

    // The newest document deleted, the next one written takes its id (SQLite's rowid): with a urn
    // that comes first, not where the deleted one's did.
    const newest = models.pop()!;
    await search.delete([{ entityType: 'dataset', urn: newest.urn }]);
    const first = { ...randomModel(ns, 'a', 'aaa'), tags: ['pii'], removed: false };
    models.push(first);
    await search.upsert([documentOf(ns, first)]);
    const pii = await search.search(
      datasets({ filter: { or: [{ and: [equal('tags', 'urn:li:tag:pii')] }] } }),
    );
    expect(pii.hits[0]?.urn).toBe(first.urn);
    await checkAgainstModel(search, models);

    // Rewrites, removals, restores, deletions and new documents after the urn order was built.
    const live = [...models];
    for (let k = 0; k < 300; k++) {
      const i = Math.floor(random() * live.length);
      if (random() < 0.2) {
        await search.delete([{ entityType: 'dataset', urn: live[i]!.urn }]);
        live.splice(i, 1);
      } else {
        const next = randomModel(ns, live[i]!.name, live[i]!.platform);
        live[i] = next;
        await search.upsert([documentOf(ns, next)]);
      }
    }
    for (let k = 0; k < 200; k++) {
      const next = randomModel(ns, `n${k}`);
      live.push(next);
      await search.upsert([documentOf(ns, next)]);
    }
    await checkAgainstModel(search, live);
  });
});
