import { PINNED_SDK_VERSION } from '@catalog/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  datasetUrn,
  enc,
  get,
  ingest,
  post,
  proposal,
  readAllVersions,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';

const PROPS = 'com.linkedin.dataset.DatasetProperties';
let catalog: TestCatalog;
let base: string;

beforeAll(async () => {
  catalog = await startTestCatalog();
  base = catalog.baseUrl;
});
afterAll(async () => catalog.dispose());

describe('writes through ingestProposal and reads through entitiesV2 and aspects', () => {
  it('stores a synchronous upsert as version 0 with its key aspect, readable at once', async () => {
    const urn = datasetUrn('db.orders');
    const write = await ingest(
      base,
      proposal(urn, 'datasetProperties', { description: 'Orders', customProperties: { team: 'sales' } }),
    );
    expect(write.status).toBe(200);
    expect(write.body).toEqual({ value: urn });

    const entity = await get(base, `/entitiesV2/${enc(urn)}`);
    expect(entity.status).toBe(200);
    const body = entity.body as {
      urn: string;
      entityName: string;
      aspects: Record<string, Record<string, unknown>>;
    };
    expect(body.urn).toBe(urn);
    expect(body.entityName).toBe('dataset');
    expect(body.aspects['datasetProperties']).toMatchObject({
      name: 'datasetProperties',
      version: 0,
      type: 'VERSIONED',
      value: { description: 'Orders', customProperties: { team: 'sales' } },
    });
    expect((body.aspects['datasetProperties']!['created'] as { actor: string }).actor).toMatch(
      /^urn:li:corpuser:/,
    );
    expect(body.aspects['datasetKey']?.['value']).toEqual({
      platform: 'urn:li:dataPlatform:hive',
      name: 'db.orders',
      origin: 'PROD',
    });
  });

  it('creates the default aspects of a new entity with it, as the ecosystem does, and only then', async () => {
    const urn = datasetUrn('warehouse.sales.defaults');
    await ingest(base, proposal(urn, 'datasetProperties', { description: 'first write' }));
    const body = (await get(base, `/entitiesV2/${enc(urn)}`)).body as {
      aspects: Record<string, Record<string, unknown>>;
    };
    expect(body.aspects['browsePathsV2']?.['value']).toEqual({
      path: [{ id: 'warehouse' }, { id: 'sales' }],
    });
    expect(body.aspects['dataPlatformInstance']?.['value']).toEqual({ platform: 'urn:li:dataPlatform:hive' });
    // Deleted defaults stay deleted: a later write to the existing entity does not recreate them.
    await ingest(base, {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'DELETE',
      aspectName: 'browsePathsV2',
    });
    await ingest(base, proposal(urn, 'datasetProperties', { description: 'second write' }));
    const after = (await get(base, `/entitiesV2/${enc(urn)}`)).body as { aspects: Record<string, unknown> };
    expect(Object.keys(after.aspects).sort()).toEqual([
      'dataPlatformInstance',
      'datasetKey',
      'datasetProperties',
    ]);
    // A default the first write brings itself is the one stored.
    const own = datasetUrn('warehouse.own_paths');
    const res = await post(base, '/aspects?action=ingestProposalBatch', {
      proposals: [
        proposal(own, 'browsePathsV2', { path: [{ id: 'mine' }] }),
        proposal(own, 'status', { removed: false }),
      ],
      async: 'false',
    });
    expect(res.status).toBe(200);
    const mine = (await get(base, `/entitiesV2/${enc(own)}`)).body as {
      aspects: Record<string, Record<string, unknown>>;
    };
    expect(mine.aspects['browsePathsV2']?.['value']).toEqual({ path: [{ id: 'mine' }] });
    expect(mine.aspects['browsePathsV2']?.['version']).toBe(0);
  });

  it('applies PATCH proposals to the latest value: a batch composes, a failing patch changes nothing', async () => {
    const urn = datasetUrn('db.patched');
    const patchOf = (operations: unknown) => ({
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'PATCH',
      aspectName: 'globalTags',
      aspect: { contentType: 'application/json-patch+json', value: JSON.stringify(operations) },
    });
    const add = (tag: string) => patchOf([{ op: 'add', path: `/tags/${tag}`, value: { tag } }]);
    const batch = await post(base, '/aspects?action=ingestProposalBatch', {
      proposals: [add('urn:li:tag:a'), add('urn:li:tag:b')],
      async: 'false',
    });
    expect(batch.status).toBe(200);
    const tags = async () =>
      (
        (await get(base, `/aspects/${enc(urn)}?aspect=globalTags&version=0`)).body as {
          aspect: Record<string, { tags: { tag: string }[] }>;
        }
      ).aspect['com.linkedin.common.GlobalTags']?.tags.map((t) => t.tag);
    expect(await tags()).toEqual(['urn:li:tag:a', 'urn:li:tag:b']);
    const failing = await ingest(
      base,
      patchOf([
        { op: 'remove', path: '/tags/urn:li:tag:a' },
        { op: 'test', path: '/tags/urn:li:tag:zzz', value: { tag: 'urn:li:tag:zzz' } },
      ]),
    );
    expect(failing.status).toBe(400);
    expect(failing.text).toContain('Invalid patch operation');
    const invalid = await ingest(
      base,
      patchOf([{ op: 'add', path: '/tags/x', value: { tag: 'not a urn' } }]),
    );
    expect(invalid.status).toBe(422);
    expect(await tags()).toEqual(['urn:li:tag:a', 'urn:li:tag:b']);
    const malformed = await ingest(base, patchOf({ nope: 1 }));
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('Invalid JSON Patch');
  });

  it('keeps history: a changed value moves the old one to version 1, an identical value makes no version', async () => {
    const urn = datasetUrn('db.history');
    await ingest(base, proposal(urn, 'datasetProperties', { description: 'first' }));
    await ingest(base, proposal(urn, 'datasetProperties', { description: 'second' }));
    await ingest(base, proposal(urn, 'datasetProperties', { description: 'second' }));
    const versions = await readAllVersions(base, urn, 'datasetProperties', PROPS);
    expect(versions.map((v) => (v as { description: string }).description)).toEqual(['second', 'first']);
    expect(versions).toHaveLength(2);

    const latest = await get(base, `/aspects/${enc(urn)}?aspect=datasetProperties&version=0`);
    expect(latest.body).toMatchObject({ version: 0, aspect: { [PROPS]: { description: 'second' } } });
  });

  it('answers a missing aspect with a bare 404 and a missing entity with an empty 200', async () => {
    const urn = datasetUrn('db.absent');
    const aspect = await get(base, `/aspects/${enc(urn)}?aspect=datasetProperties&version=0`);
    expect(aspect.status).toBe(404);
    expect(aspect.text).toBe('');
    const entity = await get(base, `/entitiesV2/${enc(urn)}`);
    expect(entity.status).toBe(200);
    expect(entity.body).toEqual({ urn, entityName: 'dataset', aspects: {} });
  });

  it('limits entitiesV2 to the aspects asked for with List(...)', async () => {
    const urn = datasetUrn('db.limited');
    await ingest(base, proposal(urn, 'status', { removed: false }));
    await ingest(base, proposal(urn, 'datasetProperties', { description: 'x' }));
    const res = await get(base, `/entitiesV2/${enc(urn)}?aspects=List(status)`);
    expect(Object.keys((res.body as { aspects: object }).aspects)).toEqual(['status']);
  });

  it('reads many entities at once with the batch form', async () => {
    const a = datasetUrn('db.batch_a');
    const b = datasetUrn('db.batch_b');
    await ingest(base, proposal(a, 'status', { removed: false }));
    const res = await get(base, `/entitiesV2?ids=List(${enc(a)},${enc(b)})`);
    expect(res.status).toBe(200);
    const results = (res.body as { results: Record<string, { aspects: Record<string, unknown> }> }).results;
    expect(Object.keys(results['' + a]!.aspects).sort()).toEqual([
      'browsePathsV2',
      'dataPlatformInstance',
      'datasetKey',
      'status',
    ]);
    expect(results['' + b]!.aspects).toEqual({});
  });

  it('applies ingestProposalBatch and answers once every proposal is stored', async () => {
    const urns = Array.from({ length: 20 }, (_, i) => datasetUrn(`db.batch_${i}`));
    const res = await post(base, '/aspects?action=ingestProposalBatch', {
      proposals: urns.map((u, i) => proposal(u, 'datasetProperties', { description: `table ${i}` })),
      async: 'false',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ value: 'success' });
    for (const [i, u] of urns.entries()) {
      const r = await get(base, `/aspects/${enc(u)}?aspect=datasetProperties&version=0`);
      expect(r.body).toMatchObject({ aspect: { [PROPS]: { description: `table ${i}` } } });
    }
  });

  it('answers an async write at once and stores it shortly after', async () => {
    const urn = datasetUrn('db.async');
    const res = await ingest(base, proposal(urn, 'datasetProperties', { description: 'later' }), true);
    expect(res.status).toBe(200);
    const read = await waitUntil(
      () => get(base, `/aspects/${enc(urn)}?aspect=datasetProperties&version=0`),
      (r) => r.status === 200,
    );
    expect(read.body).toMatchObject({ aspect: { [PROPS]: { description: 'later' } } });
  });

  it('rejects CREATE of an aspect that exists, and stores it when absent', async () => {
    const urn = datasetUrn('db.create');
    const first = await ingest(
      base,
      proposal(urn, 'datasetProperties', { description: 'a' }, { changeType: 'CREATE' }),
    );
    expect(first.status).toBe(200);
    const second = await ingest(
      base,
      proposal(urn, 'datasetProperties', { description: 'b' }, { changeType: 'CREATE' }),
    );
    expect(second.status).toBe(412);
    expect(second.body).toMatchObject({ status: 412, message: expect.stringContaining('already exists') });
    const versions = await readAllVersions(base, urn, 'datasetProperties', PROPS);
    expect(versions).toEqual([expect.objectContaining({ description: 'a' })]);
  });

  it('creates an entity with a key-aspect write and CREATE_ENTITY', async () => {
    const urn = 'urn:li:corpuser:jdoe';
    const res = await ingest(base, { entityType: 'corpuser', entityUrn: urn, changeType: 'CREATE_ENTITY' });
    expect(res.status).toBe(200);
    const entity = await get(base, `/entitiesV2/${enc(urn)}`);
    expect(
      (entity.body as { aspects: Record<string, { value: unknown }> }).aspects['corpUserKey']?.value,
    ).toEqual({ username: 'jdoe' });
    const tag = await ingest(base, proposal('urn:li:tag:pii', 'tagKey', { name: 'pii' }));
    expect(tag.status).toBe(200);
  });

  it('deletes one aspect with DELETE, and the whole entity with a DELETE of its key aspect', async () => {
    const urn = datasetUrn('db.deleted');
    await ingest(base, proposal(urn, 'datasetProperties', { description: 'x' }));
    await ingest(base, proposal(urn, 'status', { removed: false }));
    const del = await ingest(base, {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'DELETE',
      aspectName: 'datasetProperties',
    });
    expect(del.status).toBe(200);
    let entity = await get(base, `/entitiesV2/${enc(urn)}`);
    expect(Object.keys((entity.body as { aspects: object }).aspects).sort()).toEqual([
      'browsePathsV2',
      'dataPlatformInstance',
      'datasetKey',
      'status',
    ]);

    const delEntity = await ingest(base, {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'DELETE',
      aspectName: 'datasetKey',
    });
    expect(delEntity.status).toBe(200);
    entity = await get(base, `/entitiesV2/${enc(urn)}`);
    expect((entity.body as { aspects: object }).aspects).toEqual({});
  });

  it('serves the legacy snapshot read and its 404', async () => {
    const urn = datasetUrn('db.snapshot');
    await ingest(base, proposal(urn, 'status', { removed: false }));
    const res = await get(base, `/entities/${enc(urn)}`);
    expect(res.status).toBe(200);
    const snapshot = (res.body as { value: Record<string, { urn: string; aspects: object[] }> }).value[
      'com.linkedin.metadata.snapshot.DatasetSnapshot'
    ];
    expect(snapshot?.urn).toBe(urn);
    expect(snapshot?.aspects).toContainEqual({ 'com.linkedin.common.Status': { removed: false } });
    const missing = await get(base, `/entities/${enc(datasetUrn('db.nothing'))}`);
    expect(missing.status).toBe(404);
    expect((missing.body as { message: string }).message).toContain('Did not find');
  });

  it('passes time-series aspects to the change log without storing a version', async () => {
    const urn = datasetUrn('db.profiled');
    const res = await ingest(
      base,
      proposal(urn, 'datasetProfile', { timestampMillis: 1_700_000_000_000, rowCount: 10, columnCount: 2 }),
    );
    expect(res.status).toBe(200);
    const entity = await get(base, `/entitiesV2/${enc(urn)}`);
    expect((entity.body as { aspects: object }).aspects).not.toHaveProperty('datasetProfile');
  });

  it('serves /health and the /config the SDK checks', async () => {
    const health = await get(base, '/health');
    expect(health.status).toBe(200);
    const config = await get(base, '/config');
    expect(config.body).toMatchObject({
      noCode: 'true',
      versions: { 'acryldata/datahub': { version: expect.any(String) } },
    });
    // The smoke suite's check: the CLI release managed ingestion runs, filled in (a release, not a placeholder).
    const cli = (config.body as { managedIngestion: { defaultCliVersion: string } }).managedIngestion
      .defaultCliVersion;
    expect(cli).toMatch(/^\d+(\.\w+)+$/);
    expect(cli).toBe(PINNED_SDK_VERSION);
  });
});
