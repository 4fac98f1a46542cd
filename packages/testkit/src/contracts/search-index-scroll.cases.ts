import { describe, expect, it } from 'vitest';
import type { EntityDocument, SearchHit, SearchIndex } from '@catalog/search';
import { chartDoc, datasetDoc, datasets, seed, uniqueNamespace } from './search-index-fixtures.js';
import {
  compareReference,
  referenceOrder,
  referenceSortValues,
  scrollAll,
  sortOf,
  type ReferenceKey,
} from './search-index-sort-reference.js';

/**
 * Sorted keyset scrolls (SearchRequest.sort + searchAfter): hits ordered by the sort keys, then urn
 * (no score); each hit carries its sortValues (the key values, null when missing, then the urn), and
 * passing the last hit's sortValues continues strictly after it. Adapters must give exactly the
 * reference order (search-index-sort-reference.ts), page after page, while documents are written.
 */
export function searchScrollCases(index: () => SearchIndex): void {
  describe('sorted keyset scroll', () => {
    const setup = async () => {
      const ns = uniqueNamespace();
      const doc = (key: string, input: Omit<Parameters<typeof datasetDoc>[1], 'name' | 'key'>) =>
        datasetDoc(ns, { key, name: `${ns} ${key}`, ...input });
      const docs = [
        doc('d1', { createdAt: 300, tags: ['m', 'c'], description: 'Bravo' }),
        doc('d2', { createdAt: 100, tags: ['b'], description: 'alpha' }),
        doc('d3', { createdAt: 300, tags: ['z'], description: 'bravo' }),
        doc('d4', { tags: ['a', 'y'] }),
        doc('d5', { createdAt: 200, description: 'Alpha', fieldPaths: ['b_col', 'z_col'] }),
        doc('d6', { createdAt: 100, tags: ['c'], description: `long ${'x'.repeat(9000)}` }),
        doc('d7', { description: 'alpha', fieldPaths: ['a_col'] }),
        doc('d8', { createdAt: 200, tags: ['b', 'x'], fieldPaths: ['c_col', 'a_col'] }),
        doc('d9', { createdAt: 250, removed: true }),
      ];
      await seed(index(), docs);
      return { ns, docs, live: docs.filter((d) => d.fields['removed'] !== true) };
    };

    it('pages a sort after the last hit: ties by urn, missing values last, sortValues per hit', async () => {
      const { ns, live } = await setup();
      const keys: ReferenceKey[] = [{ field: 'createdAt', order: 'DESCENDING', kind: 'number' }];
      const scroll = await scrollAll(index(), datasets({ input: ns, count: 3, sort: sortOf(keys) }));
      const urn = (k: string) => live.find((d) => d.fields['id'] === `${ns}.${k}`)!.urn;
      const tied = (a: string, b: string) => [urn(a), urn(b)].sort();
      expect(scroll.hits.map((h) => h.urn)).toEqual([
        ...tied('d1', 'd3'),
        ...tied('d5', 'd8'),
        ...tied('d2', 'd6'),
        ...tied('d4', 'd7'),
      ]);
      expect(scroll.hits[0]!.sortValues).toEqual([300, scroll.hits[0]!.urn]);
      expect(scroll.hits[7]!.sortValues).toEqual([null, scroll.hits[7]!.urn]);
      expect(scroll.totals.every((t) => t === live.length)).toBe(true);
      expect(scroll.pages).toBe(3);
    });

    const orders: readonly (readonly ReferenceKey[])[] = [
      [{ field: 'createdAt', order: 'ASCENDING', kind: 'number' }],
      [{ field: 'tags', order: 'ASCENDING', kind: 'string' }],
      [{ field: 'tags', order: 'DESCENDING', kind: 'string' }],
      [
        { field: 'description', order: 'ASCENDING', kind: 'string' },
        { field: 'createdAt', order: 'DESCENDING', kind: 'number' },
      ],
      [{ field: 'fieldPaths', order: 'DESCENDING', kind: 'string' }],
      [
        { field: 'hasTags', order: 'DESCENDING', kind: 'boolean' },
        { field: 'name', order: 'DESCENDING', kind: 'string' },
      ],
    ];
    for (const keys of orders) {
      const label = keys.map((k) => `${k.field} ${k.order}`).join(', ');
      it(`sorts multi-valued, text and boolean fields as OpenSearch does: ${label}`, async () => {
        const { ns, live } = await setup();
        const expected = referenceOrder(live, keys);
        for (const count of [2, 100]) {
          const scroll = await scrollAll(index(), datasets({ input: ns, count, sort: sortOf(keys) }));
          expect(scroll.hits.map((h) => h.urn)).toEqual(expected);
          for (const hit of scroll.hits) {
            const doc = live.find((d) => d.urn === hit.urn)!;
            expect(hit.sortValues).toEqual(referenceSortValues(doc, keys));
          }
        }
        const offset = await index().search(
          datasets({ input: '*', sort: sortOf(keys), filter: nsFilter(ns) }),
        );
        expect(offset.hits.map((h) => h.urn)).toEqual(expected);
      });
    }

    it('sorts text fields on their exact, case-sensitive value, too-long values as missing', async () => {
      const { ns, live } = await setup();
      const keys: ReferenceKey[] = [{ field: 'description.keyword', order: 'ASCENDING', kind: 'string' }];
      const scroll = await scrollAll(index(), datasets({ input: ns, count: 4, sort: sortOf(keys) }));
      const descriptions = scroll.hits.map((h) => {
        const value = live.find((d) => d.urn === h.urn)!.fields['description'];
        return typeof value === 'string' && value.length > 100 ? 'long' : (value ?? '-');
      });
      // Upper case first (byte order); the long one and those without a description last, by urn.
      expect(descriptions.slice(0, 5)).toEqual(['Alpha', 'Bravo', 'alpha', 'alpha', 'bravo']);
      expect([...descriptions.slice(5)].sort()).toEqual(['-', '-', 'long']);
    });

    it('neither repeats nor skips an entity while others are created, changed and deleted', async () => {
      const ns = uniqueNamespace();
      const doc = (key: string, createdAt: number, description = 'first') =>
        datasetDoc(ns, { key, name: `${ns} ${key}`, createdAt, description });
      const original = [
        doc('k01', 10),
        doc('k02', 20),
        doc('k03', 20),
        doc('k04', 30),
        doc('k05', 40),
        doc('k06', 40),
        doc('k07', 40),
        doc('k08', 50),
        doc('k09', 60),
        doc('k10', 70),
        doc('k11', 80),
        doc('k12', 90),
      ];
      await seed(index(), original);
      const keys: ReferenceKey[] = [{ field: 'createdAt', order: 'ASCENDING', kind: 'number' }];
      const created: EntityDocument[] = [];
      const gone = original[10]!.urn;
      const write = async (docs: EntityDocument[], deletes: string[] = []) => {
        await index().upsert(docs);
        if (deletes.length > 0) await index().delete(deletes.map((urn) => ({ entityType: 'dataset', urn })));
        await index().refresh();
        created.push(...docs.filter((d) => !original.some((o) => o.urn === d.urn)));
      };
      const scroll = await scrollAll(
        index(),
        datasets({ input: ns, count: 3, sort: sortOf(keys) }),
        async (page, last) => {
          const at = last.sortValues![0] as number;
          // Before the position (never seen), after it (seen once), changes keeping the sort value.
          if (page === 0)
            await write([
              doc('a_before', at - 1),
              doc('z_after', 1000),
              doc('k02', 20, 'b'),
              doc('k12', 90, 'b'),
            ]);
          // Ties with the position: a smaller urn is behind it, a larger one ahead; the last hit and an
          // entity not yet seen are deleted.
          if (page === 1) await write([doc('k00', at), doc('k99', at)], [last.urn, gone]);
        },
      );
      const seen = scroll.hits.map((h) => h.urn);
      expect(new Set(seen).size).toBe(seen.length);
      const byKey = (k: string) => [...original, ...created].find((d) => d.fields['id'] === `${ns}.${k}`)!;
      for (const kept of original.filter((d) => d.urn !== gone)) expect(seen).toContain(kept.urn);
      expect(seen).not.toContain(gone);
      expect(seen).not.toContain(byKey('a_before').urn);
      expect(seen).not.toContain(byKey('k00').urn);
      expect(seen).toContain(byKey('k99').urn);
      expect(seen[seen.length - 1]).toBe(byKey('z_after').urn);
      const values = scroll.hits.map((h) => h.sortValues!);
      for (let i = 1; i < values.length; i++)
        expect(compareReference(values[i - 1]!, values[i]!, keys)).toBeLessThan(0);
    });

    it('sorts each entity type by its own field for an alias, in one scroll across types', async () => {
      const ns = uniqueNamespace();
      const docs = [
        datasetDoc(ns, { key: 'a', name: `${ns} delta` }),
        datasetDoc(ns, { key: 'b', name: `${ns} alpha` }),
        datasetDoc(ns, { key: 'c', name: `${ns} echo`, tags: ['t'] }),
        chartDoc(ns, 'c1', { title: `${ns} charlie` }),
        chartDoc(ns, 'c2', { title: `${ns} bravo` }),
        chartDoc(ns, 'c3', { title: `${ns} alpha` }),
      ];
      await seed(index(), docs);
      const keys: ReferenceKey[] = [{ field: '_entityName', order: 'ASCENDING', kind: 'string' }];
      const request = { entityTypes: ['dataset', 'chart'], input: ns, count: 2, sort: sortOf(keys) };
      const names = (hits: readonly SearchHit[]) =>
        hits.map((h) => String(h.sortValues![0]).slice(ns.length + 1));
      const scroll = await scrollAll(index(), request);
      expect(scroll.hits.map((h) => h.urn)).toEqual(referenceOrder(docs, keys));
      expect(names(scroll.hits)).toEqual(['alpha', 'alpha', 'bravo', 'charlie', 'delta', 'echo']);
      const down = await scrollAll(index(), {
        ...request,
        sort: [{ field: '_entityName', order: 'DESCENDING' }],
      });
      expect(names(down.hits)).toEqual(['echo', 'delta', 'charlie', 'bravo', 'alpha', 'alpha']);
      // Charts have no hasTags: last in both orders, paged through from a missing value.
      for (const order of ['ASCENDING', 'DESCENDING'] as const) {
        const byTags: ReferenceKey[] = [{ field: 'hasTags', order, kind: 'boolean' }];
        const tagged = await scrollAll(index(), { ...request, sort: sortOf(byTags) });
        expect(tagged.hits.map((h) => h.urn)).toEqual(referenceOrder(docs, byTags));
        expect(tagged.hits.map((h) => h.sortValues![0])).toEqual(
          order === 'ASCENDING'
            ? [false, false, true, null, null, null]
            : [true, false, false, null, null, null],
        );
      }
    });

    it('orders by urn alone without a sort: sortValues is [urn], and the urn alone continues', async () => {
      const { ns, live } = await setup();
      const scroll = await scrollAll(index(), datasets({ input: ns, count: 3 }));
      const urns = live.map((d) => d.urn).sort();
      expect(scroll.hits.map((h) => h.urn)).toEqual(urns);
      expect(scroll.hits.map((h) => h.sortValues)).toEqual(urns.map((u) => [u]));
      const next = await index().search(datasets({ input: ns, count: 2, searchAfter: urns[2]! }));
      expect(next.hits.map((h) => h.urn)).toEqual(urns.slice(3, 5));
      expect((await index().search(datasets({ input: ns, count: 2 }))).hits[0]?.sortValues).toBeUndefined();
    });

    it('refuses positions that do not fit the sort, and fields that cannot be sorted', async () => {
      const { ns } = await setup();
      const sort = [{ field: 'createdAt', order: 'ASCENDING' as const }];
      for (const request of [
        datasets({ input: ns, sort, searchAfter: 'urn:li:dataset:x' }),
        datasets({ input: ns, sort, searchAfter: ['urn:li:dataset:x'] }),
        datasets({ input: ns, sort, searchAfter: ['soon', 'urn:li:dataset:x'] }),
        datasets({ input: ns, sort, searchAfter: '', start: 1 }),
        datasets({ input: ns, sort: [{ field: 'description.ngram', order: 'ASCENDING' }], searchAfter: '' }),
        datasets({ input: ns, sort: [{ field: 'nosuchfield', order: 'ASCENDING' }] }),
      ])
        await expect(index().search(request)).rejects.toMatchObject({ code: 'VALIDATION' });
    });
  });
}

function nsFilter(ns: string) {
  return { or: [{ and: [{ field: 'id', values: [`${ns}.`], condition: 'START_WITH' as const }] }] };
}
