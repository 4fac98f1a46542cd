import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql } from './graphql-client.js';
import {
  SYSTEM_AUTH_HEADERS,
  datasetUrn,
  get,
  post,
  proposal,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';

/**
 * Structured properties in search (spec 2.6, 2.7, 3.2, 3.3, 4.1, 4.6, 7, 8), on each family: definitions
 * and values written through Rest.li ingestProposal, searched through GraphQL searchAcrossEntities,
 * scrollAcrossEntities and aggregateAcrossEntities, and Rest.li `/entities?action=search` with filters.
 */

const RESTLI = { 'Content-Type': 'application/json', 'X-RestLi-Protocol-Version': '2.0.0' };

/** One proposal through `POST /aspects?action=ingestProposal`, answered once stored and indexed. */
async function ingest(base: string, p: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${base}/aspects?action=ingestProposal`, {
    method: 'POST',
    headers: { ...SYSTEM_AUTH_HEADERS, ...RESTLI, 'X-Wait-For-Index': 'true' },
    body: JSON.stringify({ proposal: p }),
  });
  if (res.status !== 200) throw new Error(`ingestProposal failed: ${res.status} ${await res.text()}`);
}

const SEARCH = `query($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) { total searchResults { entity { urn } } }
}`;
const SCROLL = `query($input: ScrollAcrossEntitiesInput!) {
  scrollAcrossEntities(input: $input) { nextScrollId searchResults { entity { urn type } } }
}`;
const AGGREGATE = `query($input: AggregateAcrossEntitiesInput!) {
  aggregateAcrossEntities(input: $input) { facets { field aggregations { value count } } }
}`;

type Criterion = { field: string; condition: string; values?: string[] };

for (const family of FAMILIES) {
  if (family.skip)
    console.warn(`skipping structured properties search e2e on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`structured properties in search on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    const run = `r${Math.random().toString(36).slice(2, 8)}`;
    const qn = (name: string) => `io.${run}.${name}`;
    const property = (name: string) => `urn:li:structuredProperty:${qn(name)}`;
    const field = (name: string) => `structuredProperties.${qn(name)}`;
    const orders = datasetUrn(`${run}.orders`);
    const customers = datasetUrn(`${run}.customers`);
    const events = datasetUrn(`${run}.events`);
    const unique = `archive${run}`;

    const definition = (name: string, type: string, extra: Record<string, unknown> = {}) =>
      proposal(property(name), 'propertyDefinition', {
        qualifiedName: qn(name),
        valueType: `urn:li:dataType:datahub.${type}`,
        cardinality: 'MULTIPLE',
        entityTypes: ['urn:li:entityType:datahub.dataset'],
        ...extra,
      });
    const values = (urn: string, assignments: Record<string, ({ string: string } | { double: number })[]>) =>
      proposal(urn, 'structuredProperties', {
        properties: Object.entries(assignments).map(([name, v]) => ({
          propertyUrn: property(name),
          values: v,
        })),
      });

    const search = async (and: Criterion[], query = '*'): Promise<string[]> => {
      const res = await graphql(base, SEARCH, {
        input: { types: ['DATASET'], query, start: 0, count: 50, orFilters: [{ and }] },
      });
      if (res.errors) throw new Error(JSON.stringify(res.errors));
      const results = (res.data?.['searchAcrossEntities'] as { searchResults: { entity: { urn: string } }[] })
        .searchResults;
      return results.map((r) => r.entity.urn).sort();
    };
    const aggregate = async (facets: string[], maxAggValues = 100) => {
      const res = await graphql(base, AGGREGATE, {
        input: { types: [], facets, query: '*', orFilters: [], searchFlags: { maxAggValues } },
      });
      if (res.errors) throw new Error(JSON.stringify(res.errors));
      const found = (
        res.data?.['aggregateAcrossEntities'] as {
          facets: { field: string; aggregations: { value: string; count: number }[] }[];
        }
      ).facets;
      return Object.fromEntries(found.map((f) => [f.field, f.aggregations]));
    };
    const restliSearch = (filter: unknown) =>
      post(base, '/entities?action=search', { input: '*', entity: 'dataset', start: 0, count: 50, filter });

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      await ingest(base, definition('retentionTime', 'number'));
      await ingest(base, definition('retentionPolicy', 'string'));
      await ingest(base, definition('deprecationDate', 'date'));
      await ingest(base, definition('tier', 'string'));
      await ingest(
        base,
        values(orders, {
          retentionTime: [{ double: 60 }],
          retentionPolicy: [{ string: '30d' }, { string: unique }],
          deprecationDate: [{ string: '2020-10-01' }],
          tier: [{ string: 'gold' }],
        }),
      );
      await ingest(
        base,
        values(customers, {
          retentionTime: [{ double: 365 }, { double: 42.5 }],
          retentionPolicy: [{ string: 'forever' }],
          deprecationDate: [{ string: '2021-01-05' }],
        }),
      );
      await ingest(base, values(events, { retentionTime: [{ double: 30 }] }));
    }, 180_000);
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('filters numbers and dates as such, strings exactly, through searchAcrossEntities', async () => {
      expect(
        await search([{ field: field('retentionTime'), condition: 'GREATER_THAN', values: ['45.0'] }]),
      ).toEqual([orders, customers].sort());
      expect(await search([{ field: field('retentionTime'), condition: 'EQUAL', values: ['30'] }])).toEqual([
        events,
      ]);
      expect(
        await search([{ field: field('retentionTime'), condition: 'IN', values: ['30', '60'] }]),
      ).toEqual([orders, events].sort());
      expect(await search([{ field: field('retentionTime'), condition: 'EXISTS' }])).toEqual(
        [orders, customers, events].sort(),
      );
      expect(
        await search([{ field: field('retentionPolicy'), condition: 'EQUAL', values: ['30d'] }]),
      ).toEqual([orders]);
      expect(
        await search([
          { field: field('deprecationDate'), condition: 'LESS_THAN_OR_EQUAL_TO', values: ['2020-12-31'] },
        ]),
      ).toEqual([orders]);
      expect(
        await search([
          { field: field('deprecationDate'), condition: 'GREATER_THAN', values: ['2020-10-01'] },
        ]),
      ).toEqual([customers]);
      // The ecosystem's own smoke test names the stored field (dots as underscores).
      expect(
        await search([{ field: `structuredProperties.io_${run}_retentionTime`, condition: 'EXISTS' }]),
      ).toEqual([orders, customers, events].sort());
      // Structured properties take no part in full-text search.
      expect(await search([], unique)).toEqual([]);
    });

    it('scrolls with an EXISTS filter as the tutorial does', async () => {
      const res = await graphql(base, SCROLL, {
        input: {
          types: ['DATASET'],
          count: 10,
          query: '*',
          orFilters: [{ and: [{ field: field('retentionPolicy'), condition: 'EXISTS' }] }],
        },
      });
      expect(res.errors).toBeUndefined();
      const urns = (
        res.data?.['scrollAcrossEntities'] as { searchResults: { entity: { urn: string } }[] }
      ).searchResults
        .map((r) => r.entity.urn)
        .sort();
      expect(urns).toEqual([orders, customers].sort());
    });

    it('aggregates as the ecosystem prints: numbers 60.0, dates as written, maxAggValues honoured', async () => {
      const facets = await aggregate([
        field('retentionTime'),
        field('retentionPolicy'),
        field('deprecationDate'),
      ]);
      expect(facets[field('retentionTime')]).toEqual([
        { value: '30.0', count: 1 },
        { value: '42.5', count: 1 },
        { value: '60.0', count: 1 },
        { value: '365.0', count: 1 },
      ]);
      expect(facets[field('retentionPolicy')]).toEqual(
        expect.arrayContaining([
          { value: '30d', count: 1 },
          { value: 'forever', count: 1 },
          { value: unique, count: 1 },
        ]),
      );
      expect(facets[field('deprecationDate')]).toEqual([
        { value: '2020-10-01', count: 1 },
        { value: '2021-01-05', count: 1 },
      ]);
      expect((await aggregate([field('retentionTime')], 2))[field('retentionTime')]).toHaveLength(2);
    });

    it('filters through Rest.li search; an unknown property is a 400 naming it', async () => {
      const res = await restliSearch({
        or: [{ and: [{ field: field('retentionTime'), condition: 'GREATER_THAN', values: ['45'] }] }],
      });
      expect(res.status).toBe(200);
      expect([...(res.body as { value: { entities: string[] } }).value.entities].sort()).toEqual(
        [orders, customers].sort(),
      );
      const unknown = await restliSearch({
        or: [{ and: [{ field: field('nothing'), condition: 'EXISTS' }] }],
      });
      expect(unknown.status).toBe(400);
      expect((unknown.body as { message: string }).message).toContain(qn('nothing'));
      const gql = await graphql(base, SEARCH, {
        input: {
          types: ['DATASET'],
          query: '*',
          orFilters: [{ and: [{ field: field('nothing'), condition: 'EXISTS' }] }],
        },
      });
      expect(gql.errors?.[0]).toMatchObject({
        extensions: { code: 400 },
        message: expect.stringContaining(qn('nothing')),
      });
    });

    it('filters the OpenAPI cross-entity scroll; an unknown property is a 400 there too', async () => {
      const scroll = (criteria: Criterion[]) =>
        fetch(`${base}/openapi/v3/entity/scroll?count=50`, {
          method: 'POST',
          headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json' },
          body: JSON.stringify({ entities: ['dataset'], filter: { and: [{ criteria }] } }),
        });
      const ok = await scroll([{ field: field('retentionTime'), condition: 'GREATER_THAN', values: ['45'] }]);
      expect(ok.status).toBe(200);
      const body = (await ok.json()) as { entities: { urn: string }[] };
      expect(body.entities.map((e) => e.urn).sort()).toEqual([orders, customers].sort());
      const unknown = await scroll([{ field: field('nothing'), condition: 'EXISTS' }]);
      expect(unknown.status).toBe(400);
      expect(await unknown.text()).toContain(qn('nothing'));
    });

    it('refuses filters and facets on a soft-deleted property, until it is restored', async () => {
      await ingest(base, proposal(property('retentionPolicy'), 'status', { removed: true }));
      const message = `Cannot filter on deleted Structured Property [${property('retentionPolicy')}]`;
      const gql = await graphql(base, SEARCH, {
        input: {
          types: ['DATASET'],
          query: '*',
          orFilters: [{ and: [{ field: field('retentionPolicy'), condition: 'EXISTS' }] }],
        },
      });
      expect(gql.errors?.[0]).toMatchObject({ message, extensions: { code: 400 } });
      const facet = await graphql(base, AGGREGATE, {
        input: { types: ['DATASET'], query: '*', facets: [field('retentionPolicy')] },
      });
      expect(facet.errors?.[0]).toMatchObject({ message });
      const restli = await restliSearch({
        or: [{ and: [{ field: field('retentionPolicy'), condition: 'EXISTS' }] }],
      });
      expect(restli.status).toBe(400);
      expect((restli.body as { message: string }).message).toBe(message);

      await ingest(base, proposal(property('retentionPolicy'), 'status', { removed: false }));
      expect(
        await search([{ field: field('retentionPolicy'), condition: 'EQUAL', values: ['forever'] }]),
      ).toEqual([customers]);
    });

    it('searches only the newest version: older values leave search, stay stored, and stay out after a restore', async () => {
      expect(await search([{ field: field('tier'), condition: 'EQUAL', values: ['gold'] }])).toEqual([
        orders,
      ]);
      await ingest(base, definition('tier', 'number', { version: '20240614080000' }));
      expect(await search([{ field: field('tier'), condition: 'EXISTS' }])).toEqual([]);
      const stored = await get(
        base,
        `/aspects/${encodeURIComponent(orders)}?aspect=structuredProperties&version=0`,
      );
      expect(stored.text).toContain('gold');

      await ingest(base, values(customers, { tier: [{ double: 3 }] }));
      expect(await search([{ field: field('tier'), condition: 'GREATER_THAN', values: ['2'] }])).toEqual([
        customers,
      ]);
      expect((await aggregate([field('tier')]))[field('tier')]).toEqual([{ value: '3.0', count: 1 }]);

      // Restoring rebuilds the documents from the store: the same documents, the old value still out.
      const before = await aggregate([field('retentionTime'), field('tier'), field('deprecationDate')]);
      const restore = await post(base, '/gms/operations?action=restoreIndices', {
        urnLike: `%${run}%`,
        batchSize: 1000,
      });
      expect(restore.status).toBe(200);
      await waitUntil(
        async () => {
          const lag = await get(base, '/openapi/operations/messaging/mcl/consumer/lag');
          const groups = (
            lag.body as { consumerGroups: Record<string, Record<string, { metrics: { totalLag: number } }>> }
          ).consumerGroups;
          return Object.values(groups)
            .flatMap((topics) => Object.values(topics))
            .every((t) => t.metrics.totalLag === 0);
        },
        (done) => done,
        60_000,
      );
      await catalog.readModels.search.refresh();
      expect(await aggregate([field('retentionTime'), field('tier'), field('deprecationDate')])).toEqual(
        before,
      );
      expect(await search([{ field: field('tier'), condition: 'EXISTS' }])).toEqual([customers]);
    });
  });
}
