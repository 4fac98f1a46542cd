import { describe, expect, it } from 'vitest';
import { sliceOfUrn, type SearchIndex } from '@catalog/search';
import { chartDoc, countsOf, datasetDoc, seed, uniqueNamespace } from './search-index-fixtures.js';
import { scrollAll } from './search-index-sort-reference.js';

/**
 * Slices (SearchRequest.slice): `max` disjoint parts of the match set, each entity in part
 * sliceOfUrn(urn, max) whatever the adapter; their union is the match set; `total` and facets count
 * the part, and each part pages like any search.
 */
export function searchSliceCases(index: () => SearchIndex): void {
  describe('slices', () => {
    const setup = async () => {
      const ns = uniqueNamespace();
      const docs = [
        ...Array.from({ length: 20 }, (_, i) =>
          datasetDoc(ns, { key: `t${i}`, name: `${ns} t${i}`, createdAt: (i % 4) * 10 }),
        ),
        ...['c1', 'c2', 'c3'].map((id) => chartDoc(ns, id, { title: `${ns} ${id}` })),
        datasetDoc(ns, { key: 'gone', name: `${ns} gone`, removed: true }),
      ];
      await seed(index(), docs);
      const live = docs.filter((d) => d.fields['removed'] !== true).map((d) => d.urn);
      return { ns, live };
    };
    const across = (ns: string) => ({ entityTypes: ['dataset', 'chart'], input: ns });

    it('splits the match set into disjoint, pageable slices whose union is the whole set', async () => {
      const { ns, live } = await setup();
      const max = 3;
      const union: string[] = [];
      for (let id = 0; id < max; id++) {
        const expected = live.filter((urn) => sliceOfUrn(urn, max) === id).sort();
        const scroll = await scrollAll(index(), { ...across(ns), count: 2, slice: { id, max } });
        expect(scroll.hits.map((h) => h.urn)).toEqual(expected);
        expect(scroll.totals.every((t) => t === expected.length)).toBe(true);
        const sorted = await scrollAll(index(), {
          ...across(ns),
          count: 4,
          slice: { id, max },
          sort: [{ field: 'createdAt', order: 'DESCENDING' }],
        });
        expect(sorted.hits.map((h) => h.urn).sort()).toEqual(expected);
        union.push(...expected);
      }
      expect(union.sort()).toEqual([...live].sort());
      const whole = await index().search({ ...across(ns), start: 0, count: 100, slice: { id: 0, max: 1 } });
      expect(whole.total).toBe(live.length);
    });

    it('counts the slice in total and facets, with text queries, filters and offset pages', async () => {
      const { ns, live } = await setup();
      const max = 2;
      const filter = {
        or: [
          { and: [{ field: 'createdAt', values: ['10'], condition: 'GREATER_THAN_OR_EQUAL_TO' as const }] },
        ],
      };
      let sum = 0;
      for (let id = 0; id < max; id++) {
        const request = { ...across(ns), start: 0, count: 100, slice: { id, max }, facets: ['_entityType'] };
        const result = await index().search(request);
        const expected = live.filter((urn) => sliceOfUrn(urn, max) === id);
        expect([...result.hits.map((h) => h.urn)].sort()).toEqual([...expected].sort());
        expect(result.total).toBe(expected.length);
        const counts = countsOf(result, '_entityType');
        expect((counts['dataset'] ?? 0) + (counts['chart'] ?? 0)).toBe(expected.length);
        const filtered = await index().search({ ...request, filter });
        for (const hit of filtered.hits) expect(sliceOfUrn(hit.urn, max)).toBe(id);
        sum += filtered.total;
        const paged = await index().search({ ...request, start: 1, count: 2 });
        expect(paged.hits.map((h) => h.urn)).toEqual(result.hits.slice(1, 3).map((h) => h.urn));
      }
      const all = await index().search({ ...across(ns), start: 0, count: 0, filter });
      expect(sum).toBe(all.total);
    });

    it('refuses a slice outside 0 <= id < max <= 1024', async () => {
      const { ns } = await setup();
      for (const slice of [
        { id: 2, max: 2 },
        { id: -1, max: 2 },
        { id: 0, max: 0 },
        { id: 0, max: 1025 },
        { id: 0.5, max: 2 },
      ])
        await expect(index().search({ ...across(ns), start: 0, count: 10, slice })).rejects.toMatchObject({
          code: 'VALIDATION',
        });
    });
  });
}
