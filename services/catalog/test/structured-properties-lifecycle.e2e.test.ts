import { randomUUID } from 'node:crypto';
import { decodeMcl, type LogRecord } from '@catalog/events';
import { createLogger } from '@catalog/runtime';
import { readSystemUpdateConfig, runSystemUpdate } from '@catalog/system-update';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogConfig } from '../src/index.js';
import { FAMILIES } from './families.js';
import { graphql } from './graphql-client.js';
import {
  datasetUrn,
  get,
  proposal,
  request,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';

/**
 * The structured-property lifecycle, one test per row of the spec's sections 3.2 (lifecycle), 3.3
 * (breaking definition changes), 7 (the structured-property error rows) and 8 (the structured-property
 * limits), on both families, through the routes a user has: Rest.li ingestProposal, OpenAPI v3 and v2,
 * GraphQL, the operations endpoint and the system-update job, and section 8's restore paging row. The
 * external-token rows of 7 and the audit-search rows of 8 belong to the authentication and audit suites.
 */

const enc = encodeURIComponent;
const STRING = 'urn:li:dataType:datahub.string';
const NUMBER = 'urn:li:dataType:datahub.number';
const DATASET_TYPE = 'urn:li:entityType:datahub.dataset';
const call = request;

const SEARCH = `query($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) { total searchResults { entity { urn } } }
}`;
const AGGREGATE = `query($input: AggregateAcrossEntitiesInput!) {
  aggregateAcrossEntities(input: $input) { facets { field aggregations { value count } } }
}`;
const DATASET_VALUES = `query($urn: String!) {
  dataset(urn: $urn) { structuredProperties { properties {
    structuredProperty { urn } values { ... on StringValue { stringValue } ... on NumberValue { numberValue } }
  } } }
}`;

interface CleanupStatus {
  readonly urn: string;
  readonly valuesRemaining: number;
  readonly mappingCleanupReady: boolean;
}

for (const family of FAMILIES) {
  if (family.skip)
    console.warn(`skipping structured property lifecycle e2e on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`structured property lifecycle on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    let env: Record<string, string>;
    const run = `l${Math.random().toString(36).slice(2, 8)}`;
    const qn = (name: string) => `io.${run}.${name}`;
    const property = (name: string) => `urn:li:structuredProperty:${qn(name)}`;
    const field = (name: string) => `structuredProperties.${qn(name)}`;
    const dataset = (name: string) => datasetUrn(`${run}.${name}`);

    const definition = (name: string, extra: Record<string, unknown> = {}) => ({
      qualifiedName: qn(name),
      valueType: STRING,
      cardinality: 'MULTIPLE',
      entityTypes: [DATASET_TYPE],
      ...extra,
    });
    /** Rest.li ingestProposal, synchronous and indexed before it answers. */
    const ingest = (urn: string, aspect: string, value: unknown, changeType = 'UPSERT') =>
      call(base, 'POST', '/aspects?action=ingestProposal', {
        proposal: {
          ...proposal(urn, aspect, value),
          changeType,
          ...(value === undefined ? { aspect: undefined } : {}),
        },
        async: 'false',
      });
    const mustIngest = async (urn: string, aspect: string, value: unknown) => {
      const res = await ingest(urn, aspect, value);
      if (res.status !== 200) throw new Error(`ingest ${aspect} of ${urn}: ${res.status} ${res.text}`);
    };
    const define = (name: string, extra: Record<string, unknown> = {}) =>
      mustIngest(property(name), 'propertyDefinition', definition(name, extra));
    const assign = (urn: string, values: Record<string, ({ string: string } | { double: number })[]>) =>
      ingest(urn, 'structuredProperties', {
        properties: Object.entries(values).map(([name, v]) => ({ propertyUrn: property(name), values: v })),
      });
    const mustAssign = async (urn: string, values: Parameters<typeof assign>[1]) => {
      const res = await assign(urn, values);
      if (res.status !== 200) throw new Error(`assign on ${urn}: ${res.status} ${res.text}`);
    };
    const setRemoved = (name: string, removed: boolean) => mustIngest(property(name), 'status', { removed });

    const search = async (and: { field: string; condition: string; values?: string[] }[]) => {
      const res = await graphql(base, SEARCH, {
        input: { types: ['DATASET'], query: '*', start: 0, count: 100, orFilters: [{ and }] },
      });
      if (res.errors) return { error: res.errors[0]!.message };
      const found = res.data?.['searchAcrossEntities'] as { searchResults: { entity: { urn: string } }[] };
      return { urns: found.searchResults.map((r) => r.entity.urn).sort() };
    };
    const aggregate = async (facet: string) => {
      const res = await graphql(base, AGGREGATE, {
        input: { types: ['DATASET'], query: '*', facets: [facet], searchFlags: { maxAggValues: 50 } },
      });
      if (res.errors) return { error: res.errors[0]!.message };
      const facets = (
        res.data?.['aggregateAcrossEntities'] as {
          facets: { field: string; aggregations: { value: string; count: number }[] }[];
        }
      ).facets;
      return { buckets: facets.find((f) => f.field === facet)?.aggregations ?? [] };
    };
    /** The property urns a dataset's reads show, through GraphQL, Rest.li and OpenAPI v3 and v2. */
    const shownEverywhere = async (urn: string) => {
      const gql = await graphql(base, DATASET_VALUES, { urn });
      const gqlUrns = (
        (
          gql.data?.['dataset'] as {
            structuredProperties: { properties: { structuredProperty: { urn: string } }[] };
          }
        ).structuredProperties?.properties ?? []
      ).map((p) => p.structuredProperty.urn);
      const restli = await get(base, `/entitiesV2/${enc(urn)}?aspects=List(structuredProperties)`);
      const restliUrns = (
        (
          restli.body as {
            aspects: { structuredProperties?: { value: { properties: { propertyUrn: string }[] } } };
          }
        ).aspects.structuredProperties?.value.properties ?? []
      ).map((p) => p.propertyUrn);
      const v3 = await call(base, 'GET', `/openapi/v3/entity/dataset/${enc(urn)}/structuredProperties`);
      const v3Urns = (
        (v3.body as { value?: { properties: { propertyUrn: string }[] } } | undefined)?.value?.properties ??
        []
      ).map((p) => p.propertyUrn);
      const v2 = await call(base, 'GET', `/openapi/v2/entity/dataset/${enc(urn)}/structuredProperties`);
      const v2Urns = (
        (
          v2.body as {
            aspects?: { structuredProperties?: { value: { properties: { propertyUrn: string }[] } } };
          }
        )?.aspects?.structuredProperties?.value.properties ?? []
      ).map((p) => p.propertyUrn);
      return { graphql: gqlUrns.sort(), restli: restliUrns.sort(), v3: v3Urns.sort(), v2: v2Urns.sort() };
    };
    const cleanupStatus = async (urn: string): Promise<CleanupStatus | undefined> => {
      const res = await call(base, 'GET', `/openapi/operations/structuredProperties/cleanup?urn=${enc(urn)}`);
      expect(res.status).toBe(200);
      return (res.body as { properties: CleanupStatus[] }).properties.find((p) => p.urn === urn);
    };
    /** The system-update job with these settings, over this catalog's adapters. */
    const systemUpdate = async (settings: Record<string, string>) => {
      const config = readSystemUpdateConfig({ ...env, LOG_LEVEL: 'warn', ...settings }, []);
      await runSystemUpdate(
        {
          log: catalog.log,
          store: catalog.store,
          readModels: catalog.readModels,
          topics: config.adapters.topics,
          logger: createLogger({ name: 'system-update-test', level: 'warn' }),
        },
        config,
      );
      await catalog.readModels.search.refresh();
    };
    /** Every versioned change log of this urn, in log order. */
    const changeLogsOf = async (urn: string) => {
      const topic = readSystemUpdateConfig({ ...env, LOG_LEVEL: 'warn' }, []).adapters.topics
        .metadataChangeLogVersioned;
      const seen: LogRecord[] = [];
      const consumer = await catalog.log.consume({
        groupId: `lifecycle-reader-${randomUUID()}`,
        topics: [topic],
        fromBeginning: true,
        handler: async (batch) => void seen.push(...batch.records),
      });
      await consumer.ready;
      await waitUntil(
        async () => seen.filter((r) => r.key === urn).length,
        (n) => n > 0,
        30_000,
      );
      await new Promise((r) => setTimeout(r, 500));
      await consumer.stop();
      return seen.filter((r) => r.key === urn).map((r) => decodeMcl(r.value));
    };

    beforeAll(async () => {
      env = family.env();
      catalog = await startTestCatalog(env);
      base = catalog.baseUrl;
    });
    afterAll(async () => catalog?.dispose());

    describe('3.2 lifecycle', () => {
      it('active → soft-deleted: values leave every read, updates, new values and filters are denied', async () => {
        await define('soft');
        await define('bystander');
        const holder = dataset('softHolder');
        await mustAssign(holder, { soft: [{ string: 'kept' }], bystander: [{ string: 'b' }] });
        expect(await search([{ field: field('soft'), condition: 'EQUAL', values: ['kept'] }])).toEqual({
          urns: [holder],
        });

        await setRemoved('soft', true);
        const shown = await shownEverywhere(holder);
        expect(shown).toEqual({
          graphql: [property('bystander')],
          restli: [property('bystander')],
          v3: [property('bystander')],
          v2: [property('bystander')],
        });
        const update = await ingest(
          property('soft'),
          'propertyDefinition',
          definition('soft', { displayName: 'x' }),
        );
        expect(update.status).toBe(422);
        expect(update.text).toContain('Cannot mutate a soft deleted Structured Property Definition');
        const assigned = await assign(dataset('softOther'), { soft: [{ string: 'new' }] });
        expect(assigned.status).toBe(422);
        expect(assigned.text).toContain('Cannot apply a soft deleted Structured Property value');
        expect(await search([{ field: field('soft'), condition: 'EXISTS' }])).toEqual({
          error: `Cannot filter on deleted Structured Property [${property('soft')}]`,
        });
      });

      it('soft-deleted → active (restore): everything comes back, nothing lost', async () => {
        await setRemoved('soft', false);
        const holder = dataset('softHolder');
        expect(await shownEverywhere(holder)).toEqual({
          graphql: [property('bystander'), property('soft')].sort(),
          restli: [property('bystander'), property('soft')].sort(),
          v3: [property('bystander'), property('soft')].sort(),
          v2: [property('bystander'), property('soft')].sort(),
        });
        expect(await search([{ field: field('soft'), condition: 'EQUAL', values: ['kept'] }])).toEqual({
          urns: [holder],
        });
        await mustIngest(property('soft'), 'propertyDefinition', definition('soft', { displayName: 'Soft' }));
        await mustAssign(dataset('softOther'), { soft: [{ string: 'new' }] });
      });

      it('active → hard delete: rejected with an explanation on every route, the property kept', async () => {
        const urn = property('soft');
        const explanation = 'Cannot hard delete the active Structured Property';
        const v3 = await call(base, 'DELETE', `/openapi/v3/entity/structuredProperty/${enc(urn)}`);
        expect(v3.status).toBe(400);
        expect(v3.text).toContain(explanation);
        expect(v3.text).toContain('Soft delete it first');
        const restli = await ingest(urn, 'structuredPropertyKey', undefined, 'DELETE');
        expect(restli.status).toBe(422);
        expect(restli.text).toContain(explanation);
        const gql = await graphql(
          base,
          'mutation($urn: String!) { deleteStructuredProperty(input: { urn: $urn }) }',
          {
            urn,
          },
        );
        expect(gql.errors?.[0]?.message).toContain(explanation);
        const still = await call(
          base,
          'GET',
          `/openapi/v3/entity/structuredProperty/${enc(urn)}/propertyDefinition`,
        );
        expect(still.status).toBe(200);
      });

      it('soft-deleted → hard-deleted: definition change log first, entity removed, values removed asynchronously, mappings kept until clean-up', async () => {
        await define('gone');
        await define('stays');
        const holders = [1, 2, 3, 4, 5].map((i) => dataset(`goneHolder${i}`));
        for (const urn of holders)
          await mustAssign(urn, { gone: [{ string: 'g' }], stays: [{ string: 's' }] });
        await setRemoved('gone', true);

        const deleted = await call(
          base,
          'DELETE',
          `/openapi/v3/entity/structuredProperty/${enc(property('gone'))}`,
        );
        expect(deleted.status).toBe(200);
        // At once, before the indexer may have retired it from the search view: the name is held.
        const again = await ingest(property('gone'), 'propertyDefinition', definition('gone'));
        expect(again.status).toBe(422);
        expect(again.text).toContain('whose search index mappings remain');
        const logs = await changeLogsOf(property('gone'));
        const deletes = logs.filter((l) => l.changeType === 'DELETE').map((l) => l.aspectName);
        expect(deletes[0]).toBe('propertyDefinition');
        expect(deletes[deletes.length - 1]).toBe('structuredPropertyKey');
        const entity = await call(
          base,
          'GET',
          `/openapi/v3/entity/structuredProperty/${enc(property('gone'))}`,
        );
        expect(entity.status).toBe(404);

        // The removal runs through the log; the operations endpoint counts it down.
        const done = await waitUntil(
          () => cleanupStatus(property('gone')),
          (s) => s !== undefined && s.valuesRemaining === 0 && s.mappingCleanupReady,
          60_000,
        );
        expect(done).toMatchObject({ urn: property('gone'), valuesRemaining: 0, mappingCleanupReady: true });
        for (const urn of holders) expect((await shownEverywhere(urn)).v3).toEqual([property('stays')]);
        expect(await search([{ field: field('stays'), condition: 'EQUAL', values: ['s'] }])).toEqual({
          urns: [...holders].sort(),
        });
      });

      it('while its mappings remain, its qualifiedName and its ./_ twin are refused; system-update frees them', async () => {
        const old = property('gone');
        const leftover = 'whose search index mappings remain';
        const same = await ingest(old, 'propertyDefinition', definition('gone'));
        expect(same.status).toBe(422);
        expect(same.text).toContain(leftover);
        const other = `urn:li:structuredProperty:${run}.other.gone`;
        const twin = await ingest(other, 'propertyDefinition', {
          ...definition('gone'),
          qualifiedName: qn('gone').replace(/\./g, '_'),
        });
        expect(twin.status).toBe(422);
        expect(twin.text).toContain(leftover);
        const v3 = await call(
          base,
          'POST',
          `/openapi/v3/entity/structuredProperty/${enc(other)}/propertyDefinition`,
          {
            value: definition('gone'),
          },
        );
        expect(v3.status).toBe(400);
        expect(v3.text).toContain(leftover);

        await systemUpdate({ ENABLE_STRUCTURED_PROPERTIES_SYSTEM_UPDATE: 'true' });
        expect(await cleanupStatus(old)).toBeUndefined();
        // The name is free: a new property of another type takes it, typed as it now says.
        await define('gone', { valueType: NUMBER, cardinality: 'SINGLE' });
        const holder = dataset('reborn');
        await mustAssign(holder, { gone: [{ double: 7 }] });
        expect(await search([{ field: field('gone'), condition: 'GREATER_THAN', values: ['5'] }])).toEqual({
          urns: [holder],
        });
        expect(await aggregate(field('gone'))).toEqual({ buckets: [{ value: '7.0', count: 1 }] });
      });

      it("a mapping stays while one value remains anywhere; the spec's REINDEX + ENABLE run then removes it", async () => {
        await define('lingering');
        await setRemoved('lingering', true);
        const deleted = await call(
          base,
          'DELETE',
          `/openapi/v3/entity/structuredProperty/${enc(property('lingering'))}`,
        );
        expect(deleted.status).toBe(200);
        await waitUntil(
          () => cleanupStatus(property('lingering')),
          (s) => s !== undefined && s.mappingCleanupReady,
          60_000,
        );
        // Once the value removal has consumed the hard delete, a value it cannot have seen (imported
        // straight into the store, as a legacy copy).
        const config = readCatalogConfig({ ...env });
        await waitUntil(
          async () =>
            (
              await catalog.log.lag(
                `${config.persistence.groupId}-structured-property-cleanup`,
                config.adapters.topics.metadataChangeLogVersioned,
              )
            ).reduce((sum, p) => sum + p.lag, 0),
          (lag) => lag === 0,
          60_000,
        );
        const holder = dataset('lingeringHolder');
        await catalog.store.applyBatch([
          {
            requestId: randomUUID(),
            mode: 'UPSERT',
            urn: holder,
            aspect: 'structuredProperties',
            value: { properties: [{ propertyUrn: property('lingering'), values: [{ string: 'x' }] }] },
            created: { time: Date.now(), actor: 'urn:li:corpuser:importer' },
          },
        ]);
        // Unindexed, the job still finds it in the store; once restored into the index, the endpoint does.
        await systemUpdate({ ENABLE_STRUCTURED_PROPERTIES_SYSTEM_UPDATE: 'true' });
        expect(await cleanupStatus(property('lingering'))).toBeDefined();
        const restored = await call(base, 'POST', '/gms/operations?action=restoreIndices', { urn: holder });
        expect(restored.status).toBe(200);
        await waitUntil(
          () => cleanupStatus(property('lingering')),
          (s) => s?.valuesRemaining === 1,
          30_000,
        );
        expect(await cleanupStatus(property('lingering'))).toMatchObject({ mappingCleanupReady: false });
        await systemUpdate({ ENABLE_STRUCTURED_PROPERTIES_SYSTEM_UPDATE: 'true' });
        expect(await cleanupStatus(property('lingering'))).toMatchObject({ valuesRemaining: 1 });
        expect(
          (await ingest(property('lingering'), 'propertyDefinition', definition('lingering'))).status,
        ).toBe(422);

        const removed = await call(
          base,
          'DELETE',
          `/openapi/v3/entity/dataset/${enc(holder)}/structuredProperties`,
        );
        expect(removed.status).toBe(200);
        await systemUpdate({
          ELASTICSEARCH_INDEX_BUILDER_MAPPINGS_REINDEX: 'true',
          ENABLE_STRUCTURED_PROPERTIES_SYSTEM_UPDATE: 'true',
        });
        expect(await cleanupStatus(property('lingering'))).toBeUndefined();
        await define('lingering');
        // The whole index was recreated from the store: everything else is still found.
        expect(await search([{ field: field('stays'), condition: 'EQUAL', values: ['s'] }])).toMatchObject({
          urns: expect.arrayContaining([dataset('goneHolder1')]),
        });
      });
    });

    describe('3.3 breaking definition change', () => {
      it('1. a backwards-incompatible change without a new version string is rejected', async () => {
        await define('tier', {
          allowedValues: [{ value: { string: 'gold' } }, { value: { string: 'silver' } }],
        });
        for (const [change, message] of [
          [
            { cardinality: 'SINGLE' },
            'Property definition cardinality cannot be changed from MULTI to SINGLE',
          ],
          [{ valueType: NUMBER }, 'Value type cannot be changed as this is a backwards incompatible change'],
          [
            { allowedValues: [{ value: { string: 'gold' } }] },
            'Cannot restrict values that were previously allowed',
          ],
        ] as const) {
          const res = await ingest(property('tier'), 'propertyDefinition', {
            ...definition('tier', {
              allowedValues: [{ value: { string: 'gold' } }, { value: { string: 'silver' } }],
            }),
            ...change,
          });
          expect(res.status).toBe(422);
          expect(res.text).toContain(message);
        }
        await define('open');
        const narrowed = await ingest(property('open'), 'propertyDefinition', {
          ...definition('open'),
          allowedValues: [{ value: { string: 'a' } }],
        });
        expect(narrowed.status).toBe(422);
      });

      it('2-4. with a new version (free format) it is taken; only the newest version is active, old values stay readable but leave search', async () => {
        const before = dataset('tierBefore');
        await mustAssign(before, { tier: [{ string: 'gold' }] });
        expect(await search([{ field: field('tier'), condition: 'EQUAL', values: ['gold'] }])).toEqual({
          urns: [before],
        });
        await define('tier', { valueType: NUMBER, cardinality: 'SINGLE', version: 'v2' });
        const after = dataset('tierAfter');
        await mustAssign(after, { tier: [{ double: 2 }] });
        expect(await search([{ field: field('tier'), condition: 'EXISTS' }])).toEqual({ urns: [after] });
        expect(await aggregate(field('tier'))).toEqual({ buckets: [{ value: '2.0', count: 1 }] });
        // The old value is still stored and shown.
        expect((await shownEverywhere(before)).v3).toEqual([property('tier')]);
        const stored = await call(
          base,
          'GET',
          `/openapi/v3/entity/dataset/${enc(before)}/structuredProperties`,
        );
        expect(stored.text).toContain('gold');
        // A version that is not newer does not license a breaking change.
        const older = await ingest(
          property('tier'),
          'propertyDefinition',
          definition('tier', { version: 'v1' }),
        );
        expect(older.status).toBe(422);
      });
    });

    describe('7 errors and 8 limits (structured-property rows)', () => {
      it('8: string-backed values are limited to 32,766 UTF-8 bytes; numbers are exempt', async () => {
        await define('limit_string');
        await define('limit_rich_text', { valueType: 'urn:li:dataType:datahub.rich_text' });
        await define('limit_urn', { valueType: 'urn:li:dataType:datahub.urn' });
        const tooBig: Record<string, string> = {
          limit_string: 'é'.repeat(16_384), // 32,768 bytes
          limit_rich_text: 'a'.repeat(32_767),
          limit_urn: `urn:li:corpuser:${'u'.repeat(32_767)}`,
        };
        for (const [name, value] of Object.entries(tooBig)) {
          const res = await assign(dataset(name), { [name]: [{ string: value }] });
          expect(res.status).toBe(422);
          expect(res.text).toContain('which exceeds the maximum of 32766 UTF-8 bytes');
        }
        // A date cannot reach the limit: its only form is YYYY-MM-DD.
        await mustAssign(dataset('limitFits'), { limit_string: [{ string: 'a'.repeat(32_766) }] });
        await define('limit_number', { valueType: NUMBER });
        await mustAssign(dataset('limitNumber'), { limit_number: [{ double: 1e308 }] });
      });

      it('7: orphans are dropped with the write continuing; all orphans fail; an explicit empty aspect clears', async () => {
        await define('present');
        const holder = dataset('orphans');
        const missing = `urn:li:structuredProperty:${run}.missing`;
        const some = await ingest(holder, 'structuredProperties', {
          properties: [
            { propertyUrn: property('present'), values: [{ string: 'p' }] },
            { propertyUrn: missing, values: [{ string: 'm' }] },
          ],
        });
        expect(some.status).toBe(200);
        expect((await shownEverywhere(holder)).v3).toEqual([property('present')]);
        const all = await ingest(holder, 'structuredProperties', {
          properties: [{ propertyUrn: missing, values: [{ string: 'm' }] }],
        });
        expect(all.status).toBe(422);
        expect((await shownEverywhere(holder)).v3).toEqual([property('present')]);
        await mustIngest(holder, 'structuredProperties', { properties: [] });
        expect((await shownEverywhere(holder)).v3).toEqual([]);
      });

      it('7 and 8 under other settings: strict orphans fail; oversized values are stored but left out of search', async () => {
        const strict = await startTestCatalog({
          ...family.env(),
          STRUCTURED_PROPERTIES_DROP_MISSING_PROPERTY_VALUES_WITH_WARNING: 'false',
          STRUCTURED_PROPERTIES_KEYWORD_MAX_LENGTH: '10',
          STRUCTURED_PROPERTIES_DROP_OVERSIZED_KEYWORD_VALUES_FROM_INDEX: 'true',
        });
        try {
          const at = strict.baseUrl;
          const send = (urn: string, aspect: string, value: unknown) =>
            call(at, 'POST', '/aspects?action=ingestProposal', {
              proposal: proposal(urn, aspect, value),
              async: 'false',
            });
          expect((await send(property('strict'), 'propertyDefinition', definition('strict'))).status).toBe(
            200,
          );
          const holder = dataset('strictHolder');
          const orphan = await send(holder, 'structuredProperties', {
            properties: [
              { propertyUrn: property('strict'), values: [{ string: 'short' }] },
              { propertyUrn: `urn:li:structuredProperty:${run}.nowhere`, values: [{ string: 'm' }] },
            ],
          });
          expect(orphan.status).toBe(422);
          const long = 'x'.repeat(11);
          expect(
            (
              await send(holder, 'structuredProperties', {
                properties: [
                  { propertyUrn: property('strict'), values: [{ string: long }, { string: 'short' }] },
                ],
              })
            ).status,
          ).toBe(200);
          const stored = await call(
            at,
            'GET',
            `/openapi/v3/entity/dataset/${enc(holder)}/structuredProperties`,
          );
          expect(stored.text).toContain(long);
          await strict.readModels.search.refresh();
          const query = async (value: string) => {
            const res = await graphql(at, SEARCH, {
              input: {
                types: ['DATASET'],
                query: '*',
                orFilters: [{ and: [{ field: field('strict'), condition: 'EQUAL', values: [value] }] }],
              },
            });
            return (res.data?.['searchAcrossEntities'] as { total: number }).total;
          };
          await waitUntil(
            () => query('short'),
            (n) => n === 1,
            30_000,
          );
          expect(await query(long)).toBe(0);
        } finally {
          await strict.dispose();
        }
      });

      it("8: aggregation values are bounded by the caller's searchFlags.maxAggValues", async () => {
        await define('many');
        for (let i = 0; i < 4; i++) await mustAssign(dataset(`many${i}`), { many: [{ string: `v${i}` }] });
        const res = await graphql(base, AGGREGATE, {
          input: {
            types: ['DATASET'],
            query: '*',
            facets: [field('many')],
            searchFlags: { maxAggValues: 2 },
          },
        });
        const facets = (
          res.data?.['aggregateAcrossEntities'] as { facets: { field: string; aggregations: unknown[] }[] }
        ).facets;
        expect(facets.find((f) => f.field === field('many'))?.aggregations).toHaveLength(2);
      });
    });
  });
}
