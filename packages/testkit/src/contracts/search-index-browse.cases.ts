import { describe, expect, it } from 'vitest';
import type { SearchIndex } from '@catalog/search';
import { datasetDoc, seed, uniqueNamespace } from './search-index-fixtures.js';

/**
 * Browse and autocomplete. A browse path is the folder an entity is listed in (the ecosystem's rule):
 * `/prod/hive/db1` lists the entity at `/prod/hive/db1`, under its name, and makes `prod`, `hive`, `db1`
 * groups above it. Groups count distinct entities at or below them and are ordered by name; entities
 * are ordered by urn and paged. Autocomplete suggests distinct values of the autocomplete fields (name,
 * id, qualifiedName for datasets) having a word that starts with each query word, ignoring case.
 */
export function searchBrowseCases(index: () => SearchIndex): void {
  describe('browse', () => {
    const setup = async () => {
      const ns = uniqueNamespace();
      const at = (key: string, browsePaths: string[], extra: { removed?: boolean; tags?: string[] } = {}) =>
        datasetDoc(ns, { key, name: key, browsePaths, ...extra });
      const docs = {
        orders: at('orders', [`/${ns}/prod/hive/db1`], { tags: ['pii'] }),
        customers: at('customers', [`/${ns}/prod/hive/db1`]),
        items: at('items', [`/${ns}/prod/hive/db2`]),
        events: at('events', [`/${ns}/prod/kafka`], { tags: ['pii'] }),
        devOrders: at('devorders', [`/${ns}/dev/hive/db1`]),
        old: at('old', [`/${ns}/prod/hive/db1`], { removed: true }),
        shared: at('shared', [`/${ns}/prod/hive/db2`, `/${ns}/prod/kafka`]),
        loose: at('loose', [`/${ns}/prod/hive`]),
      };
      await seed(index(), Object.values(docs));
      const browse = (
        path: string,
        start = 0,
        limit = 10,
        filter?: Parameters<SearchIndex['browse']>[0]['filter'],
      ) => index().browse({ entityType: 'dataset', path, start, limit, ...(filter ? { filter } : {}) });
      return { ns, docs, browse };
    };

    it('lists child groups with the entities at or below them, ordered by name', async () => {
      const { ns, browse } = await setup();
      const top = await browse(`/${ns}`);
      expect(top.groups).toEqual([
        { name: 'dev', count: 1 },
        { name: 'prod', count: 6 },
      ]);
      expect(top.entities).toEqual([]);
      expect(top.totalEntities).toBe(0);
      expect(top.totalNumEntities).toBe(7);
      const prod = await browse(`/${ns}/prod`);
      expect(prod.groups).toEqual([
        { name: 'hive', count: 5 },
        { name: 'kafka', count: 2 },
      ]);
      expect(prod.entities).toEqual([]);
      expect(prod.totalNumEntities).toBe(6);
    });

    it('lists the entities whose browse path equals the path, beside the groups deeper down', async () => {
      const { ns, docs, browse } = await setup();
      const hive = await browse(`/${ns}/prod/hive`);
      expect(hive.groups).toEqual([
        { name: 'db1', count: 2 },
        { name: 'db2', count: 2 },
      ]);
      expect(hive.entities).toEqual([{ urn: docs.loose.urn, name: 'loose' }]);
      expect(hive.totalEntities).toBe(1);
      expect(hive.totalNumEntities).toBe(5);
    });

    it('lists the entities at a path by urn, with their names, paged', async () => {
      const { ns, docs, browse } = await setup();
      const db1 = await browse(`/${ns}/prod/hive/db1`);
      const expected = [
        { urn: docs.orders.urn, name: 'orders' },
        { urn: docs.customers.urn, name: 'customers' },
      ].sort((a, b) => (a.urn < b.urn ? -1 : 1));
      expect(db1.entities).toEqual(expected);
      expect(db1.groups).toEqual([]);
      expect(db1.totalEntities).toBe(2);
      expect(db1.totalNumEntities).toBe(2);
      const second = await browse(`/${ns}/prod/hive/db1`, 1, 1);
      expect(second.entities).toEqual([expected[1]]);
      expect(second.totalEntities).toBe(2);
      expect(await browse(`${ns}/prod/hive/db1/`)).toEqual(db1);
      const kafka = await browse(`/${ns}/prod/kafka`);
      expect(kafka.entities.map((e) => e.name).sort()).toEqual(['events', 'shared']);
      await index().upsert([
        datasetDoc(ns, { key: 'late', name: 'late', browsePaths: [`/${ns}/prod/kafka`] }),
      ]);
      await index().delete([{ entityType: 'dataset', urn: docs.events.urn }]);
      await index().refresh();
      expect((await browse(`/${ns}/prod/kafka`)).entities.map((e) => e.name).sort()).toEqual([
        'late',
        'shared',
      ]);
    });

    it('starts at the root for / and empty paths, and honours a filter', async () => {
      const { ns, docs, browse } = await setup();
      for (const root of ['/', '']) {
        const result = await browse(root);
        expect(result.groups).toEqual([{ name: ns, count: 7 }]);
        expect(result.totalNumEntities).toBe(7);
      }
      const pii = {
        or: [{ and: [{ field: 'tags', values: ['urn:li:tag:pii'], condition: 'EQUAL' as const }] }],
      };
      const filtered = await browse(`/${ns}/prod`, 0, 10, pii);
      expect(filtered.groups).toEqual([
        { name: 'hive', count: 1 },
        { name: 'kafka', count: 1 },
      ]);
      const kafka = await browse(`/${ns}/prod/kafka`, 0, 10, pii);
      expect(kafka.entities).toEqual([{ urn: docs.events.urn, name: 'events' }]);
    });

    it('returns nothing for an unknown path and rejects an unknown entity type', async () => {
      const { ns, browse } = await setup();
      expect(await browse(`/${ns}/nowhere`)).toEqual({
        groups: [],
        entities: [],
        totalEntities: 0,
        totalNumEntities: 0,
      });
      await expect(
        index().browse({ entityType: 'nosuchentity', path: '/', start: 0, limit: 10 }),
      ).rejects.toMatchObject({ code: 'VALIDATION' });
    });
  });

  describe('autocomplete', () => {
    const setup = async () => {
      const ns = uniqueNamespace();
      const docs = [
        datasetDoc(ns, { key: 'k1', name: 'customer_orders' }),
        datasetDoc(ns, { key: 'k2', name: 'Customers' }),
        datasetDoc(ns, { key: 'k3', name: 'Customers', origin: 'DEV' }),
        datasetDoc(ns, { key: 'k4', name: 'payments' }),
        datasetDoc(ns, { key: 'k5', name: 'customer_legacy', removed: true }),
      ];
      await seed(index(), docs);
      return { ns, docs };
    };

    it('suggests distinct values with a word starting with the query', async () => {
      const { docs } = await setup();
      const result = await index().autocomplete({
        entityType: 'dataset',
        query: 'CUST',
        field: 'name',
        limit: 10,
      });
      expect([...result.suggestions].sort()).toEqual(['Customers', 'customer_orders']);
      expect([...result.entities].sort()).toEqual([docs[0]!.urn, docs[1]!.urn, docs[2]!.urn].sort());
      const orders = await index().autocomplete({
        entityType: 'dataset',
        query: 'ord',
        field: 'name',
        limit: 10,
      });
      expect(orders.suggestions).toEqual(['customer_orders']);
    });

    it('uses the autocomplete fields by default, honours limit and filter, leaves out removed', async () => {
      await setup();
      const all = await index().autocomplete({ entityType: 'dataset', query: 'cust', limit: 10 });
      expect(all.suggestions).toEqual(expect.arrayContaining(['Customers', 'customer_orders']));
      expect(all.suggestions.some((s) => s.includes('legacy'))).toBe(false);
      expect(new Set(all.suggestions).size).toBe(all.suggestions.length);
      expect(all.suggestions.every((s) => /(^|[^a-z0-9])cust/i.test(s))).toBe(true);
      const limited = await index().autocomplete({
        entityType: 'dataset',
        query: 'cust',
        field: 'name',
        limit: 1,
      });
      expect(limited.suggestions).toHaveLength(1);
      expect(limited.entities.length).toBeLessThanOrEqual(1);
      const dev = await index().autocomplete({
        entityType: 'dataset',
        query: 'cust',
        field: 'name',
        limit: 10,
        filter: { or: [{ and: [{ field: 'origin', values: ['DEV'], condition: 'EQUAL' }] }] },
      });
      expect(dev.suggestions).toEqual(['Customers']);
      expect(dev.entities).toHaveLength(1);
    });

    it('rejects an unknown field', async () => {
      await setup();
      await expect(
        index().autocomplete({ entityType: 'dataset', query: 'c', field: 'nosuch', limit: 5 }),
      ).rejects.toMatchObject({ code: 'VALIDATION' });
    });
  });
}
