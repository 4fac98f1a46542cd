import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  decodeMcp,
  defaultTopicNames,
  encodeMcl,
  genericAspectFromJson,
  genericAspectToJson,
  openEmbeddedEventLog,
  SchemaIds,
  type EventLog,
  type LogRecord,
  type MetadataChangeProposal,
} from '@catalog/events';
import { DEFINITION_MESSAGES } from '@catalog/model';
import { PROPOSAL_HEADERS } from '@catalog/runtime';
import type { AspectStore } from '@catalog/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { applyProposals } from './apply-proposals.js';
import { proposalRecord } from './proposal-records.testing.js';
import { openSqliteUnderTest, type StoreUnderTest } from './stores.testing.js';
import { startStructuredPropertyCleanup } from './structured-property-cleanup.js';
import type { PropertyNameHolders } from './structured-property-rules.js';

const STRING = 'urn:li:dataType:datahub.string';
const DATASET_TYPE = 'urn:li:entityType:datahub.dataset';

const propertyUrn = (name: string) => `urn:li:structuredProperty:io.test.${name}_${randomUUID().slice(0, 8)}`;
const datasetUrn = (name: string) =>
  `urn:li:dataset:(urn:li:dataPlatform:hive,hd.${name}_${randomUUID().slice(0, 8)},PROD)`;
const idOf = (urn: string) => urn.slice('urn:li:structuredProperty:'.length);

function mcp(
  entityType: string,
  entityUrn: string,
  changeType: MetadataChangeProposal['changeType'],
  aspectName: string,
  value?: unknown,
): MetadataChangeProposal {
  return {
    entityType,
    entityUrn,
    changeType,
    aspectName,
    ...(value === undefined ? {} : { aspect: genericAspectFromJson(value) }),
  };
}

const define = (urn: string, qualifiedName = idOf(urn)) =>
  mcp('structuredProperty', urn, 'UPSERT', 'propertyDefinition', {
    qualifiedName,
    valueType: STRING,
    cardinality: 'MULTIPLE',
    entityTypes: [DATASET_TYPE],
  });
const setStatus = (urn: string, removed: boolean) =>
  mcp('structuredProperty', urn, 'UPSERT', 'status', { removed });
const hardDelete = (urn: string) => mcp('structuredProperty', urn, 'DELETE', 'structuredPropertyKey');
const setValues = (entityUrn: string, ...propertyUrns: string[]) =>
  mcp('dataset', entityUrn, 'UPSERT', 'structuredProperties', {
    properties: propertyUrns.map((p) => ({ propertyUrn: p, values: [{ string: 'v' }] })),
  });

/** Name holders as the search side's definitions view would answer. */
function holders(
  entries: { urn: string; qualifiedName: string; state: 'active' | 'removed' | 'retired' }[],
): PropertyNameHolders {
  return {
    structuredPropertyNameHolders: async (names) =>
      entries
        .map((e) => ({ ...e, normalizedName: e.qualifiedName.replace(/\./g, '_') }))
        .filter((e) => names.includes(e.normalizedName)),
  };
}

describe('hard delete of a structured property (embedded store)', () => {
  let underTest: StoreUnderTest;
  let store: AspectStore;
  beforeEach(async () => {
    underTest = await openSqliteUnderTest();
    store = underTest.store;
  });
  afterEach(() => underTest.cleanup());

  const apply = (
    mcps: readonly MetadataChangeProposal[],
    options: { systemOperation?: boolean; propertyNames?: PropertyNameHolders } = {},
  ) =>
    applyProposals(
      mcps.map((m) =>
        proposalRecord(m, randomUUID(), Date.now(), { systemOperation: options.systemOperation }),
      ),
      store,
      undefined,
      options.propertyNames === undefined ? {} : { propertyNames: options.propertyNames },
    );

  it('refuses the hard delete of an active property, of its entity or its definition, and keeps it', async () => {
    const urn = propertyUrn('active');
    await apply([define(urn)]);
    for (const proposal of [
      hardDelete(urn),
      mcp('structuredProperty', urn, 'DELETE', 'propertyDefinition'),
    ]) {
      const effects = await apply([proposal]);
      expect(effects.outcomes).toEqual([
        expect.objectContaining({
          ok: false,
          code: 'SCHEMA_VALIDATION',
          message: DEFINITION_MESSAGES.hardDeleteActive(urn),
        }),
      ]);
      expect(effects.versioned).toEqual([]);
    }
    expect(await store.get(urn, 'propertyDefinition')).not.toBeNull();
  });

  it('lets the catalog itself (a system operation) hard delete an active property', async () => {
    const urn = propertyUrn('system');
    await apply([define(urn)]);
    const effects = await apply([hardDelete(urn)], { systemOperation: true });
    expect(effects.outcomes).toEqual([expect.objectContaining({ ok: true })]);
    expect(await store.getLatest(urn)).toEqual([]);
  });

  it('hard deletes a soft-deleted property: the definition change log first, the key last', async () => {
    const urn = propertyUrn('soft');
    await apply([define(urn), setStatus(urn, true)]);
    const effects = await apply([hardDelete(urn)]);
    expect(effects.outcomes).toEqual([expect.objectContaining({ ok: true })]);
    const order = effects.versioned.map((o) => [o.mcl.changeType, o.mcl.aspectName]);
    expect(order[0]).toEqual(['DELETE', 'propertyDefinition']);
    expect(order[order.length - 1]).toEqual(['DELETE', 'structuredPropertyKey']);
    expect(order.map(([, aspect]) => aspect).sort()).toEqual(
      ['propertyDefinition', 'status', 'structuredPropertyKey'].sort(),
    );
    expect(await store.getLatest(urn)).toEqual([]);
  });

  it('refuses a name whose hard-deleted holder keeps index mappings, in its . and _ forms and its own urn', async () => {
    const old = propertyUrn('gone');
    const name = idOf(old);
    const names = holders([{ urn: old, qualifiedName: name, state: 'retired' }]);
    for (const [urn, qualifiedName] of [
      [old, name],
      [propertyUrn('fresh'), name],
      [propertyUrn('underscored'), name.replace(/\./g, '_')],
    ] as const) {
      const effects = await apply([define(urn, qualifiedName)], { propertyNames: names });
      expect(effects.outcomes).toEqual([
        expect.objectContaining({
          ok: false,
          code: 'SCHEMA_VALIDATION',
          message: DEFINITION_MESSAGES.nameLeftover(urn, qualifiedName, { urn: old, qualifiedName: name }),
        }),
      ]);
      expect(await store.get(urn, 'propertyDefinition')).toBeNull();
    }
    // Once the mappings are cleaned up the holder is gone and the name is free again.
    const again = await apply([define(old, name)], { propertyNames: holders([]) });
    expect(again.outcomes).toEqual([expect.objectContaining({ ok: true })]);
  });

  it('refuses a name the search view still holds for a property the store no longer has', async () => {
    const held = propertyUrn('held');
    const urn = propertyUrn('new');
    const effects = await apply([define(urn, idOf(held))], {
      propertyNames: holders([{ urn: held, qualifiedName: idOf(held), state: 'active' }]),
    });
    expect(effects.outcomes).toEqual([
      expect.objectContaining({
        ok: false,
        message: DEFINITION_MESSAGES.nameLeftover(urn, idOf(held), { urn: held, qualifiedName: idOf(held) }),
      }),
    ]);
  });

  it('refuses re-creating a hard-deleted property the search view has not retired yet (its own urn, and the _ form)', async () => {
    // The distributed family: the store has dropped the property, the indexer has not consumed the
    // delete, so the view still holds it (active or soft-deleted): its mappings remain all the same.
    const old = propertyUrn('lagging');
    const name = idOf(old);
    await apply([define(old)]);
    await apply([mcp('structuredProperty', old, 'UPSERT', 'status', { removed: true })]);
    const deleted = await apply([mcp('structuredProperty', old, 'DELETE', 'structuredPropertyKey')]);
    expect(deleted.outcomes).toEqual([expect.objectContaining({ ok: true })]);
    for (const state of ['active', 'removed'] as const) {
      const names = holders([{ urn: old, qualifiedName: name, state }]);
      for (const [urn, qualifiedName] of [
        [old, name],
        [propertyUrn('lagging_twin'), name.replace(/\./g, '_')],
      ] as const) {
        const effects = await apply([define(urn, qualifiedName)], { propertyNames: names });
        expect(effects.outcomes).toEqual([
          expect.objectContaining({
            ok: false,
            message: DEFINITION_MESSAGES.nameLeftover(urn, qualifiedName, { urn: old, qualifiedName: name }),
          }),
        ]);
        expect(await store.get(urn, 'propertyDefinition')).toBeNull();
      }
    }
  });

  it('updates of an existing property are not judged against name holders', async () => {
    const urn = propertyUrn('kept');
    await apply([define(urn)]);
    const effects = await apply(
      [
        mcp('structuredProperty', urn, 'UPSERT', 'propertyDefinition', {
          ...defineValue(urn),
          displayName: 'K',
        }),
      ],
      { propertyNames: holders([{ urn, qualifiedName: idOf(urn), state: 'active' }]) },
    );
    expect(effects.outcomes).toEqual([expect.objectContaining({ ok: true })]);
  });
});

function defineValue(urn: string): Record<string, unknown> {
  return {
    qualifiedName: idOf(urn),
    valueType: STRING,
    cardinality: 'MULTIPLE',
    entityTypes: [DATASET_TYPE],
  };
}

describe('the value removal of a hard delete (embedded log and store)', () => {
  let underTest: StoreUnderTest;
  let store: AspectStore;
  let dir: string;
  let log: EventLog;
  const topics = { ...defaultTopicNames };
  beforeEach(async () => {
    underTest = await openSqliteUnderTest();
    store = underTest.store;
    dir = mkdtempSync(join(tmpdir(), 'sp-cleanup-'));
    log = await openEmbeddedEventLog({ directory: dir, pollIntervalMs: 10 });
    await log.ensureTopics([
      { name: topics.metadataChangeProposal },
      { name: topics.metadataChangeLogVersioned },
    ]);
  });
  afterEach(async () => {
    await log.close();
    await underTest.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Reads every proposal record produced so far. */
  async function proposals(): Promise<LogRecord[]> {
    const seen: LogRecord[] = [];
    const consumer = await log.consume({
      groupId: `reader-${randomUUID()}`,
      topics: [topics.metadataChangeProposal],
      fromBeginning: true,
      handler: async (batch) => void seen.push(...batch.records),
    });
    await consumer.ready;
    await new Promise((r) => setTimeout(r, 300));
    await consumer.stop();
    return seen;
  }

  it('proposes, through the log, a patch removing the property from every holder, once per holder', async () => {
    const gone = propertyUrn('gone');
    const kept = propertyUrn('kept');
    const holdersOf = [datasetUrn('a'), datasetUrn('b'), datasetUrn('c')];
    const bystander = datasetUrn('bystander');
    const apply = (mcps: MetadataChangeProposal[], systemOperation = false) =>
      applyProposals(
        mcps.map((m) => proposalRecord(m, randomUUID(), Date.now(), { systemOperation })),
        store,
      );
    await apply([define(gone), define(kept)]);
    await apply([...holdersOf.map((d) => setValues(d, gone, kept)), setValues(bystander, kept)]);
    await apply([setStatus(gone, true)]);
    const deleted = await apply([hardDelete(gone)]);
    const definitionDelete = deleted.versioned[0]!.mcl;
    expect(definitionDelete.aspectName).toBe('propertyDefinition');

    const cleanup = await startStructuredPropertyCleanup({
      log,
      store,
      topics,
      logger: pino({ level: 'silent' }),
      groupId: `cleanup-${randomUUID()}`,
    });
    await cleanup.ready;
    // The change log, twice (a redelivery after a crash): the patches keep their request ids.
    for (let i = 0; i < 2; i++)
      await log.produce(topics.metadataChangeLogVersioned, [
        { key: gone, value: encodeMcl(definitionDelete, SchemaIds.metadataChangeLog) },
      ]);
    await new Promise((r) => setTimeout(r, 500));
    await cleanup.stop();

    const produced = await proposals();
    expect(produced.every((r) => r.headers[PROPOSAL_HEADERS.systemOperation] === 'true')).toBe(true);
    const byEntity = new Map(produced.map((r) => [decodeMcp(r.value).entityUrn, r]));
    expect([...byEntity.keys()].sort()).toEqual([...holdersOf].sort());
    expect(new Set(produced.map((r) => r.headers[PROPOSAL_HEADERS.requestId])).size).toBe(holdersOf.length);
    const patch = decodeMcp(produced[0]!.value);
    expect(patch.changeType).toBe('PATCH');
    expect(genericAspectToJson(patch.aspect!)).toMatchObject({
      patch: [{ op: 'remove', path: `/properties/${gone}` }],
    });

    // Applied by persistence, they remove the values and nothing else.
    const applied = await applyProposals(produced, store);
    expect(applied.outcomes.every((o) => o.ok)).toBe(true);
    for (const holder of holdersOf)
      expect((await store.get(holder, 'structuredProperties'))?.value).toEqual({
        properties: [{ propertyUrn: kept, values: [{ string: 'v' }] }],
      });
    expect((await store.get(bystander, 'structuredProperties'))?.value).toEqual({
      properties: [{ propertyUrn: kept, values: [{ string: 'v' }] }],
    });
  });
});
