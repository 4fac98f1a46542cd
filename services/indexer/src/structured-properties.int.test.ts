import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  defaultTopicNames,
  encodeMcl,
  openEmbeddedEventLog,
  SchemaIds,
  type EventLog,
} from '@catalog/events';
import { parseUrn, type StructuredPropertySettings } from '@catalog/model';
import { EntityProjector } from '@catalog/projection';
import { changeLogForStored } from '@catalog/runtime';
import {
  openEmbeddedSearch,
  type Filter,
  type GraphIndex,
  type SearchIndex,
  type SearchRequest,
  type SearchResponse,
  type TimeseriesIndex,
} from '@catalog/search';
import { openOpenSearch } from '@catalog/search/opensearch';
import { openSqliteAspectStore, type AspectStore, type AspectWriteMode } from '@catalog/store';
import { isSkipped, opensearchForTests, waitFor } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIndexer, type IndexerService } from './indexer-service.js';
import { capturingLogger } from '@catalog/testkit';

const ACTOR = 'urn:li:corpuser:tester';
/** Oversized values are dropped above 64 bytes in this file (STRUCTURED_PROPERTIES_* as set in a deployment). */
const SETTINGS: StructuredPropertySettings = {
  dropMissingPropertyValuesWithWarning: true,
  keywordMaxLength: 64,
  dropOversizedKeywordValuesFromIndex: true,
};

interface ReadModels {
  readonly search: SearchIndex;
  readonly graph: GraphIndex;
  readonly timeseries: TimeseriesIndex;
  close(): Promise<void>;
}

interface Family {
  readonly name: string;
  readonly skip?: string;
  open(dir: string): Promise<ReadModels>;
}

const found = await opensearchForTests();
const FAMILIES: readonly Family[] = [
  { name: 'embedded SQLite', open: async (dir) => openEmbeddedSearch({ file: join(dir, 'search.db') }) },
  {
    name: 'OpenSearch',
    ...(isSkipped(found) ? { skip: found.skip } : {}),
    open: async () => {
      if (isSkipped(found)) throw new Error(found.skip);
      const prefix = `it_sp_${randomBytes(5).toString('hex')}`;
      const adapters = await openOpenSearch({ node: found.node, indexPrefix: prefix, replicas: 0 });
      return {
        ...adapters,
        close: async () => {
          await fetch(`${found.node.replace(/\/$/, '')}/${prefix}_*`, { method: 'DELETE' });
          await adapters.close();
        },
      };
    },
  },
];

const numberType = 'urn:li:dataType:datahub.number';
const stringType = 'urn:li:dataType:datahub.string';

for (const family of FAMILIES) {
  if (family.skip) console.warn(`[structured-properties.int] ${family.name} skipped: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(
    `structured properties through the indexer on ${family.name}`,
    () => {
      let dir: string;
      let log: EventLog;
      let store: AspectStore;
      let models: ReadModels;
      let indexer: IndexerService;
      const captured = capturingLogger('warn');
      const ns = `zq${randomBytes(4).toString('hex')}`;
      const topics = { ...defaultTopicNames, metadataChangeLogVersioned: `mcl_${ns}` };

      beforeAll(async () => {
        dir = mkdtempSync(join(tmpdir(), 'indexer-structured-'));
        log = await openEmbeddedEventLog({ directory: join(dir, 'log'), pollIntervalMs: 10 });
        store = await openSqliteAspectStore({ file: join(dir, 'aspects.db') });
        models = await family.open(dir);
        indexer = await startIndexer({
          log,
          store,
          search: models.search,
          graph: models.graph,
          timeseries: models.timeseries,
          topics,
          logger: captured.logger,
          groupId: 'indexer-structured-test',
          maxBatchSize: 100,
          structuredProperties: SETTINGS,
        });
        await indexer.ready;
      }, 120_000);
      afterAll(async () => {
        await indexer?.stop();
        await log?.close();
        await models?.close();
        await store?.close();
        rmSync(dir, { recursive: true, force: true });
      });

      /** Stores an aspect as persistence does (at `time`) and produces its change log. */
      async function write(
        urn: string,
        aspect: string,
        value: Record<string, unknown> | undefined,
        time: number,
        mode: AspectWriteMode = 'UPSERT',
      ): Promise<void> {
        const created = { time, actor: ACTOR };
        const [result] = await store.applyBatch([
          { requestId: randomUUID(), mode, urn, aspect, ...(value ? { value } : {}), created },
        ]);
        const changeType = mode === 'UPSERT' ? 'UPSERT' : 'DELETE';
        const current = result?.current;
        const previous = result?.previous ?? result?.removed?.[0];
        if (current === undefined && previous === undefined) throw new Error(`nothing written for ${urn}`);
        await log.produce(topics.metadataChangeLogVersioned, [
          {
            key: urn,
            value: encodeMcl(
              changeLogForStored({
                entityType: parseUrn(urn).entityType,
                changeType,
                ...(current ? { current } : {}),
                ...(previous ? { previous } : {}),
                created,
              }),
              SchemaIds.metadataChangeLog,
            ),
          },
        ]);
      }

      const property = (name: string) => `urn:li:structuredProperty:io.${ns}.${name}`;
      const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${ns}.${name},PROD)`;
      const definition = (name: string, valueType: string, extra: Record<string, unknown> = {}) => ({
        qualifiedName: `io.${ns}.${name}`,
        valueType,
        cardinality: 'MULTIPLE',
        entityTypes: ['urn:li:entityType:datahub.dataset'],
        ...extra,
      });
      const assign = (...assignments: [string, unknown[], Record<string, unknown>?][]) => ({
        properties: assignments.map(([propertyUrn, values, extra]) => ({ propertyUrn, values, ...extra })),
      });
      const where = (field: string, condition: string, values: string[] = []): Filter =>
        ({
          or: [{ and: [{ field: `structuredProperties.io.${ns}.${field}`, condition, values }] }],
        }) as Filter;
      const search = async (request: Partial<SearchRequest>): Promise<SearchResponse> => {
        await models.search.refresh();
        return models.search.search({
          entityTypes: ['dataset'],
          input: '*',
          start: 0,
          count: 100,
          ...request,
        });
      };
      const urns = async (filter: Filter): Promise<string[]> =>
        (await search({ filter })).hits.map((h) => h.urn).sort();
      const eventually = (what: string, check: () => Promise<boolean>) => waitFor(check, 30_000, what);
      const quietly = async (check: () => Promise<boolean>): Promise<boolean> => {
        try {
          return await check();
        } catch {
          return false;
        }
      };

      it('types values from their definition, and fixes values indexed before their definition', async () => {
        const early = dataset('early');
        await write(early, 'structuredProperties', assign([property('score'), [{ double: 42 }]]), 1_000);
        await eventually('the early document', async () => {
          const doc = await models.search.getDocument('dataset', early);
          return doc?.fields['structuredPropertyUrns'] !== undefined;
        });
        // No definition yet: the urn is indexed, the value waits (a filter on the name is a 400 still).
        const doc = await models.search.getDocument('dataset', early);
        expect(Object.keys(doc!.fields).filter((f) => f.startsWith('structuredProperties.'))).toEqual([]);

        await write(property('score'), 'propertyDefinition', definition('score', numberType), 2_000);
        await eventually('the value typed', () =>
          quietly(
            async () =>
              JSON.stringify(await urns(where('score', 'GREATER_THAN', ['40']))) === JSON.stringify([early]),
          ),
        );
        const facets = await search({ facets: [`structuredProperties.io.${ns}.score`], count: 0 });
        expect(facets.aggregations[0]?.values).toEqual([{ value: '42.0', count: 1 }]);
        expect(
          (await models.search.getDocument('dataset', early))?.fields[`structuredProperties.io_${ns}_score`],
        ).toEqual([42]);
      });

      it('a new version re-homes the field: older values leave search but stay stored', async () => {
        const tier = property('tier');
        const gold = dataset('gold');
        await write(tier, 'propertyDefinition', definition('tier', stringType), 10_000);
        await write(gold, 'structuredProperties', assign([tier, [{ string: 'gold' }]]), 11_000);
        await eventually('the string value', () =>
          quietly(async () => (await urns(where('tier', 'EQUAL', ['gold']))).includes(gold)),
        );

        await write(
          tier,
          'propertyDefinition',
          definition('tier', numberType, { version: '20240614080000' }),
          12_000,
        );
        await eventually('the old value out of search', () =>
          quietly(async () => (await urns(where('tier', 'EXISTS'))).length === 0),
        );
        expect((await store.get(gold, 'structuredProperties'))?.value).toEqual(
          assign([tier, [{ string: 'gold' }]]),
        );

        const fresh = dataset('fresh');
        await write(fresh, 'structuredProperties', assign([tier, [{ double: 5 }]]), 13_000);
        // An assignment stamped after the version counts even in an aspect written before it.
        await write(
          gold,
          'structuredProperties',
          assign([tier, [{ double: 7 }], { lastModified: { time: 14_000, actor: ACTOR } }]),
          14_000,
        );
        await eventually('the new values', () =>
          quietly(
            async () =>
              JSON.stringify(await urns(where('tier', 'GREATER_THAN', ['1']))) ===
              JSON.stringify([fresh, gold].sort()),
          ),
        );
        expect(
          (await models.search.getDocument('dataset', fresh))?.fields[
            `structuredProperties._versioned.io_${ns}_tier.20240614080000.number`
          ],
        ).toEqual([5]);
      });

      it('refuses filters on a soft-deleted property until it is restored, keeping its values', async () => {
        const flag = property('flag');
        const flagged = dataset('flagged');
        await write(flag, 'propertyDefinition', definition('flag', stringType), 20_000);
        await write(flagged, 'structuredProperties', assign([flag, [{ string: 'on' }]]), 21_000);
        await eventually('the flag', () =>
          quietly(async () => (await urns(where('flag', 'EQUAL', ['on']))).length === 1),
        );
        await write(flag, 'status', { removed: true }, 22_000);
        await eventually('filters refused', async () => {
          try {
            await urns(where('flag', 'EXISTS'));
            return false;
          } catch (error) {
            return (error as Error).message === `Cannot filter on deleted Structured Property [${flag}]`;
          }
        });
        await write(flag, 'status', { removed: false }, 23_000);
        await eventually('filters again', () =>
          quietly(
            async () =>
              JSON.stringify(await urns(where('flag', 'EQUAL', ['on']))) === JSON.stringify([flagged]),
          ),
        );
      });

      it('leaves oversized values out of the index with a warning, and indexes the rest', async () => {
        const note = property('note');
        const noted = dataset('noted');
        const long = 'x'.repeat(65);
        await write(note, 'propertyDefinition', definition('note', stringType), 30_000);
        await write(
          noted,
          'structuredProperties',
          assign([note, [{ string: long }, { string: 'short' }]]),
          31_000,
        );
        await eventually('the short value', () =>
          quietly(async () => (await urns(where('note', 'EQUAL', ['short']))).includes(noted)),
        );
        expect(await urns(where('note', 'EQUAL', [long]))).toEqual([]);
        expect(captured.lines()).toContainEqual(
          expect.objectContaining({ urn: noted, propertyUrn: note, bytes: 65, limit: 64, level: 40 }),
        );
      });

      it('forgets a hard-deleted property: filters on it are unknown', async () => {
        const gone = property('gone');
        await write(gone, 'propertyDefinition', definition('gone', stringType), 40_000);
        await eventually(
          'the definition',
          async () => (await models.search.getStructuredProperties([gone])).size === 1,
        );
        await write(gone, 'propertyDefinition', undefined, 41_000, 'DELETE');
        // Read by its name (a search of the view, refreshed once the indexer's write returns).
        await eventually('filters on it unknown', async () => {
          try {
            await urns(where('gone', 'EXISTS'));
            return false;
          } catch (error) {
            return (error as { code?: string }).code === 'VALIDATION';
          }
        });
        expect((await models.search.getStructuredProperties([gone])).size).toBe(0);
      });

      it('restoring from the store makes the same documents, the definitions view rebuilt too', async () => {
        // Let every earlier write be indexed (the last one written above is the hard delete).
        const written = (await store.scan({ limit: 1000, urnLike: `%${ns}%` })).items;
        const datasets = [
          ...new Set(written.map((a) => a.urn).filter((u) => u.startsWith('urn:li:dataset:'))),
        ];
        const before = new Map<string, unknown>();
        for (const urn of datasets)
          before.set(urn, (await models.search.getDocument('dataset', urn))?.fields);
        const properties = [
          ...new Set(written.map((a) => a.urn).filter((u) => u.startsWith('urn:li:structuredProperty:'))),
        ];

        await models.search.delete(datasets.map((urn) => ({ entityType: 'dataset', urn })));
        await models.search.deleteStructuredProperties(properties);
        await models.search.refresh();
        // In the store's scan order (datasets before the properties), in small pages, as a restore runs.
        const projector = new EntityProjector(store, models.search, models.graph, {
          structuredProperties: SETTINGS,
        });
        let after: string | undefined;
        for (;;) {
          const page = await store.scan({ limit: 3, urnLike: `%${ns}%`, ...(after ? { after } : {}) });
          await projector.project([...new Set(page.items.map((a) => a.urn))].map((urn) => ({ urn })));
          if (!page.next) break;
          after = page.next;
        }
        await models.search.refresh();
        for (const urn of datasets)
          expect((await models.search.getDocument('dataset', urn))?.fields).toEqual(before.get(urn));
        expect(JSON.stringify(await urns(where('tier', 'GREATER_THAN', ['1'])))).toBe(
          JSON.stringify([dataset('fresh'), dataset('gold')].sort()),
        );
      });
    },
  );
}
