import { randomUUID } from 'node:crypto';
import {
  decodeMcl,
  encodeMcl,
  genericAspectFromJson,
  type LogRecord,
  type MetadataChangeProposal,
} from '@catalog/events';
import type { AspectStore } from '@catalog/store';
import { isSkipped, mongoForTests } from '@catalog/testkit';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { proposalRecord, TEST_ACTOR } from './proposal-records.testing.js';
import { mongoDatabaseUnderTest, openSqliteUnderTest, type StoreUnderTest } from './stores.testing.js';
import {
  applyProposals,
  CREATE_CONFLICT_MESSAGE,
  CREATE_ENTITY_CONFLICT_MESSAGE,
  type ProposalEffects,
} from './apply-proposals.js';

const ACTOR = TEST_ACTOR;
const record = (mcp: MetadataChangeProposal, requestId?: string): LogRecord => proposalRecord(mcp, requestId);

function datasetUrn(name: string): string {
  return `urn:li:dataset:(urn:li:dataPlatform:hive,db.${name}_${randomUUID().slice(0, 8)},PROD)`;
}

function proposal(
  urn: string,
  changeType: MetadataChangeProposal['changeType'],
  aspectName?: string,
  value?: Record<string, unknown>,
  headers?: Record<string, string>,
): MetadataChangeProposal {
  return {
    entityType: 'dataset',
    entityUrn: urn,
    changeType,
    ...(aspectName === undefined ? {} : { aspectName }),
    ...(value === undefined ? {} : { aspect: genericAspectFromJson(value) }),
    ...(headers === undefined ? {} : { headers }),
  };
}

/** The versioned change logs, as (aspect, change type, value) in emission order. */
function changeLogs(effects: ProposalEffects): { aspect?: string; changeType: string; value?: unknown }[] {
  return effects.versioned.map(({ mcl }) => ({
    ...(mcl.aspectName === undefined ? {} : { aspect: mcl.aspectName }),
    changeType: mcl.changeType,
    ...(mcl.aspect === undefined ? {} : { value: JSON.parse(mcl.aspect.value.toString('utf8')) as unknown }),
  }));
}

async function aspectNames(store: AspectStore, urn: string): Promise<string[]> {
  return (await store.getLatest(urn)).map((a) => a.aspect).sort();
}

const NEW_DATASET_ASPECTS = ['browsePathsV2', 'dataPlatformInstance', 'datasetKey', 'datasetProperties'];

function createEntitySuite(open: () => Promise<StoreUnderTest>): void {
  let underTest: StoreUnderTest;
  let store: AspectStore;
  beforeEach(async () => {
    underTest = await open();
    store = underTest.store;
  });
  afterEach(() => underTest.cleanup());

  it('creates a new entity with CREATE_ENTITY of a non-key aspect: the aspect, its key and defaults', async () => {
    const urn = datasetUrn('fresh');
    const requestId = randomUUID();
    const effects = await applyProposals(
      [record(proposal(urn, 'CREATE_ENTITY', 'datasetProperties', { description: 'new' }), requestId)],
      store,
    );
    expect(effects.failed).toEqual([]);
    expect(effects.outcomes).toEqual([
      { requestId, ok: true, status: 'CREATED', urn, aspectName: 'datasetProperties' },
    ]);
    expect(await aspectNames(store, urn)).toEqual(NEW_DATASET_ASPECTS);
    expect((await store.get(urn, 'datasetProperties'))?.value).toMatchObject({ description: 'new' });
    expect(await store.listVersions(urn, 'datasetProperties')).toHaveLength(1);
    // One UPSERT change log per aspect stored, as for any new entity, all owned by the proposal.
    const logs = changeLogs(effects);
    expect(logs.map((l) => [l.aspect, l.changeType])).toEqual([
      ['datasetKey', 'UPSERT'],
      ['datasetProperties', 'UPSERT'],
      ['browsePathsV2', 'UPSERT'],
      ['dataPlatformInstance', 'UPSERT'],
    ]);
    expect(logs[1]?.value).toMatchObject({ description: 'new' });
    expect(effects.versioned.every((l) => l.requestId === requestId)).toBe(true);
    expect(effects.versioned.every((l) => l.mcl.created?.actor === ACTOR)).toBe(true);
  });

  it('materializes the entity of a time-series-only write: its key and defaults, once; the outcome stays TIMESERIES', async () => {
    const urn = datasetUrn('usage_only');
    const usage = (time: number) =>
      proposal(urn, 'UPSERT', 'datasetUsageStatistics', { timestampMillis: time, uniqueUserCount: 1 });
    const first = randomUUID();
    const second = randomUUID();
    const effects = await applyProposals([record(usage(1_000), first), record(usage(2_000), second)], store);
    expect(effects.failed).toEqual([]);
    expect(effects.outcomes.map((o) => [o.requestId, o.ok, o.ok ? o.status : o.code])).toEqual([
      [first, true, 'TIMESERIES'],
      [second, true, 'TIMESERIES'],
    ]);
    expect(effects.timeseries).toHaveLength(2);
    expect(await aspectNames(store, urn)).toEqual(['browsePathsV2', 'dataPlatformInstance', 'datasetKey']);
    expect(changeLogs(effects).map((l) => [l.aspect, l.changeType])).toEqual([
      ['datasetKey', 'UPSERT'],
      ['browsePathsV2', 'UPSERT'],
      ['dataPlatformInstance', 'UPSERT'],
    ]);
    // A later time-series write of the existing entity changes nothing stored and announces nothing.
    const later = await applyProposals([record(usage(3_000))], store);
    expect(later.failed).toEqual([]);
    expect(later.versioned).toEqual([]);
    expect(await store.listVersions(urn, 'datasetKey')).toHaveLength(1);
  });

  it('keeps an existing entity as it is on a time-series write, and a time-series delete creates nothing', async () => {
    const existing = datasetUrn('has_props');
    await applyProposals(
      [record(proposal(existing, 'UPSERT', 'datasetProperties', { description: 'd' }))],
      store,
    );
    const before = await store.getLatest(existing);
    const effects = await applyProposals(
      [
        record(
          proposal(existing, 'UPSERT', 'operation', {
            timestampMillis: 5,
            operationType: 'INSERT',
            lastUpdatedTimestamp: 5,
          }),
        ),
      ],
      store,
    );
    expect(effects.versioned).toEqual([]);
    expect(await store.getLatest(existing)).toEqual(before);
    const absent = datasetUrn('never');
    await applyProposals([record(proposal(absent, 'DELETE', 'datasetProfile'))], store);
    expect(await aspectNames(store, absent)).toEqual([]);
  });

  it('applies every CREATE_ENTITY of one batch for an entity the batch creates (the store as it was before the batch decides)', async () => {
    const urn = datasetUrn('batched');
    const effects = await applyProposals(
      [
        record(proposal(urn, 'CREATE_ENTITY', 'datasetProperties', { description: 'new' })),
        record(proposal(urn, 'CREATE_ENTITY', 'domains', { domains: ['urn:li:domain:a'] })),
      ],
      store,
    );
    expect(effects.failed).toEqual([]);
    expect(effects.outcomes.map((o) => o.ok)).toEqual([true, true]);
    expect((await store.get(urn, 'domains'))?.value).toMatchObject({ domains: ['urn:li:domain:a'] });
    // A later batch finds the entity and fails the same write.
    const again = await applyProposals(
      [record(proposal(urn, 'CREATE_ENTITY', 'domains', { domains: ['urn:li:domain:b'] }))],
      store,
    );
    expect(again.outcomes).toMatchObject([{ ok: false, message: CREATE_ENTITY_CONFLICT_MESSAGE }]);
  });

  it('fails CREATE_ENTITY of an existing entity with the ecosystem message, storing nothing', async () => {
    const urn = datasetUrn('existing');
    await applyProposals([record(proposal(urn, 'UPSERT', 'status', { removed: false }))], store);
    const before = await store.getLatest(urn);
    const requestId = randomUUID();
    const effects = await applyProposals(
      [record(proposal(urn, 'CREATE_ENTITY', 'datasetProperties', { description: 'late' }), requestId)],
      store,
    );
    expect(effects.outcomes).toEqual([
      {
        requestId,
        ok: false,
        code: 'CONFLICT',
        message: CREATE_ENTITY_CONFLICT_MESSAGE,
        urn,
        aspectName: 'datasetProperties',
      },
    ]);
    expect(CREATE_ENTITY_CONFLICT_MESSAGE).toBe(
      'Cannot perform CREATE_ENTITY if not exists since the entity key already exists.',
    );
    expect(effects.failed).toEqual([
      expect.objectContaining({ key: urn, error: CREATE_ENTITY_CONFLICT_MESSAGE }),
    ]);
    expect(effects.versioned).toEqual([]);
    expect(await store.get(urn, 'datasetProperties')).toBeNull();
    expect(await store.getLatest(urn)).toEqual(before);
  });

  it('drops CREATE_ENTITY of an existing entity silently with If-None-Match: *', async () => {
    const urn = datasetUrn('dropped');
    await applyProposals([record(proposal(urn, 'UPSERT', 'status', { removed: false }))], store);
    const requestId = randomUUID();
    const mcp = proposal(
      urn,
      'CREATE_ENTITY',
      'datasetProperties',
      { description: 'x' },
      { 'If-None-Match': '*' },
    );
    const effects = await applyProposals([record(mcp, requestId)], store);
    expect(effects.outcomes).toEqual([
      { requestId, ok: true, status: 'UNCHANGED', urn, aspectName: 'datasetProperties' },
    ]);
    expect(effects.failed).toEqual([]);
    expect(effects.versioned).toEqual([]);
    expect(await store.get(urn, 'datasetProperties')).toBeNull();
  });

  it('applies a redelivered batch once: the same outcomes and change logs, no second version', async () => {
    const urn = datasetUrn('redelivered');
    const batch = [
      record(proposal(urn, 'CREATE_ENTITY', 'datasetProperties', { description: 'once' })),
      record(proposal(urn, 'UPSERT', 'status', { removed: false })),
    ];
    const first = await applyProposals(batch, store);
    const stored = await store.getLatest(urn);
    const again = await applyProposals(batch, store);
    expect(again.outcomes).toEqual(first.outcomes);
    expect(again.failed).toEqual([]);
    expect(changeLogs(again)).toEqual(changeLogs(first));
    expect(await store.getLatest(urn)).toEqual(stored);
    expect(await store.listVersions(urn, 'datasetProperties')).toHaveLength(1);
    expect(await store.listVersions(urn, 'datasetKey')).toHaveLength(1);
  });

  it('emits the same change logs for a batch redelivered after later writes, a hard delete and a new entity', async () => {
    const urn = datasetUrn('moved-on');
    // A second apart each, so every write's lastObserved and audit stamp differ.
    let time = Date.now();
    const at = (mcp: MetadataChangeProposal) => proposalRecord(mcp, randomUUID(), (time += 1_000));
    const first = [
      at(proposal(urn, 'CREATE_ENTITY', 'datasetProperties', { description: 'one' })),
      at(proposal(urn, 'UPSERT', 'status', { removed: false })),
      at(proposal(urn, 'UPSERT', 'datasetProperties', { description: 'two' })),
    ];
    const second = [
      at(proposal(urn, 'UPSERT', 'datasetProperties', { description: 'three' })),
      // Seen again: version 0's system metadata is rewritten in place.
      at(proposal(urn, 'UPSERT', 'status', { removed: false })),
      at(proposal(urn, 'DELETE', 'datasetKey')),
    ];
    const firstEffects = await applyProposals(first, store);
    const secondEffects = await applyProposals(second, store);
    expect(changeLogs(secondEffects).map((l) => l.changeType)).toEqual([
      'UPSERT',
      'DELETE',
      'DELETE',
      'DELETE',
      'DELETE',
      'DELETE',
    ]);
    await applyProposals([at(proposal(urn, 'UPSERT', 'datasetProperties', { description: 'one' }))], store);
    const stored = await store.getLatest(urn);

    const firstAgain = await applyProposals(first, store);
    const secondAgain = await applyProposals(second, store);
    // Whole change logs: values, previous values and system metadata as first emitted.
    expect(firstAgain.versioned).toEqual(firstEffects.versioned);
    expect(firstAgain.outcomes).toEqual(firstEffects.outcomes);
    expect(secondAgain.versioned).toEqual(secondEffects.versioned);
    expect(secondAgain.outcomes).toEqual(secondEffects.outcomes);
    expect(await store.getLatest(urn)).toEqual(stored);
  });

  // The defaults are stored with the entity check (the write that creates the entity), so there is no
  // later step to stop before.
  it.each([['after the entity check', 2]])(
    'completes a batch whose first delivery stopped %s',
    async (_where, failingCall) => {
      const urn = datasetUrn('crashed');
      const requestId = randomUUID();
      const batch = [
        record(proposal(urn, 'CREATE_ENTITY', 'datasetProperties', { description: 'survives' }), requestId),
      ];
      let calls = 0;
      const crashing: AspectStore = Object.create(store, {
        applyBatch: {
          value: (writes: Parameters<AspectStore['applyBatch']>[0]) => {
            calls += 1;
            if (calls === failingCall) return Promise.reject(new Error('crash'));
            return store.applyBatch(writes);
          },
        },
      }) as AspectStore;
      await expect(applyProposals(batch, crashing)).rejects.toThrow('crash');

      const redelivered = await applyProposals(batch, store);
      expect(redelivered.outcomes).toEqual([
        { requestId, ok: true, status: 'CREATED', urn, aspectName: 'datasetProperties' },
      ]);
      expect(redelivered.failed).toEqual([]);
      expect(changeLogs(redelivered).map((l) => l.aspect)).toEqual([
        'datasetKey',
        'datasetProperties',
        'browsePathsV2',
        'dataPlatformInstance',
      ]);
      expect(await aspectNames(store, urn)).toEqual(NEW_DATASET_ASPECTS);
      expect(await store.listVersions(urn, 'datasetProperties')).toHaveLength(1);
    },
  );

  it('keeps batch order: an UPSERT after a CREATE_ENTITY of the same aspect wins', async () => {
    const urn = datasetUrn('ordered');
    const other = datasetUrn('other');
    const ids = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const effects = await applyProposals(
      [
        record(proposal(other, 'UPSERT', 'datasetProperties', { description: 'o1' }), ids[0]),
        record(proposal(urn, 'CREATE_ENTITY', 'datasetProperties', { description: 'first' }), ids[1]),
        record(proposal(urn, 'UPSERT', 'datasetProperties', { description: 'second' }), ids[2]),
        record(proposal(other, 'UPSERT', 'datasetProperties', { description: 'o2' }), ids[3]),
      ],
      store,
    );
    expect(effects.failed).toEqual([]);
    const statusOf = new Map(effects.outcomes.map((o) => [o.requestId, o.status]));
    expect(ids.map((id) => statusOf.get(id))).toEqual(['CREATED', 'CREATED', 'UPDATED', 'UPDATED']);
    expect((await store.get(urn, 'datasetProperties'))?.value).toMatchObject({ description: 'second' });
    expect((await store.listVersions(urn, 'datasetProperties')).map((v) => v.value)).toEqual([
      expect.objectContaining({ description: 'second' }),
      expect.objectContaining({ description: 'first' }),
    ]);
    expect((await store.get(other, 'datasetProperties'))?.value).toMatchObject({ description: 'o2' });
    expect(await aspectNames(store, urn)).toEqual(NEW_DATASET_ASPECTS);
  });

  it('fails a CREATE_ENTITY after a write that created the entity earlier in the same batch', async () => {
    const urn = datasetUrn('same-batch');
    const [upsert, create] = [randomUUID(), randomUUID()];
    const effects = await applyProposals(
      [
        record(proposal(urn, 'UPSERT', 'status', { removed: false }), upsert),
        record(proposal(urn, 'CREATE_ENTITY', 'datasetProperties', { description: 'no' }), create),
      ],
      store,
    );
    expect(effects.outcomes.find((o) => o.requestId === upsert)).toMatchObject({ ok: true });
    expect(effects.outcomes.find((o) => o.requestId === create)).toMatchObject({
      ok: false,
      message: CREATE_ENTITY_CONFLICT_MESSAGE,
    });
    expect(await store.get(urn, 'datasetProperties')).toBeNull();
  });

  it('still creates an entity with CREATE_ENTITY of its key aspect, and refuses it once it exists', async () => {
    const urn = datasetUrn('by-key');
    const first = await applyProposals([record(proposal(urn, 'CREATE_ENTITY'))], store);
    expect(first.outcomes).toEqual([
      expect.objectContaining({ ok: true, status: 'CREATED', aspectName: 'datasetKey' }),
    ]);
    expect(await aspectNames(store, urn)).toEqual(['browsePathsV2', 'dataPlatformInstance', 'datasetKey']);
    expect(changeLogs(first).map((l) => [l.aspect, l.changeType])).toEqual([
      ['datasetKey', 'UPSERT'],
      ['browsePathsV2', 'UPSERT'],
      ['dataPlatformInstance', 'UPSERT'],
    ]);

    const again = await applyProposals([record(proposal(urn, 'CREATE_ENTITY', 'datasetKey'))], store);
    expect(again.outcomes).toEqual([
      expect.objectContaining({ ok: false, code: 'CONFLICT', message: CREATE_ENTITY_CONFLICT_MESSAGE }),
    ]);
    const dropped = await applyProposals(
      [record(proposal(urn, 'CREATE_ENTITY', undefined, undefined, { 'If-None-Match': '*' }))],
      store,
    );
    expect(dropped.outcomes).toEqual([expect.objectContaining({ ok: true, status: 'UNCHANGED' })]);
    expect(dropped.failed).toEqual([]);
    expect(await store.listVersions(urn, 'datasetKey')).toHaveLength(1);
  });

  it('fails CREATE of an existing aspect with the ecosystem message, or drops it with If-None-Match: *', async () => {
    const urn = datasetUrn('create');
    await applyProposals([record(proposal(urn, 'CREATE', 'datasetProperties', { description: 'a' }))], store);
    const refused = await applyProposals(
      [record(proposal(urn, 'CREATE', 'datasetProperties', { description: 'b' }))],
      store,
    );
    expect(CREATE_CONFLICT_MESSAGE).toBe('Cannot perform CREATE since the aspect already exists.');
    expect(refused.outcomes).toEqual([
      expect.objectContaining({ ok: false, code: 'CONFLICT', message: CREATE_CONFLICT_MESSAGE }),
    ]);
    expect(refused.failed).toEqual([expect.objectContaining({ error: CREATE_CONFLICT_MESSAGE })]);
    const dropped = await applyProposals(
      [record(proposal(urn, 'CREATE', 'datasetProperties', { description: 'c' }, { 'if-none-match': '*' }))],
      store,
    );
    expect(dropped.outcomes).toEqual([expect.objectContaining({ ok: true, status: 'UNCHANGED' })]);
    expect((await store.get(urn, 'datasetProperties'))?.value).toMatchObject({ description: 'a' });
  });
}

/** The outcome of one proposal applied alone. */
async function applyOne(store: AspectStore, mcp: MetadataChangeProposal): Promise<ProposalEffects> {
  return applyProposals([record(mcp)], store);
}

function systemMetadataSuite(open: () => Promise<StoreUnderTest>): void {
  let underTest: StoreUnderTest;
  let store: AspectStore;
  beforeEach(async () => {
    underTest = await open();
    store = underTest.store;
  });
  afterEach(() => underTest.cleanup());

  it('stores the version bookkeeping and no run id the writer did not send; the change log has the default', async () => {
    const urn = datasetUrn('bookkeeping');
    const mcp = {
      ...proposal(urn, 'UPSERT', 'datasetProperties', { description: 'one' }),
      systemMetadata: { properties: { eventSource: 'OPENAPI' } },
    };
    const effects = await applyOne(store, mcp);
    const sm = (await store.get(urn, 'datasetProperties'))?.systemMetadata;
    expect(sm).toEqual({
      properties: { eventSource: 'OPENAPI' },
      lastObserved: expect.any(Number),
      version: '1',
      schemaVersion: 1,
      aspectCreated: { actor: ACTOR, time: expect.any(Number) },
      aspectModified: { actor: ACTOR, time: expect.any(Number) },
    });
    expect(sm?.aspectModified).toEqual(sm?.aspectCreated);
    const logged = effects.versioned.find(({ mcl }) => mcl.aspectName === 'datasetProperties')?.mcl;
    expect(logged?.systemMetadata).toMatchObject({ version: '1', aspectCreated: sm?.aspectCreated });
    const wire = decodeMcl(encodeMcl(logged!)).systemMetadata;
    expect(wire).toMatchObject({
      runId: 'no-run-id-provided',
      lastRunId: 'no-run-id-provided',
      version: '1',
    });

    const withRun = await applyOne(store, {
      ...proposal(urn, 'UPSERT', 'datasetProperties', { description: 'two' }),
      systemMetadata: { runId: 'run-2' },
    });
    expect(withRun.failed).toEqual([]);
    expect((await store.get(urn, 'datasetProperties'))?.systemMetadata).toMatchObject({
      runId: 'run-2',
      version: '2',
      aspectCreated: sm?.aspectCreated,
    });
  });

  it("records each aspect's schema version: the write's its aspect's, its key's and defaults' their own", async () => {
    const urn = datasetUrn('schema');
    const lineage = {
      upstreams: [{ dataset: datasetUrn('up'), type: 'TRANSFORMED', auditStamp: { time: 0, actor: ACTOR } }],
    };
    await applyOne(store, proposal(urn, 'UPSERT', 'upstreamLineage', lineage));
    const schemaVersions = Object.fromEntries(
      (await store.getLatest(urn)).map((a) => [a.aspect, a.systemMetadata?.schemaVersion]),
    );
    expect(schemaVersions).toEqual({
      upstreamLineage: 2,
      datasetKey: 1,
      browsePathsV2: 1,
      dataPlatformInstance: 1,
    });
    // An identical write (UNCHANGED) takes the write's schema version over, as the ecosystem does.
    await applyOne(store, proposal(urn, 'UPSERT', 'upstreamLineage', lineage));
    expect((await store.get(urn, 'upstreamLineage'))?.systemMetadata?.schemaVersion).toBe(2);
  });

  it('compares If-Version-Match with the stored version: "-1" absent, then "1", "2"; an identical write keeps it', async () => {
    const urn = datasetUrn('conditional');
    const write = (version: string, removed: boolean) =>
      applyOne(store, proposal(urn, 'UPSERT', 'status', { removed }, { 'If-Version-Match': version }));
    const refused = async (version: string, removed: boolean) =>
      (await write(version, removed)).outcomes.map((o) => (o.ok ? o.status : `${o.code}: ${o.message}`));

    expect(await refused('1', false)).toEqual(['PRECONDITION: Expected version 1, actual version -1']);
    expect(await refused('-1', false)).toEqual(['CREATED']);
    expect((await store.get(urn, 'status'))?.systemMetadata?.version).toBe('1');
    expect(await refused('-1', true)).toEqual(['PRECONDITION: Expected version -1, actual version 1']);
    expect(await refused('1', true)).toEqual(['UPDATED']);
    expect((await store.get(urn, 'status'))?.systemMetadata?.version).toBe('2');
    expect(await refused('1', false)).toEqual(['PRECONDITION: Expected version 1, actual version 2']);
    expect(await refused('2', true)).toEqual(['UNCHANGED']);
    expect((await store.get(urn, 'status'))?.systemMetadata?.version).toBe('2');
    expect(await refused('2', false)).toEqual(['UPDATED']);
    expect((await store.get(urn, 'status'))?.systemMetadata?.version).toBe('3');
    expect(await store.listVersions(urn, 'status')).toHaveLength(3);
  });

  it('counts a patch like an upsert', async () => {
    const urn = datasetUrn('patched');
    const patch = (tag: string): MetadataChangeProposal => ({
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'PATCH',
      aspectName: 'globalTags',
      aspect: {
        value: Buffer.from(JSON.stringify([{ op: 'add', path: `/tags/${tag}`, value: { tag } }])),
        contentType: 'application/json-patch+json',
      },
    });
    await applyOne(store, patch('urn:li:tag:a'));
    await applyOne(store, patch('urn:li:tag:b'));
    const sm = (await store.get(urn, 'globalTags'))?.systemMetadata;
    expect(sm).toMatchObject({ version: '2', aspectModified: { actor: ACTOR } });
    expect(sm).not.toHaveProperty('runId');
  });

  it('materializes ownership.ownerTypes from the owners on an upsert and on a patch, replacing what the writer sent', async () => {
    const urn = datasetUrn('owned');
    const stamp = { time: 0, actor: 'urn:li:corpuser:unknown' };
    await applyOne(
      store,
      proposal(urn, 'UPSERT', 'ownership', {
        owners: [{ owner: 'urn:li:corpuser:ann', type: 'TECHNICAL_OWNER' }],
        ownerTypes: { 'urn:li:ownershipType:bogus': ['urn:li:corpuser:nobody'] },
        lastModified: stamp,
      }),
    );
    expect((await store.get(urn, 'ownership'))?.value['ownerTypes']).toEqual({
      'urn:li:ownershipType:__system__technical_owner': ['urn:li:corpuser:ann'],
    });
    const effects = await applyOne(store, {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'PATCH',
      aspectName: 'ownership',
      aspect: {
        value: Buffer.from(
          JSON.stringify([
            {
              op: 'add',
              path: '/owners/urn:li:corpuser:bob/urn:li:ownershipType:my.type',
              value: {
                owner: 'urn:li:corpuser:bob',
                type: 'CUSTOM',
                typeUrn: 'urn:li:ownershipType:my.type',
              },
            },
          ]),
        ),
        contentType: 'application/json-patch+json',
      },
    });
    const expected = {
      'urn:li:ownershipType:__system__technical_owner': ['urn:li:corpuser:ann'],
      'urn:li:ownershipType:my%2Etype': ['urn:li:corpuser:bob'],
    };
    expect((await store.get(urn, 'ownership'))?.value['ownerTypes']).toEqual(expected);
    expect(changeLogs(effects)[0]?.value).toMatchObject({ ownerTypes: expected });
  });
}

const openSqlite = openSqliteUnderTest;

describe('CREATE_ENTITY through persistence, on the embedded SQLite store', () => {
  createEntitySuite(openSqlite);
});

describe('system metadata through persistence, on the embedded SQLite store', () => {
  systemMetadataSuite(openSqlite);
});

const mongo = await mongoForTests();
// No MongoDB-wire server here (no MONGODB_URI, no Docker): say why, as the other real-service suites do.
if (isSkipped(mongo)) console.warn(`skipping the MongoDB-wire CREATE_ENTITY suite: ${mongo.skip}`);

describe.skipIf(isSkipped(mongo))('CREATE_ENTITY through persistence, on the MongoDB-wire store', () => {
  if (isSkipped(mongo)) return;
  const database = mongoDatabaseUnderTest(mongo.uri);
  afterAll(() => database.drop());
  const openMongo = () => database.open();
  describe('CREATE_ENTITY', () => createEntitySuite(openMongo));
  describe('system metadata', () => systemMetadataSuite(openMongo));
});
