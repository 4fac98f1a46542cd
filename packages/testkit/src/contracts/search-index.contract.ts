import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EntityDocument, SearchIndex } from '@catalog/search';
import { searchBrowseCases } from './search-index-browse.cases.js';
import { searchFacetCases } from './search-index-facets.cases.js';
import { searchFilterCases } from './search-index-filter.cases.js';
import { searchLimitCases } from './search-index-limits.cases.js';
import { searchScrollCases } from './search-index-scroll.cases.js';
import { searchSliceCases } from './search-index-slice.cases.js';
import { searchStructuredPropertyCases } from './search-index-structured-properties.cases.js';
import { searchStructuredPropertyCleanupCases } from './search-index-structured-property-cleanup.cases.js';
import {
  chartDoc,
  countsOf,
  datasetDoc,
  datasets,
  datasetSpec,
  seed,
  sortedUrns,
  uniqueNamespace,
  urnsOf,
  type SearchIndexUnderTest,
} from './search-index-fixtures.js';

/** The index a test is running against; a fresh one per test, from the adapter's factory. */
export type CurrentSearchIndex = () => SearchIndex;

/**
 * The behaviour every SearchIndex adapter must show. Each test gets a fresh, empty index set from
 * `factory` (its own file, or its own index prefix) and also uses its own URNs. Reads follow `refresh()`.
 *
 * Semantics pinned here (see also the cases files):
 * - full text: the input is split into lower-case words (letters and digits; `.`, `_`, `-`, `/`, `:`
 *   and spaces separate); every word must match, as a word or a word prefix, some field with a boost;
 *   case is ignored; a higher-boost field match ranks higher (name 10 over description 1); URN values
 *   are searchable by their id words (`pii` finds `urn:li:tag:pii`).
 * - `*` or empty input matches everything; `field:value` matches documents whose field has that value,
 *   ignoring case (but `urn:<urn>` with its case: the urn is a keyword, as in the ecosystem); an input
 *   starting with `urn:li:` matches that URN exactly, case included.
 * - hits are ordered by score descending, then urn ascending; `total` counts the whole match set.
 * - documents with `removed = true` are left out unless `includeRemoved`, or unless the filter itself
 *   has a criterion on `removed`.
 * - bad requests reject with the model's ValidationError (`code: 'VALIDATION'`).
 */
export function searchIndexContract(name: string, factory: () => Promise<SearchIndexUnderTest>): void {
  describe(`SearchIndex contract: ${name}`, () => {
    let underTest: SearchIndexUnderTest | undefined;
    const index: CurrentSearchIndex = () => {
      if (underTest === undefined) throw new Error('search index not opened');
      return underTest.index;
    };
    beforeEach(async () => {
      underTest = await factory();
    });
    afterEach(async () => {
      await underTest?.cleanup();
      underTest = undefined;
    });

    it('answers ping', async () => {
      await expect(index().ping()).resolves.toBeUndefined();
    });

    searchDocumentCases(index);
    searchFullTextCases(index);
    searchFilterCases(index);
    searchLimitCases(index);
    searchFacetCases(index);
    searchBrowseCases(index);
    searchScrollCases(index);
    searchSliceCases(index);
    searchStructuredPropertyCases(index);
    searchStructuredPropertyCleanupCases(index);
  });
}

function searchDocumentCases(index: CurrentSearchIndex): void {
  describe('documents', () => {
    it('creates indices idempotently, keeping documents when ensureIndex runs again', async () => {
      const ns = uniqueNamespace();
      const doc = datasetDoc(ns, { name: 'orders' });
      await seed(index(), [doc]);
      await index().ensureIndex(datasetSpec);
      await index().ensureIndex(datasetSpec);
      await index().refresh();
      expect(await index().getDocument('dataset', doc.urn)).toEqual(doc);
      expect(urnsOf(await index().search(datasets()))).toEqual([doc.urn]);
    });

    it('filters and facets a free-text filter field by exact value, also after a spec first marks it filterable', async () => {
      const ns = uniqueNamespace();
      const prod = datasetDoc(ns, { name: 'orders' });
      const dev = datasetDoc(ns, { name: 'orders', origin: 'DEV' });
      // An index made before `origin` was marked filterable (an older release's spec), with documents.
      const older = {
        ...datasetSpec,
        fields: datasetSpec.fields.map(({ filterable: _filterable, ...field }) => field),
      };
      await index().ensureIndex(older);
      await index().upsert([prod, dev]);
      await index().ensureIndex(datasetSpec);
      await index().refresh();
      const request = datasets({
        input: ns,
        facets: ['origin'],
        filter: { or: [{ and: [{ field: 'origin', values: ['DEV'], condition: 'EQUAL' }] }] },
      });
      const found = await index().search(request);
      expect(urnsOf(found)).toEqual([dev.urn]);
      expect(countsOf(found, 'origin')).toEqual({ DEV: 1 });
      const all = await index().search(datasets({ input: ns, facets: ['origin'] }));
      expect(countsOf(all, 'origin')).toEqual({ DEV: 1, PROD: 1 });
    });

    it('searches the urn words of documents indexed before a spec made the urn a full-text field', async () => {
      const ns = uniqueNamespace();
      const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,${ns}.pipeline-run-7301,PROD)`;
      const onlyUrn: EntityDocument = {
        urn,
        entityType: 'dataset',
        fields: { urn, _entityType: 'dataset', removed: false },
      };
      // An index made with an older release's spec (its urn a plain keyword), with the document.
      const older = {
        ...datasetSpec,
        fields: datasetSpec.fields.map((f) =>
          f.name === 'urn' ? { name: 'urn', type: 'KEYWORD' as const } : f,
        ),
      };
      await index().ensureIndex(older);
      await index().upsert([onlyUrn]);
      await index().refresh();
      expect((await index().search(datasets({ input: 'run-7301' }))).total).toBe(0);
      await index().ensureIndex(datasetSpec);
      await index().refresh();
      expect(urnsOf(await index().search(datasets({ input: 'run-7301' })))).toEqual([urn]);
      expect(await index().getDocument('dataset', urn)).toEqual(onlyUrn);
    });

    it('drops the documents with the index: a recreated index starts empty and fills again', async () => {
      const ns = uniqueNamespace();
      const doc = datasetDoc(ns, { name: 'orders', tags: ['pii'] });
      await seed(index(), [doc]);
      await index().deleteIndex('dataset');
      await index().ensureIndex(datasetSpec);
      await index().refresh();
      expect(await index().getDocument('dataset', doc.urn)).toBeNull();
      expect((await index().search(datasets())).total).toBe(0);
      await index().upsert([doc]);
      await index().refresh();
      const tagged = await index().search(
        datasets({
          facets: ['tags'],
          filter: { or: [{ and: [{ field: 'tags', values: ['urn:li:tag:pii'], condition: 'EQUAL' }] }] },
        }),
      );
      expect(urnsOf(tagged)).toEqual([doc.urn]);
      expect(countsOf(tagged, 'tags')).toEqual({ 'urn:li:tag:pii': 1 });
    });

    it('returns null for a document never written, and for one deleted', async () => {
      const ns = uniqueNamespace();
      const doc = datasetDoc(ns, { name: 'orders' });
      await seed(index(), [doc]);
      expect(await index().getDocument('dataset', datasetDoc(ns, { name: 'other' }).urn)).toBeNull();
      await index().delete([{ entityType: 'dataset', urn: doc.urn }]);
      await index().delete([{ entityType: 'dataset', urn: doc.urn }]);
      await index().refresh();
      expect(await index().getDocument('dataset', doc.urn)).toBeNull();
      expect((await index().search(datasets())).total).toBe(0);
      expect((await index().search(datasets({ input: 'orders' }))).total).toBe(0);
    });

    it('replaces whole documents on upsert and is idempotent', async () => {
      const ns = uniqueNamespace();
      const first = datasetDoc(ns, { name: 'orders', description: 'legacy warehouse', tags: ['pii'] });
      const second = datasetDoc(ns, { name: 'orders', owners: ['jdoe'] });
      expect(second.urn).toBe(first.urn);
      await seed(index(), [first]);
      await index().upsert([second]);
      await index().upsert([second]);
      await index().refresh();
      expect(await index().getDocument('dataset', first.urn)).toEqual(second);
      expect((await index().search(datasets({ input: 'warehouse' }))).total).toBe(0);
      const tagged = await index().search(
        datasets({
          filter: { or: [{ and: [{ field: 'tags', values: ['urn:li:tag:pii'], condition: 'EQUAL' }] }] },
        }),
      );
      expect(tagged.total).toBe(0);
      expect((await index().search(datasets())).total).toBe(1);
    });

    it('pages by urn after a cursor, across entity types: every match once, in urn order', async () => {
      const ns = uniqueNamespace();
      const docs = [
        ...['e', 'a', 'd', 'b', 'c'].map((k) => datasetDoc(ns, { key: k, name: `scroll ${ns} ${k}` })),
        chartDoc(ns, 'c1', { title: `scroll ${ns} chart` }),
        datasetDoc(ns, { key: 'gone', name: `scroll ${ns} gone`, removed: true }),
      ];
      await seed(index(), docs);
      const expected = docs
        .filter((d) => d.fields['removed'] !== true)
        .map((d) => d.urn)
        .sort();
      const seen: string[] = [];
      let after = '';
      for (let page = 0; page < 10; page++) {
        const res = await index().search({
          entityTypes: ['dataset', 'chart'],
          input: ns,
          start: 0,
          count: 2,
          searchAfter: after,
        });
        expect(res.total).toBe(expected.length);
        if (res.hits.length === 0) break;
        seen.push(...res.hits.map((h) => h.urn));
        after = res.hits[res.hits.length - 1]!.urn;
      }
      expect(seen).toEqual(expected);
      await expect(
        index().search({
          entityTypes: ['dataset'],
          input: '*',
          start: 2,
          count: 2,
          searchAfter: expected[0]!,
        }),
      ).rejects.toMatchObject({ code: 'VALIDATION' });
    });

    it('upserts and deletes in bulk, across entity types', async () => {
      const ns = uniqueNamespace();
      const docs = Array.from({ length: 50 }, (_, i) => datasetDoc(ns, { name: `table${i}` }));
      const chart = chartDoc(ns, 'c1', { title: 'Revenue' });
      await seed(index(), [...docs, chart]);
      expect((await index().search(datasets({ count: 0 }))).total).toBe(50);
      await index().delete(
        [...docs.slice(0, 10), chart].map((d) => ({ entityType: d.entityType, urn: d.urn })),
      );
      await index().refresh();
      expect((await index().search(datasets({ count: 0 }))).total).toBe(40);
      expect(await index().getDocument('chart', chart.urn)).toBeNull();
    });
  });
}

function searchFullTextCases(index: CurrentSearchIndex): void {
  describe('full text', () => {
    it('ranks a name match above a description match', async () => {
      const ns = uniqueNamespace();
      // The name match sits in the longer document, so only the boost (name 10, description 1) ranks it first.
      const byName = datasetDoc(ns, { key: 'b', name: 'shipments of the week from the main warehouse' });
      const byDescription = datasetDoc(ns, { key: 'a', name: 'inventory', description: 'shipments' });
      const neither = datasetDoc(ns, { key: 'c', name: 'customers', description: 'people' });
      await seed(index(), [byDescription, neither, byName]);
      const result = await index().search(datasets({ input: 'shipments' }));
      expect(urnsOf(result)).toEqual([byName.urn, byDescription.urn]);
      expect(result.total).toBe(2);
      expect(result.hits[0]!.score).toBeGreaterThan(result.hits[1]!.score);
    });

    it('requires every word, ignores case, and splits names on punctuation', async () => {
      const ns = uniqueNamespace();
      const both = datasetDoc(ns, { name: 'customer_orders', description: 'Orders placed by each customer' });
      const one = datasetDoc(ns, { name: 'customer_profiles' });
      const dotted = datasetDoc(ns, { name: 'sales.EU.orders-archive' });
      await seed(index(), [both, one, dotted]);
      expect(urnsOf(await index().search(datasets({ input: 'CUSTOMER orders' })))).toEqual([both.urn]);
      expect(sortedUrns([both, one])).toEqual(
        [...urnsOf(await index().search(datasets({ input: 'Customer' })))].sort(),
      );
      expect(urnsOf(await index().search(datasets({ input: 'archive' })))).toEqual([dotted.urn]);
      expect(urnsOf(await index().search(datasets({ input: 'eu' })))).toEqual([dotted.urn]);
      expect((await index().search(datasets({ input: 'customer invoices' }))).total).toBe(0);
    });

    it('matches a word prefix on name fields', async () => {
      const ns = uniqueNamespace();
      const orders = datasetDoc(ns, { name: 'OrderLines' });
      const other = datasetDoc(ns, { name: 'payments' });
      await seed(index(), [orders, other]);
      expect(urnsOf(await index().search(datasets({ input: 'orderl' })))).toEqual([orders.urn]);
      expect(urnsOf(await index().search(datasets({ input: 'pay' })))).toEqual([other.urn]);
    });

    it('searches schema field paths and URN fields by their words', async () => {
      const ns = uniqueNamespace();
      const withField = datasetDoc(ns, { name: 'events', fieldPaths: ['user_id', 'session_token'] });
      const tagged = datasetDoc(ns, { name: 'clicks', tags: ['gdpr'] });
      await seed(index(), [withField, tagged]);
      expect(urnsOf(await index().search(datasets({ input: 'session' })))).toEqual([withField.urn]);
      expect(urnsOf(await index().search(datasets({ input: 'gdpr' })))).toEqual([tagged.urn]);
    });

    it('finds an entity by the words of its urn alone, not by the urn:li:<type> prefixes', async () => {
      const ns = uniqueNamespace();
      // Only the urn names this entity (as a run of a process instance is known only by its urn id).
      const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,${ns}.test-pipeline-run-4821,PROD)`;
      const onlyUrn: EntityDocument = {
        urn,
        entityType: 'dataset',
        fields: { urn, _entityType: 'dataset', removed: false },
      };
      const named = datasetDoc(ns, { key: 'other', name: 'pipeline runs' });
      await seed(index(), [onlyUrn, named]);
      expect(urnsOf(await index().search(datasets({ input: `${ns}.test-pipeline-run-4821` })))).toEqual([
        urn,
      ]);
      expect(urnsOf(await index().search(datasets({ input: 'run-4821' })))).toEqual([urn]);
      expect(urnsOf(await index().search(datasets({ input: '4821' })))).toEqual([urn]);
      const hit = (await index().search(datasets({ input: 'run-4821' }))).hits[0];
      expect(hit?.matchedFields).toContainEqual({ name: 'urn', value: urn });
      // The `urn:li:<type>:` prefixes are not words of it.
      for (const input of ['urn', 'li', 'dataplatform', `dataset ${ns}.test`, `li ${ns}.test`])
        expect((await index().search(datasets({ input }))).total, input).toBe(0);
      // A name match (boost 10) ranks above a match in the urn alone (boost 5).
      const result = await index().search(datasets({ input: 'pipeline' }));
      expect(urnsOf(result)).toEqual([named.urn, urn]);
      expect(result.hits[0]!.score).toBeGreaterThan(result.hits[1]!.score);
    });

    it('matches everything for * and empty input, in urn order', async () => {
      const ns = uniqueNamespace();
      const docs = ['d', 'b', 'e', 'a', 'c'].map((k) => datasetDoc(ns, { key: k, name: `n${k}` }));
      await seed(index(), docs);
      for (const input of ['*', '', '  ']) {
        const result = await index().search(datasets({ input }));
        expect(urnsOf(result)).toEqual(sortedUrns(docs));
        expect(result.total).toBe(5);
        expect(result.hits.every((h) => h.entityType === 'dataset')).toBe(true);
      }
    });

    it('matches field:value exactly (ignoring case) and a URN input exactly (case included)', async () => {
      const ns = uniqueNamespace();
      const prod = datasetDoc(ns, { name: 'Orders', platform: 'kafka', origin: 'PROD' });
      const dev = datasetDoc(ns, { name: 'orders_dev', origin: 'DEV' });
      await seed(index(), [prod, dev]);
      expect(urnsOf(await index().search(datasets({ input: 'origin:DEV' })))).toEqual([dev.urn]);
      expect(urnsOf(await index().search(datasets({ input: 'name:orders' })))).toEqual([prod.urn]);
      expect(urnsOf(await index().search(datasets({ input: 'platform:urn:li:dataPlatform:kafka' })))).toEqual(
        [prod.urn],
      );
      expect(urnsOf(await index().search(datasets({ input: 'name:ord' })))).toEqual([]);
      // A trailing `*` makes it a prefix match; `\\x` is a literal x (the ecosystem's query escapes).
      expect(urnsOf(await index().search(datasets({ input: 'name:ORD*' })))).toEqual(sortedUrns([prod, dev]));
      expect(urnsOf(await index().search(datasets({ input: 'name:orders\\_d*' })))).toEqual([dev.urn]);
      expect(urnsOf(await index().search(datasets({ input: 'name:orders%*' })))).toEqual([]);
      const prefixed = await index().search(datasets({ input: 'name:orders_*' }));
      expect(prefixed.hits[0]!.matchedFields).toContainEqual({ name: 'name', value: 'orders_dev' });
      expect(urnsOf(await index().search(datasets({ input: prod.urn })))).toEqual([prod.urn]);
      // The urn is a keyword: its case counts, as in the ecosystem's urn field.
      const shouted = prod.urn.replace('kafka', 'KAFKA');
      expect(urnsOf(await index().search(datasets({ input: shouted })))).toEqual([]);
      expect(urnsOf(await index().search(datasets({ input: `urn:${prod.urn}` })))).toEqual([prod.urn]);
      const matched = await index().search(datasets({ input: 'origin:DEV' }));
      expect(matched.hits[0]!.matchedFields).toContainEqual({ name: 'origin', value: 'DEV' });
      await expect(index().search(datasets({ input: 'nosuchfield:x' }))).rejects.toMatchObject({
        code: 'VALIDATION',
      });
    });

    it('names the fields that matched', async () => {
      const ns = uniqueNamespace();
      const byName = datasetDoc(ns, { name: 'ledger', description: 'general accounts' });
      const byDescription = datasetDoc(ns, { name: 'balances', description: 'derived from the ledger' });
      await seed(index(), [byName, byDescription]);
      const result = await index().search(datasets({ input: 'ledger' }));
      const first = result.hits.find((h) => h.urn === byName.urn);
      const second = result.hits.find((h) => h.urn === byDescription.urn);
      expect(first?.matchedFields).toContainEqual({ name: 'name', value: 'ledger' });
      expect(second?.matchedFields).toContainEqual({ name: 'description', value: 'derived from the ledger' });
      expect(second?.matchedFields.some((f) => f.name === 'name')).toBe(false);
      expect((await index().search(datasets())).hits[0]?.matchedFields).toEqual([]);
    });

    it('pages with start and count in a stable order and reports the total', async () => {
      const ns = uniqueNamespace();
      const docs = Array.from({ length: 7 }, (_, i) =>
        datasetDoc(ns, {
          key: `k${i}`,
          name: `metrics_${i}`,
          description: i % 2 === 0 ? 'metrics' : 'other',
        }),
      );
      await seed(index(), docs);
      for (const input of ['*', 'metrics']) {
        const all = await index().search(datasets({ input }));
        const pages: string[] = [];
        for (let start = 0; start < 7; start += 3) {
          const page = await index().search(datasets({ input, start, count: 3 }));
          expect(page.total).toBe(7);
          pages.push(...urnsOf(page));
        }
        expect(pages).toEqual(urnsOf(all));
        expect(new Set(pages).size).toBe(7);
        const beyond = await index().search(datasets({ input, start: 20, count: 3 }));
        expect(beyond).toMatchObject({ total: 7, hits: [] });
        expect((await index().search(datasets({ input, count: 0 }))).hits).toEqual([]);
      }
    });

    it('leaves out soft-deleted documents unless asked', async () => {
      const ns = uniqueNamespace();
      const live = datasetDoc(ns, { name: 'orders_live' });
      const gone = datasetDoc(ns, { name: 'orders_gone', removed: true });
      await seed(index(), [live, gone]);
      expect(urnsOf(await index().search(datasets()))).toEqual([live.urn]);
      expect(urnsOf(await index().search(datasets({ input: 'orders' })))).toEqual([live.urn]);
      expect(urnsOf(await index().search(datasets({ input: 'gone' })))).toEqual([]);
      expect(urnsOf(await index().search(datasets({ includeRemoved: true })))).toEqual(
        sortedUrns([live, gone]),
      );
      const removedOnly = datasets({
        filter: { or: [{ and: [{ field: 'removed', values: ['true'], condition: 'EQUAL' }] }] },
      });
      expect(urnsOf(await index().search(removedOnly))).toEqual([gone.urn]);
      await index().upsert([datasetDoc(ns, { name: 'orders_gone' })]);
      await index().refresh();
      expect(urnsOf(await index().search(datasets({ input: 'gone' })))).toEqual([gone.urn]);
    });

    it('searches several entity types in one request', async () => {
      const ns = uniqueNamespace();
      const dataset = datasetDoc(ns, { name: 'revenue_daily' });
      const chart = chartDoc(ns, 'c1', { title: 'Revenue by region' });
      const otherChart = chartDoc(ns, 'c2', { title: 'Headcount' });
      await seed(index(), [dataset, chart, otherChart]);
      const request = { entityTypes: ['dataset', 'chart'], start: 0, count: 10 };
      const text = await index().search({ ...request, input: 'revenue' });
      expect([...urnsOf(text)].sort()).toEqual(sortedUrns([dataset, chart]));
      expect(text.hits.find((h) => h.urn === chart.urn)?.entityType).toBe('chart');
      const all = await index().search({ ...request, input: '*' });
      expect(all.total).toBe(3);
      expect(urnsOf(all)).toEqual(sortedUrns([dataset, chart, otherChart]));
      await expect(
        index().search({ ...request, entityTypes: ['nosuchentity'], input: '*' }),
      ).rejects.toMatchObject({
        code: 'VALIDATION',
      });
    });
  });
}
