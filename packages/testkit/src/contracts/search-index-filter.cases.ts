import { describe, expect, it } from 'vitest';
import type { Condition, Criterion, Filter, SearchIndex } from '@catalog/search';
import {
  chartDoc,
  dataJobDoc,
  datasetDoc,
  datasets,
  seed,
  sortedUrns,
  uniqueNamespace,
  urnsOf,
} from './search-index-fixtures.js';

const and = (...criteria: Criterion[]): Filter => ({ or: [{ and: criteria }] });
const c = (field: string, condition: Condition, values: string[] = [], negated = false): Criterion => ({
  field,
  condition,
  values,
  ...(negated ? { negated: true } : {}),
});

/**
 * Filters: every condition, negation, and/or nesting, alias and `.keyword` field names, and the
 * ValidationErrors for bad filters. EQUAL and IN are exact (several values ORed); IEQUAL, CONTAIN,
 * START_WITH and END_WITH ignore case; comparisons apply to COUNT/DATETIME/DOUBLE fields; EXISTS takes no
 * values; a negated criterion also matches documents without the field.
 */
export function searchFilterCases(index: () => SearchIndex): void {
  describe('filters', () => {
    const setup = async () => {
      const ns = uniqueNamespace();
      const orders = datasetDoc(ns, {
        name: 'orders',
        platform: 'hive',
        origin: 'PROD',
        description: 'All Orders',
        tags: ['pii', 'gold'],
        owners: ['alice'],
        createdAt: 1_000,
        customProperties: { team: 'sales' },
      });
      const customers = datasetDoc(ns, {
        name: 'customers',
        platform: 'hive',
        origin: 'DEV',
        tags: ['pii'],
        createdAt: 2_000,
      });
      const events = datasetDoc(ns, {
        name: 'click_events',
        platform: 'kafka',
        origin: 'PROD',
        owners: ['bob'],
        createdAt: 3_000,
      });
      await seed(index(), [orders, customers, events]);
      const query = async (filter: Filter) => [...urnsOf(await index().search(datasets({ filter })))].sort();
      return { ns, orders, customers, events, query };
    };

    it('takes `(a:"x" OR b:"y")` / AND field queries as exact filters, values escaped as the SDK writes them', async () => {
      // The SDK's platform resource search by primary or secondary key, and by type and platform.
      const ns = uniqueNamespace();
      const orders = datasetDoc(ns, { name: `orders_${ns}`, platform: 'hive', tags: ['pk:1'] });
      const events = datasetDoc(ns, { name: `events_${ns}`, platform: 'kafka', tags: [`k_${ns}`] });
      const other = datasetDoc(ns, { name: `other_${ns}`, platform: 'kafka' });
      await seed(index(), [orders, events, other]);
      const found = async (input: string, filter?: Filter) =>
        [...urnsOf(await index().search(datasets({ input, ...(filter ? { filter } : {}) })))].sort();
      expect(await found(`(name:"orders_${ns}")`)).toEqual([orders.urn]);
      expect(await found(`name:"orders_${ns}"`)).toEqual([orders.urn]);
      expect(await found(`(name:"orders_${ns}" OR tags:"urn\\:li\\:tag\\:k_${ns}")`)).toEqual(
        [orders.urn, events.urn].sort(),
      );
      expect(await found(`(tags:"urn\\:li\\:tag\\:pk\\:1" AND name:"orders_${ns}")`)).toEqual([orders.urn]);
      expect(
        await found(
          `(platform.keyword:"urn\\:li\\:dataPlatform\\:kafka" AND (name:"events_${ns}" OR name:"other_${ns}"))`,
        ),
      ).toEqual([events.urn, other.urn].sort());
      expect(
        await found(`platform.keyword:"urn\\:li\\:dataPlatform\\:kafka"`, {
          or: [{ and: [{ field: 'name', values: [`other_${ns}`], condition: 'EQUAL' }] }],
        }),
      ).toEqual([other.urn]);
      expect(
        await found(
          `(name:"events_${ns}" OR name:"other_${ns}" OR name:"orders_${ns}") AND -platform:"urn\\:li\\:dataPlatform\\:hive"`,
        ),
      ).toEqual([events.urn, other.urn].sort());
      expect(await found(`(name:"nothing_${ns}" AND platform:"urn\\:li\\:dataPlatform\\:hive")`)).toEqual([]);
      await expect(
        index().search(datasets({ input: '(noSuchField:"x" OR name:"y")' })),
      ).rejects.toMatchObject({
        code: 'VALIDATION',
      });
    });

    it('EQUAL and IN match exact values, several values ORed', async () => {
      const { orders, customers, events, query } = await setup();
      expect(await query(and(c('origin', 'EQUAL', ['DEV'])))).toEqual([customers.urn]);
      expect(await query(and(c('origin', 'EQUAL', ['dev'])))).toEqual([]);
      expect(
        await query(and(c('platform', 'EQUAL', ['urn:li:dataPlatform:kafka', 'urn:li:dataPlatform:nope']))),
      ).toEqual([events.urn]);
      expect(await query(and(c('tags', 'IN', ['urn:li:tag:gold', 'urn:li:tag:nope'])))).toEqual([orders.urn]);
      expect(await query(and(c('tags', 'EQUAL', ['urn:li:tag:pii'])))).toEqual(
        sortedUrns([orders, customers]),
      );
      expect(await query(and(c('customProperties', 'EQUAL', ['team=sales'])))).toEqual([orders.urn]);
    });

    it('IEQUAL, CONTAIN, START_WITH and END_WITH ignore case', async () => {
      const { orders, customers, events, query } = await setup();
      expect(await query(and(c('origin', 'IEQUAL', ['dev'])))).toEqual([customers.urn]);
      expect(await query(and(c('name', 'CONTAIN', ['TOME'])))).toEqual([customers.urn]);
      expect(await query(and(c('name', 'CONTAIN', ['er', 'vent'])))).toEqual(
        sortedUrns([orders, customers, events]),
      );
      expect(await query(and(c('name', 'START_WITH', ['Click'])))).toEqual([events.urn]);
      expect(await query(and(c('name', 'END_WITH', ['ERS'])))).toEqual(sortedUrns([orders, customers]));
      expect(await query(and(c('owners', 'END_WITH', [':bob'])))).toEqual([events.urn]);
    });

    it('compares DATETIME values, bounds included or not as named', async () => {
      const { orders, customers, events, query } = await setup();
      expect(await query(and(c('createdAt', 'GREATER_THAN', ['2000'])))).toEqual([events.urn]);
      expect(await query(and(c('createdAt', 'GREATER_THAN_OR_EQUAL_TO', ['2000'])))).toEqual(
        sortedUrns([customers, events]),
      );
      expect(await query(and(c('createdAt', 'LESS_THAN', ['2000'])))).toEqual([orders.urn]);
      expect(await query(and(c('createdAt', 'LESS_THAN_OR_EQUAL_TO', ['2000'])))).toEqual(
        sortedUrns([orders, customers]),
      );
      expect(await query(and(c('createdAt', 'EQUAL', ['3000'])))).toEqual([events.urn]);
    });

    it('compares COUNT values', async () => {
      const ns = uniqueNamespace();
      const none = dataJobDoc(ns, 'a', []);
      const two = dataJobDoc(ns, 'b', ['urn:li:dataset:x', 'urn:li:dataset:y']);
      await seed(index(), [none, two]);
      const jobs = (filter: Filter) =>
        index().search({ entityTypes: ['dataJob'], input: '*', start: 0, count: 10, filter });
      expect(urnsOf(await jobs(and(c('numInputDatasets', 'GREATER_THAN', ['1']))))).toEqual([two.urn]);
      expect(urnsOf(await jobs(and(c('numInputDatasets', 'LESS_THAN_OR_EQUAL_TO', ['0']))))).toEqual([
        none.urn,
      ]);
    });

    it('EXISTS matches documents that have the field; negated, those without', async () => {
      const { orders, customers, events, query } = await setup();
      expect(await query(and(c('description', 'EXISTS')))).toEqual([orders.urn]);
      expect(await query(and(c('description', 'EXISTS', [], true)))).toEqual(sortedUrns([customers, events]));
      expect(await query(and(c('owners', 'EXISTS')))).toEqual(sortedUrns([orders, events]));
    });

    it('negates criteria, including on multi-valued and absent fields', async () => {
      const { orders, customers, events, query } = await setup();
      expect(await query(and(c('origin', 'EQUAL', ['PROD'], true)))).toEqual([customers.urn]);
      expect(await query(and(c('tags', 'EQUAL', ['urn:li:tag:gold'], true)))).toEqual(
        sortedUrns([customers, events]),
      );
      expect(await query(and(c('hasDescription', 'EQUAL', ['true'])))).toEqual([orders.urn]);
      expect(await query(and(c('hasDescription', 'EQUAL', ['TRUE'], true)))).toEqual(
        sortedUrns([customers, events]),
      );
    });

    it('ANDs criteria within a conjunction and ORs conjunctions', async () => {
      const { orders, customers, events, query } = await setup();
      expect(
        await query(
          and(c('platform', 'EQUAL', ['urn:li:dataPlatform:hive']), c('origin', 'EQUAL', ['PROD'])),
        ),
      ).toEqual([orders.urn]);
      const either: Filter = {
        or: [
          { and: [c('platform', 'EQUAL', ['urn:li:dataPlatform:hive']), c('origin', 'EQUAL', ['DEV'])] },
          { and: [c('owners', 'EQUAL', ['urn:li:corpuser:bob'])] },
        ],
      };
      expect(await query(either)).toEqual(sortedUrns([customers, events]));
      expect(await query({ or: [] })).toEqual(sortedUrns([orders, customers, events]));
      expect(await query({ or: [{ and: [] }] })).toEqual(sortedUrns([orders, customers, events]));
    });

    it('combines filters with full text', async () => {
      const { orders } = await setup();
      const result = await index().search(
        datasets({ input: 'orders', filter: and(c('tags', 'EQUAL', ['urn:li:tag:pii'])) }),
      );
      expect(urnsOf(result)).toEqual([orders.urn]);
      expect(result.total).toBe(1);
    });

    it('filters a full-text match set exactly as it filters everything', async () => {
      const { ns, query } = await setup();
      const filters: Filter[] = [
        and(c('tags', 'EQUAL', ['urn:li:tag:pii'])),
        and(c('tags', 'IN', ['urn:li:tag:gold', 'urn:li:tag:none'])),
        and(c('origin', 'EQUAL', ['PROD'], true)),
        and(c('tags', 'EQUAL', ['urn:li:tag:gold'], true)),
        and(c('owners', 'EXISTS')),
        and(c('description', 'EXISTS', [], true)),
        and(c('hasDescription', 'EQUAL', ['TRUE'], true)),
        and(c('platform', 'EQUAL', ['urn:li:dataPlatform:hive']), c('origin', 'EQUAL', ['PROD'])),
        and(c('origin.keyword', 'EQUAL', ['DEV']), c('createdAt', 'GREATER_THAN', ['1500'])),
        and(c('_entityName', 'EQUAL', ['customers'])),
        and(c('customProperties', 'CONTAIN', ['SALES'])),
        {
          or: [
            { and: [c('platform', 'EQUAL', ['urn:li:dataPlatform:hive']), c('origin', 'EQUAL', ['DEV'])] },
            { and: [c('owners', 'EQUAL', ['urn:li:corpuser:bob'])] },
          ],
        },
      ];
      for (const filter of filters) {
        const textual = await index().search(datasets({ input: ns, filter }));
        expect([...urnsOf(textual)].sort(), JSON.stringify(filter)).toEqual(await query(filter));
        expect(textual.total).toBe(textual.hits.length);
      }
    });

    it('accepts aliases and the .keyword suffix as field names', async () => {
      const { customers, query } = await setup();
      expect(await query(and(c('_entityName', 'EQUAL', ['customers'])))).toEqual([customers.urn]);
      expect(await query(and(c('origin.keyword', 'EQUAL', ['DEV'])))).toEqual([customers.urn]);
      expect(await query(and(c('urn', 'EQUAL', [customers.urn])))).toEqual([customers.urn]);
    });

    it('applies a field filter only to the entity types that have the field', async () => {
      const { orders } = await setup();
      const chart = chartDoc(uniqueNamespace(), 'c', { title: 'orders chart' });
      await index().upsert([chart]);
      await index().refresh();
      const result = await index().search({
        entityTypes: ['dataset', 'chart'],
        input: '*',
        start: 0,
        count: 10,
        filter: and(c('tags', 'EQUAL', ['urn:li:tag:gold'])),
      });
      expect(urnsOf(result)).toEqual([orders.urn]);
    });

    it('rejects bad filters and pages with a ValidationError', async () => {
      await setup();
      const rejects = async (request: Parameters<SearchIndex['search']>[0], message?: RegExp) => {
        const error: unknown = await index()
          .search(request)
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(error).toMatchObject({ code: 'VALIDATION' });
        if (message) expect((error as Error).message).toMatch(message);
      };
      await rejects(
        datasets({ filter: and(c('nosuch', 'EQUAL', ['x'])) }),
        /Unknown filter field "nosuch" for entity type dataset/,
      );
      await rejects(datasets({ filter: and(c('origin', 'GREATER_THAN', ['1'])) }));
      await rejects(datasets({ filter: and(c('hasDescription', 'CONTAIN', ['t'])) }));
      await rejects(datasets({ filter: and(c('createdAt', 'GREATER_THAN', ['yesterday'])) }));
      await rejects(datasets({ filter: and(c('description', 'EXISTS', ['x'])) }));
      await rejects(datasets({ filter: and(c('origin', 'EQUAL', [])) }));
      await rejects(datasets({ filter: { and: [] } as unknown as Filter }));
      await rejects(datasets({ start: -1 }));
      await rejects(datasets({ count: 10_001 }));
      await rejects(datasets({ facets: ['nosuch'] }));
    });
  });
}
