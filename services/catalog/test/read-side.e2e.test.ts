import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SYSTEM_AUTH_HEADERS,
  datasetUrn,
  enc,
  get,
  post,
  proposal,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';
import { FAMILIES } from './families.js';

const WAIT = { 'X-Wait-For-Index': 'true' };

async function write(base: string, proposals: Record<string, unknown>[]): Promise<void> {
  const res = await fetch(`${base}/aspects?action=ingestProposalBatch`, {
    method: 'POST',
    headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', ...WAIT },
    body: JSON.stringify({ proposals, async: 'false' }),
  });
  if (res.status !== 200) throw new Error(`write failed: ${res.status} ${await res.text()}`);
}

interface SearchValue {
  numEntities: number;
  entities: string[];
  metadata: { searchResultMetadatas: { name: string; aggregations: Record<string, number> }[] };
}

async function search(base: string, body: Record<string, unknown>): Promise<SearchValue> {
  const res = await post(base, '/entities?action=search', {
    entity: 'dataset',
    start: 0,
    count: 100,
    ...body,
  });
  if (res.status !== 200) throw new Error(`search failed: ${res.status} ${res.text}`);
  return (res.body as { value: SearchValue }).value;
}

for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping read-side e2e on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`read side on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    const run = Math.random().toString(36).slice(2, 8);
    const orders = datasetUrn(`shop_${run}.orders`, 'postgres');
    const customers = datasetUrn(`shop_${run}.customers`, 'postgres');
    const clicks = datasetUrn(`web_${run}.clicks`, 'kafka', 'DEV');
    const chart = `urn:li:chart:(looker,revenue_${run})`;
    const flow = `urn:li:dataFlow:(airflow,etl_${run},prod)`;
    const job = `urn:li:dataJob:(${flow},load_orders)`;

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      await write(base, [
        proposal(orders, 'datasetProperties', {
          name: 'orders',
          description: 'One row per customer order, refreshed nightly',
          customProperties: { team: 'sales' },
          created: { time: 1_700_000_000_000 },
        }),
        proposal(orders, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:gold' }] }),
        proposal(orders, 'ownership', { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }] }),
        proposal(orders, 'browsePaths', { paths: [`/prod/postgres/shop_${run}`] }),
        proposal(orders, 'upstreamLineage', {
          upstreams: [
            {
              dataset: customers,
              type: 'TRANSFORMED',
              auditStamp: { time: 0, actor: 'urn:li:corpuser:etl' },
            },
          ],
        }),
        proposal(customers, 'datasetProperties', {
          name: 'customers',
          description: 'Customer master data',
          created: { time: 1_600_000_000_000 },
        }),
        proposal(customers, 'ownership', {
          owners: [{ owner: 'urn:li:corpuser:asmith', type: 'TECHNICAL_OWNER' }],
        }),
        proposal(clicks, 'datasetProperties', { name: 'clicks', description: 'Raw click stream events' }),
        proposal(clicks, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
        proposal(clicks, 'browsePaths', { paths: [`/dev/kafka/web_${run}/clicks`] }),
        proposal(chart, 'chartInfo', {
          title: `Revenue ${run}`,
          description: 'Revenue by day',
          lastModified: {
            created: { time: 0, actor: 'urn:li:corpuser:x' },
            lastModified: { time: 0, actor: 'urn:li:corpuser:x' },
          },
          inputs: [{ string: orders }],
        }),
        proposal(flow, 'dataFlowInfo', { name: `etl_${run}` }),
        proposal(job, 'dataJobInfo', { name: 'load_orders', type: { string: 'COMMAND' } }),
        proposal(job, 'dataJobInputOutput', { inputDatasets: [customers], outputDatasets: [orders] }),
      ]);
    });
    afterAll(async () => catalog?.dispose());

    const mine = (urns: string[]) => urns.filter((u) => u.includes(run));

    it('finds entities by full text, ranking a name match above a description match', async () => {
      const byName = await search(base, { input: 'orders' });
      expect(mine(byName.entities)[0]).toBe(orders);
      const byDescription = await search(base, { input: 'nightly' });
      expect(mine(byDescription.entities)).toEqual([orders]);
      const all = await search(base, { input: '*' });
      expect(mine(all.entities).sort()).toEqual([clicks, customers, orders].sort());
    });

    it('answers the colon form as an exact match on a field', async () => {
      const res = await search(base, { input: `name:customers` });
      expect(mine(res.entities)).toEqual([customers]);
    });

    it('filters with every kind of condition, negation and or/and nesting', async () => {
      const f = (field: string, condition: string, values: string[], negated = false) => ({
        field,
        condition,
        values,
        negated,
      });
      const only = async (filter: unknown) =>
        mine((await search(base, { input: '*', filter })).entities).sort();
      expect(await only({ or: [{ and: [f('platform', 'EQUAL', ['urn:li:dataPlatform:kafka'])] }] })).toEqual([
        clicks,
      ]);
      expect(await only({ or: [{ and: [f('origin', 'EQUAL', ['DEV'])] }] })).toEqual([clicks]);
      expect(await only({ or: [{ and: [f('origin', 'EQUAL', ['DEV'], true)] }] })).toEqual(
        [customers, orders].sort(),
      );
      expect(
        await only({
          or: [
            {
              and: [
                f('tags', 'EQUAL', ['urn:li:tag:pii']),
                f('platform', 'EQUAL', ['urn:li:dataPlatform:postgres']),
              ],
            },
          ],
        }),
      ).toEqual([orders]);
      expect(
        await only({
          or: [
            { and: [f('owners', 'EQUAL', ['urn:li:corpuser:asmith'])] },
            { and: [f('origin', 'EQUAL', ['DEV'])] },
          ],
        }),
      ).toEqual([clicks, customers].sort());
      expect(await only({ or: [{ and: [f('description', 'CONTAIN', ['click'])] }] })).toEqual([clicks]);
      expect(await only({ or: [{ and: [f('name', 'START_WITH', ['cust'])] }] })).toEqual([customers]);
      expect(await only({ or: [{ and: [f('name', 'END_WITH', ['ders'])] }] })).toEqual([orders]);
      expect(await only({ or: [{ and: [f('name', 'IEQUAL', ['ORDERS'])] }] })).toEqual([orders]);
      expect(await only({ or: [{ and: [f('createdAt', 'GREATER_THAN', ['1650000000000'])] }] })).toEqual([
        orders,
      ]);
      expect(
        await only({ or: [{ and: [f('createdAt', 'LESS_THAN_OR_EQUAL_TO', ['1600000000000'])] }] }),
      ).toEqual([customers]);
      expect(await only({ or: [{ and: [f('hasOwners', 'EQUAL', ['true'])] }] })).toEqual(
        [customers, orders].sort(),
      );
      expect(await only({ criteria: [{ field: 'origin', value: 'DEV', condition: 'EQUAL' }] })).toEqual([
        clicks,
      ]);
    });

    it('pages with start and count and reports aggregations over the whole match set', async () => {
      const input = `${run}`;
      const page1 = await search(base, { input, count: 2, start: 0 });
      const page2 = await search(base, { input, count: 2, start: 2 });
      expect(page1.numEntities).toBe(3);
      expect(page1.entities).toHaveLength(2);
      expect(page2.entities).toHaveLength(1);
      expect(new Set([...page1.entities, ...page2.entities]).size).toBe(3);
      const platform = page1.metadata.searchResultMetadatas.find((m) => m.name === 'platform');
      expect(platform?.aggregations).toEqual({
        'urn:li:dataPlatform:postgres': 2,
        'urn:li:dataPlatform:kafka': 1,
      });
    });

    it('browses folders: groups with counts, then the entities whose path (given, or derived from the urn) is the folder', async () => {
      const res = await post(base, '/entities?action=browse', {
        entity: 'dataset',
        path: '/prod/postgres',
        start: 0,
        limit: 10,
      });
      expect(res.status).toBe(200);
      const value = (res.body as { value: { groups: { name: string; count: number }[] } }).value;
      expect(value.groups).toContainEqual({ name: `shop_${run}`, count: 2 });
      const leaf = await post(base, '/entities?action=browse', {
        entity: 'dataset',
        path: `/prod/postgres/shop_${run}`,
        start: 0,
        limit: 10,
      });
      const entities = (
        leaf.body as { value: { entities: { urn: string }[]; metadata: { totalNumEntities: number } } }
      ).value;
      expect(entities.entities.map((e) => e.urn).sort()).toEqual([customers, orders].sort());
      // As the ecosystem counts it: the entities inside groups below the path, none in a leaf folder.
      expect(entities.metadata.totalNumEntities).toBe(0);
    });

    it('autocompletes names by prefix', async () => {
      const res = await post(base, '/entities?action=autocomplete', {
        entity: 'dataset',
        query: 'cust',
        limit: 10,
      });
      expect(res.status).toBe(200);
      expect((res.body as { value: { suggestions: string[] } }).value.suggestions).toContain('customers');
    });

    it('traverses relationships in both directions, with types as a value or List(...)', async () => {
      const owned = await get(base, `/relationships?direction=OUTGOING&urn=${enc(orders)}&types=OwnedBy`);
      expect(owned.body).toMatchObject({ entities: ['urn:li:corpuser:jdoe'], total: 1 });
      const downstream = await get(
        base,
        `/relationships?direction=INCOMING&urn=${enc(customers)}&types=List(DownstreamOf,Consumes)`,
      );
      expect((downstream.body as { entities: string[] }).entities.sort()).toEqual([job, orders].sort());
      const partOf = await get(base, `/relationships?direction=INCOMING&urn=${enc(flow)}&types=IsPartOf`);
      expect((partOf.body as { entities: string[] }).entities).toEqual([job]);
    });

    it('serves time-series values newest first, as escaped JSON, within a time range', async () => {
      await write(
        base,
        [1, 2, 3].map((day) =>
          proposal(orders, 'datasetProfile', {
            timestampMillis: 1_700_000_000_000 + day * 86_400_000,
            rowCount: day * 100,
            columnCount: 5,
          }),
        ),
      );
      const res = await post(base, '/aspects?action=getTimeseriesAspectValues', {
        urn: orders,
        entity: 'dataset',
        aspect: 'datasetProfile',
        startTimeMillis: 1_700_000_000_000 + 2 * 86_400_000,
        endTimeMillis: 1_700_000_000_000 + 3 * 86_400_000,
      });
      expect(res.status).toBe(200);
      const value = (
        res.body as {
          value: { aspectName: string; values: { aspect: { value: string; contentType: string } }[] };
        }
      ).value;
      expect(value.aspectName).toBe('datasetProfile');
      expect(value.values.map((v) => (JSON.parse(v.aspect.value) as { rowCount: number }).rowCount)).toEqual([
        300, 200,
      ]);
      expect(value.values[0]!.aspect.contentType).toBe('application/json');
    });

    it('hides a soft-deleted entity from search, browse and autocomplete, keeps its page, and brings it back', async () => {
      await write(base, [proposal(customers, 'status', { removed: true })]);
      expect(mine((await search(base, { input: 'customers' })).entities)).toEqual([]);
      const leaf = await post(base, '/entities?action=browse', {
        entity: 'dataset',
        path: `/prod/postgres/shop_${run}`,
        start: 0,
        limit: 10,
      });
      expect(
        (leaf.body as { value: { entities: { urn: string }[] } }).value.entities.map((e) => e.urn),
      ).toEqual([orders]);
      const auto = await post(base, '/entities?action=autocomplete', {
        entity: 'dataset',
        query: 'cust',
        limit: 10,
      });
      expect((auto.body as { value: { suggestions: string[] } }).value.suggestions).not.toContain(
        'customers',
      );
      const page = await get(base, `/entitiesV2/${enc(customers)}`);
      expect((page.body as { aspects: Record<string, unknown> }).aspects).toHaveProperty('datasetProperties');

      await write(base, [proposal(customers, 'status', { removed: false })]);
      expect(mine((await search(base, { input: 'customers' })).entities)).toEqual([customers]);
    });

    it('restores wiped indices from the store, document for document', async () => {
      const urns = [orders, customers, clicks];
      const before = await Promise.all(urns.map((u) => catalog.readModels.search.getDocument('dataset', u)));
      expect(before.every((d) => d !== null)).toBe(true);
      await catalog.readModels.search.delete(urns.map((urn) => ({ entityType: 'dataset', urn })));
      await catalog.readModels.search.refresh();
      expect(mine((await search(base, { input: '*' })).entities)).toEqual([]);

      const res = await post(base, '/gms/operations?action=restoreIndices', {
        urnLike: `%${run}%`,
        batchSize: 1000,
      });
      expect(res.status).toBe(200);
      expect((res.body as { value: string }).value).toMatch(/Restored \d+ aspects/);
      await waitUntil(
        async () =>
          (await get(base, '/openapi/operations/messaging/mcl/consumer/lag')).body as {
            consumerGroups: Record<string, Record<string, { metrics: { totalLag: number } }>>;
          },
        (lag) =>
          Object.values(lag.consumerGroups).every((t) =>
            Object.values(t).every((m) => m.metrics.totalLag === 0),
          ),
        30_000,
      );
      await catalog.readModels.search.refresh();
      const after = await Promise.all(urns.map((u) => catalog.readModels.search.getDocument('dataset', u)));
      expect(after).toEqual(before);
    });

    it('makes a write searchable before answering when asked with X-Wait-For-Index', async () => {
      const urn = datasetUrn(`late_${run}.table`, 'hive');
      await write(base, [
        proposal(urn, 'datasetProperties', { name: `late_${run}`, description: 'written last' }),
      ]);
      expect(mine((await search(base, { input: `late_${run}` })).entities)).toEqual([urn]);
    });

    it('answers bad search input with a 400 that names the problem', async () => {
      const bad = async (path: string, body: Record<string, unknown>, message: RegExp) => {
        const res = await post(base, path, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect((res.body as { message: string }).message).toMatch(message);
      };
      await bad(
        '/entities?action=search',
        { entity: 'spaceship', input: '*', start: 0, count: 10 },
        /spaceship/,
      );
      await bad(
        '/entities?action=search',
        {
          entity: 'dataset',
          input: '*',
          start: 0,
          count: 10,
          filter: { or: [{ and: [{ field: 'nope', values: ['x'], condition: 'EQUAL' }] }] },
        },
        /nope/,
      );
      await bad(
        '/entities?action=search',
        {
          entity: 'dataset',
          input: '*',
          start: 0,
          count: 10,
          filter: { or: [{ and: [{ field: 'createdAt', values: ['soon'], condition: 'GREATER_THAN' }] }] },
        },
        /createdAt|number|numeric/i,
      );
      await bad(
        '/entities?action=search',
        { entity: 'dataset', input: '*', start: 0, count: 10, filter: { or: 'everything' } },
        /filter/i,
      );
      await bad('/entities?action=search', { entity: 'dataset', input: '*', start: -1, count: 10 }, /start/);
      await bad(
        '/entities?action=search',
        { entity: 'dataset', input: '*', start: 0, count: 100_000 },
        /count/,
      );
      await bad('/entities?action=browse', { entity: 'dataset', path: '/', start: 0, limit: -5 }, /limit/);
      await bad(
        '/aspects?action=getTimeseriesAspectValues',
        { urn: orders, entity: 'dataset', aspect: 'datasetProperties' },
        /time-series/,
      );
      const rel = await get(base, `/relationships?direction=SIDEWAYS&urn=${enc(orders)}&types=OwnedBy`);
      expect(rel.status).toBe(400);
    });
  });
}
