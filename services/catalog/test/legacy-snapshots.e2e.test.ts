import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callAs,
  datasetUrn,
  enc,
  get,
  logIn,
  post,
  request,
  startTestCatalog,
  type TestCatalog,
} from './harness.js';
import { FAMILIES } from './families.js';

const SNAP = 'com.linkedin.metadata.snapshot.';
const STAMP = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:etl' };

type Aspect = Record<string, unknown>;
const entity = (kind: string, urn: string, aspects: Aspect[]) => ({
  value: { [`${SNAP}${kind}Snapshot`]: { urn, aspects } },
});
const ingest = (base: string, body: unknown) => request(base, 'POST', '/entities?action=ingest', body);

interface Snapshot {
  urn: string;
  aspects: Aspect[];
}
function snapshotOf(body: unknown, kind: string): Snapshot {
  return (body as { value: Record<string, Snapshot> }).value[`${SNAP}${kind}Snapshot`]!;
}
function aspect(snapshot: Snapshot, recordName: string): Record<string, unknown> | undefined {
  return snapshot.aspects.find((a) => recordName in a)?.[recordName] as Record<string, unknown> | undefined;
}

for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping legacy snapshot e2e on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`legacy snapshot endpoints on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    const run = Math.random().toString(36).slice(2, 8);
    const orders = datasetUrn(`shop_${run}.orders`, 'mysql');

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
    });
    afterAll(async () => catalog?.dispose());

    it('ingests a DatasetSnapshot with several aspects and reads it back from /entities and /entitiesV2', async () => {
      const res = await ingest(base, {
        entity: entity('Dataset', orders, [
          {
            'com.linkedin.dataset.DatasetProperties': {
              description: 'One row per order',
              customProperties: { team: 'sales' },
              unknownField: 'dropped',
            },
          },
          { 'com.linkedin.common.GlobalTags': { tags: [{ tag: 'urn:li:tag:pii' }] } },
          {
            'com.linkedin.common.Ownership': {
              owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }],
              lastModified: STAMP,
            },
          },
          { 'com.linkedin.common.BrowsePaths': { paths: [`/prod/mysql/shop_${run}`] } },
          {
            'com.linkedin.schema.SchemaMetadata': {
              schemaName: 'orders',
              platform: 'urn:li:dataPlatform:mysql',
              version: 0,
              hash: '',
              platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
              fields: [
                {
                  fieldPath: 'id',
                  nativeDataType: 'int',
                  type: { type: { 'com.linkedin.schema.NumberType': {} } },
                },
                {
                  fieldPath: 'email',
                  nativeDataType: 'varchar',
                  type: { type: { 'com.linkedin.schema.StringType': {} } },
                },
              ],
            },
          },
        ]),
        systemMetadata: { runId: `run-${run}`, lastObserved: 1_700_000_000_000 },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.text).toBe('');

      const read = await get(base, `/entities/${enc(orders)}`);
      expect(read.status).toBe(200);
      const snapshot = snapshotOf(read.body, 'Dataset');
      expect(snapshot.urn).toBe(orders);
      expect(aspect(snapshot, 'com.linkedin.dataset.DatasetProperties')).toMatchObject({
        description: 'One row per order',
        customProperties: { team: 'sales' },
      });
      expect(aspect(snapshot, 'com.linkedin.dataset.DatasetProperties')).not.toHaveProperty('unknownField');
      expect(aspect(snapshot, 'com.linkedin.common.GlobalTags')).toEqual({
        tags: [{ tag: 'urn:li:tag:pii' }],
      });
      expect(aspect(snapshot, 'com.linkedin.metadata.key.DatasetKey')).toMatchObject({
        platform: 'urn:li:dataPlatform:mysql',
        name: `shop_${run}.orders`,
      });
      expect(aspect(snapshot, 'com.linkedin.schema.SchemaMetadata')).toMatchObject({ schemaName: 'orders' });

      // Only the aspects asked for, and the key aspect always.
      const some = await get(base, `/entities/${enc(orders)}?aspects=List(globalTags)`);
      expect(some.status).toBe(200);
      expect(
        snapshotOf(some.body, 'Dataset')
          .aspects.map((a) => Object.keys(a)[0])
          .sort(),
      ).toEqual(['com.linkedin.common.GlobalTags', 'com.linkedin.metadata.key.DatasetKey']);

      const v2 = await get(base, `/entitiesV2/${enc(orders)}`);
      const aspects = (v2.body as { aspects: Record<string, { value: unknown; systemMetadata?: Aspect }> })
        .aspects;
      expect(Object.keys(aspects)).toEqual(
        expect.arrayContaining([
          'datasetProperties',
          'globalTags',
          'ownership',
          'browsePaths',
          'schemaMetadata',
        ]),
      );
      expect(aspects['globalTags']?.systemMetadata).toMatchObject({ runId: `run-${run}` });
    });

    it('defaults the run id when systemMetadata is empty or absent', async () => {
      const a = datasetUrn(`shop_${run}.no_meta`, 'mysql');
      const b = datasetUrn(`shop_${run}.empty_meta`, 'mysql');
      const status = { 'com.linkedin.common.Status': { removed: false } };
      expect((await ingest(base, { entity: entity('Dataset', a, [status]) })).status).toBe(200);
      expect(
        (await ingest(base, { entity: entity('Dataset', b, [status]), systemMetadata: {} })).status,
      ).toBe(200);
      for (const urn of [a, b]) {
        const v2 = await get(base, `/entitiesV2/${enc(urn)}?aspects=List(status)`);
        const meta = (v2.body as { aspects: { status: { systemMetadata?: Aspect } } }).aspects.status
          .systemMetadata;
        expect(meta?.['runId'] ?? 'no-run-id-provided').toBe('no-run-id-provided');
      }
    });

    it('batch-ingests entities with their system metadata, and refuses mismatched lengths with 412', async () => {
      const one = datasetUrn(`shop_${run}.batch_one`, 'mysql');
      const two = datasetUrn(`shop_${run}.batch_two`, 'mysql');
      const props = (d: string) => ({ 'com.linkedin.dataset.DatasetProperties': { description: d } });
      const ok = await request(base, 'POST', '/entities?action=batchIngest', {
        entities: [entity('Dataset', one, [props('first')]), entity('Dataset', two, [props('second')])],
        systemMetadata: [{ runId: `batch-a-${run}` }, { runId: `batch-b-${run}` }],
      });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.text).toBe('');
      const batch = await get(base, `/entities?ids=List(${enc(one)},${enc(two)})`);
      expect(batch.status).toBe(200);
      const body = batch.body as {
        results: Record<string, { value: unknown }>;
        statuses: object;
        errors: object;
      };
      expect(body.statuses).toEqual({});
      expect(body.errors).toEqual({});
      expect(
        aspect(snapshotOf(body.results[one], 'Dataset'), 'com.linkedin.dataset.DatasetProperties'),
      ).toMatchObject({ description: 'first' });
      expect(
        aspect(snapshotOf(body.results[two], 'Dataset'), 'com.linkedin.dataset.DatasetProperties'),
      ).toMatchObject({ description: 'second' });
      const v2 = await get(base, `/entitiesV2/${enc(two)}?aspects=List(datasetProperties)`);
      expect(
        (v2.body as { aspects: { datasetProperties: { systemMetadata: Aspect } } }).aspects.datasetProperties
          .systemMetadata,
      ).toMatchObject({ runId: `batch-b-${run}` });

      const three = datasetUrn(`shop_${run}.batch_three`, 'mysql');
      const bad = await post(base, '/entities?action=batchIngest', {
        entities: [entity('Dataset', three, [props('x')])],
        systemMetadata: [{ runId: 'a' }, { runId: 'b' }],
      });
      expect(bad.status).toBe(412);
      expect((bad.body as { message: string }).message).toBe('entities and systemMetadata length must match');
      expect((await get(base, `/entities/${enc(three)}`)).status).toBe(404);
    });

    it('ingests chart, dashboard, corpuser and tag snapshots', async () => {
      const chart = `urn:li:chart:(looker,revenue_${run})`;
      const dashboard = `urn:li:dashboard:(looker,sales_${run})`;
      const user = `urn:li:corpuser:jdoe_${run}`;
      const tag = `urn:li:tag:legacy_${run}`;
      const lastModified = { created: STAMP, lastModified: STAMP };
      const cases: [string, string, Aspect, string][] = [
        [
          'Chart',
          chart,
          { 'com.linkedin.chart.ChartInfo': { title: 'Revenue', description: 'By day', lastModified } },
          'com.linkedin.chart.ChartInfo',
        ],
        [
          'Dashboard',
          dashboard,
          {
            'com.linkedin.dashboard.DashboardInfo': {
              title: 'Sales',
              description: 'Sales overview',
              charts: [chart],
              lastModified,
            },
          },
          'com.linkedin.dashboard.DashboardInfo',
        ],
        [
          'CorpUser',
          user,
          {
            'com.linkedin.identity.CorpUserInfo': {
              active: true,
              displayName: 'Jane Doe',
              email: 'jdoe@example.com',
            },
          },
          'com.linkedin.identity.CorpUserInfo',
        ],
        [
          'Tag',
          tag,
          { 'com.linkedin.tag.TagProperties': { name: `legacy_${run}` } },
          'com.linkedin.tag.TagProperties',
        ],
      ];
      for (const [kind, urn, value, recordName] of cases) {
        const res = await ingest(base, { entity: entity(kind, urn, [value]) });
        expect(res.status, `${kind}: ${res.text}`).toBe(200);
        const read = await get(base, `/entities/${enc(urn)}`);
        expect(read.status, kind).toBe(200);
        expect(aspect(snapshotOf(read.body, kind), recordName)).toMatchObject(
          value[recordName] as Record<string, unknown>,
        );
      }
      const dash = await get(base, `/entitiesV2/${enc(dashboard)}?aspects=List(dashboardInfo)`);
      expect(dash.body).toMatchObject({ aspects: { dashboardInfo: { value: { charts: [chart] } } } });
    });

    it('soft-deletes and restores through Status, as exists reports', async () => {
      const urn = datasetUrn(`shop_${run}.soft`, 'mysql');
      const exists = async (includeSoftDelete?: boolean) => {
        const res = await post(base, '/entities?action=exists', {
          urn,
          ...(includeSoftDelete === undefined ? {} : { includeSoftDelete }),
        });
        expect(res.status, res.text).toBe(200);
        return (res.body as { value: boolean }).value;
      };
      expect(await exists()).toBe(false);
      const status = (removed: boolean) => ({
        entity: entity('Dataset', urn, [{ 'com.linkedin.common.Status': { removed } }]),
      });
      expect((await ingest(base, status(false))).status).toBe(200);
      expect([await exists(), await exists(false), await exists(true)]).toEqual([true, true, true]);

      expect((await ingest(base, status(true))).status).toBe(200);
      expect([await exists(), await exists(false), await exists(true)]).toEqual([true, false, true]);
      const search = await post(base, '/entities?action=list', { entity: 'dataset', start: 0, count: 100 });
      expect((search.body as { value: { entities: string[] } }).value.entities).not.toContain(urn);

      expect((await ingest(base, status(false))).status).toBe(200);
      expect(await exists(false)).toBe(true);
      const listed = await post(base, '/entities?action=list', { entity: 'dataset', start: 0, count: 100 });
      expect(listed.status, listed.text).toBe(200);
      const value = (
        listed.body as { value: { entities: string[]; start: number; count: number; total: number } }
      ).value;
      expect(value.entities).toContain(urn);
      expect(value).toMatchObject({ start: 0, count: 100 });
      expect(value.total).toBeGreaterThanOrEqual(value.entities.length);
    });

    it('tags a schema field through EditableSchemaMetadata', async () => {
      const res = await ingest(base, {
        entity: entity('Dataset', orders, [
          {
            'com.linkedin.schema.EditableSchemaMetadata': {
              editableSchemaFieldInfo: [
                {
                  fieldPath: 'email',
                  description: 'Contact address',
                  globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] },
                },
              ],
            },
          },
        ]),
      });
      expect(res.status, res.text).toBe(200);
      const read = await get(base, `/entities/${enc(orders)}?aspects=List(editableSchemaMetadata)`);
      expect(
        aspect(snapshotOf(read.body, 'Dataset'), 'com.linkedin.schema.EditableSchemaMetadata'),
      ).toMatchObject({
        editableSchemaFieldInfo: [{ fieldPath: 'email', globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } }],
      });
      const found = await post(base, '/entities?action=list', {
        entity: 'dataset',
        start: 0,
        count: 100,
        filter: {
          or: [{ and: [{ field: 'editedFieldTags', values: ['urn:li:tag:pii'], condition: 'EQUAL' }] }],
        },
      });
      expect(found.status, found.text).toBe(200);
      expect((found.body as { value: { entities: string[] } }).value.entities).toContain(orders);
    });

    it('answers getBrowsePaths from the search index', async () => {
      const res = await post(base, '/entities?action=getBrowsePaths', { urn: orders });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ value: [`/prod/mysql/shop_${run}`] });
      const none = await post(base, '/entities?action=getBrowsePaths', {
        urn: datasetUrn(`shop_${run}.absent`, 'mysql'),
      });
      expect(none.body).toEqual({ value: [] });
    });

    it('answers 404 for an absent entity and leaves it out of a batch read', async () => {
      const absent = datasetUrn(`shop_${run}.absent`, 'mysql');
      const res = await get(base, `/entities/${enc(absent)}`);
      expect(res.status).toBe(404);
      expect((res.body as { message: string }).message).toBe(`Did not find ${absent}`);
      const batch = await get(base, `/entities?ids=List(${enc(absent)},${enc(orders)})`);
      expect(Object.keys((batch.body as { results: object }).results)).toEqual([orders]);
    });

    it('refuses unknown snapshots and aspects with a 400 naming them, and schema violations with 422', async () => {
      const urn = datasetUrn(`shop_${run}.bad`, 'mysql');
      const snapshot = await post(base, '/entities?action=ingest', {
        entity: { value: { [`${SNAP}NoSuchSnapshot`]: { urn, aspects: [] } } },
      });
      expect(snapshot.status).toBe(400);
      expect((snapshot.body as { message: string }).message).toContain('NoSuchSnapshot');

      const unknownAspect = await post(base, '/entities?action=ingest', {
        entity: entity('Dataset', urn, [{ 'com.linkedin.nope.NoSuchAspect': {} }]),
      });
      expect(unknownAspect.status).toBe(400);
      expect((unknownAspect.body as { message: string }).message).toContain('com.linkedin.nope.NoSuchAspect');

      const chartAspectOnDataset = await post(base, '/entities?action=ingest', {
        entity: entity('Dataset', urn, [
          { 'com.linkedin.chart.ChartInfo': { title: 't', description: 'd' } },
        ]),
      });
      expect(chartAspectOnDataset.status).toBe(400);

      const invalid = await post(base, '/entities?action=ingest', {
        entity: entity('Dataset', urn, [
          { 'com.linkedin.common.Status': { removed: false } },
          { 'com.linkedin.common.GlobalTags': { tags: 'not-a-list' } },
        ]),
      });
      expect(invalid.status).toBe(422);
      expect((invalid.body as { message: string }).message).toContain('GlobalTags');
      // Nothing of a refused request is written.
      expect((await get(base, `/entities/${enc(urn)}`)).status).toBe(404);
    });

    it('records the caller as the actor and guards the routes as the other writes and reads', async () => {
      const admin = `Bearer ${await logIn(base)}`;
      const urn = datasetUrn(`shop_${run}.guarded`, 'mysql');
      const props = { 'com.linkedin.dataset.DatasetProperties': { description: 'guarded' } };
      const byRoot = await callAs(base, 'POST', '/entities?action=ingest', admin, {
        entity: entity('Dataset', urn, [props]),
      });
      expect(byRoot.status, byRoot.text).toBe(200);
      const v2 = await get(base, `/entitiesV2/${enc(urn)}?aspects=List(datasetProperties)`);
      expect(v2.body).toMatchObject({
        aspects: { datasetProperties: { created: { actor: 'urn:li:corpuser:datahub' } } },
      });

      // A signed-up user: reads (the default view policy) but may not write.
      const invite = await callAs(base, 'POST', '/api/graphql', admin, {
        query: 'mutation { createInviteToken(input: {}) { inviteToken } }',
      });
      const inviteToken = (invite.body as { data: { createInviteToken: { inviteToken: string } } }).data
        .createInviteToken.inviteToken;
      const email = `legacy_${run}@example.com`;
      const signUp = await callAs(base, 'POST', '/signUp', undefined, {
        fullName: 'Legacy User',
        email,
        password: 'a long password 7',
        inviteToken,
        title: 'Engineer',
      });
      expect(signUp.status, signUp.text).toBe(200);
      const user = `Bearer ${await logIn(base, email, 'a long password 7')}`;
      const write = await callAs(base, 'POST', '/entities?action=ingest', user, {
        entity: entity('Dataset', urn, [{ 'com.linkedin.common.Status': { removed: true } }]),
      });
      expect(write.status, write.text).toBe(403);
      const batch = await callAs(base, 'POST', '/entities?action=batchIngest', user, {
        entities: [entity('Dataset', urn, [{ 'com.linkedin.common.Status': { removed: true } }])],
      });
      expect(batch.status, batch.text).toBe(403);
      expect((await callAs(base, 'GET', `/entities/${enc(urn)}`, user)).status).toBe(200);
      const exists = await callAs(base, 'POST', '/entities?action=exists', user, { urn });
      expect(exists.body).toEqual({ value: true });
      expect((await callAs(base, 'GET', `/entities/${enc(urn)}`, undefined)).status).toBe(401);
    });

    it('describes the new actions in the OpenAPI document and /restli/docs', async () => {
      const doc = await get(base, '/openapi/v3/api-docs?group=70-restli');
      const op = (doc.body as { paths: Record<string, Record<string, unknown>> }).paths['/entities']![
        'post'
      ] as {
        parameters: { name: string; schema: { enum: string[] } }[];
        requestBody: { content: { 'application/json': { schema: { examples: unknown[] } } } };
      };
      const actions = op.parameters.find((p) => p.name === 'action')!.schema.enum;
      expect(actions).toEqual(
        expect.arrayContaining(['ingest', 'batchIngest', 'exists', 'getBrowsePaths', 'list']),
      );
      expect(op.requestBody.content['application/json'].schema.examples.length).toBeGreaterThanOrEqual(8);
      const html = await fetch(`${base}/restli/docs`).then((r) => r.text());
      expect(html).toContain('batchIngest');
    });
  });
}
