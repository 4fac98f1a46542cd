/**
 * The shapes of the ecosystem's OpenAPI v3 smoke-test fixtures (smoke-test/tests/openapi/v3/*.json in the
 * public DataHub repository: exceptions, entities, aspects, timeseries, generic_entities), replayed on each
 * family: the same requests (urns, parameters, bodies) and the same expectations (status codes, bodies
 * compared ignoring array order, with the fixtures' exclusions). Written from the fixtures' facts, not
 * copied. Left out: the structured-property fixture (its semantics belong to the structured-properties
 * work); sorting, slices and createIfEntityNotExists have their own tests in openapi-v3.e2e.test.ts.
 *
 * Each family gets its own catalog, so the fixtures' urns are used as they are. The catalog acts as
 * urn:li:corpuser:datahub, the identity the fixtures' session writes as.
 *
 * The last block holds the steps this catalog first answered differently from the fixtures (urn errors
 * before aspect errors, Python's `False`, escaped and wildcard field queries, served systemMetadata and
 * its schemaVersion, the entity facet of a page, version N as the latest, time-series aspects on the
 * aspect routes, the retention of an execution request's result).
 */
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { personalAccessToken, startTestCatalog, type TestCatalog } from './harness.js';
import {
  call,
  compareLikeFixture,
  enc,
  expectOpenApiError,
  settle,
  type CallOptions,
  type Reply,
} from './openapi-fixture-helpers.js';

const V3 = '/openapi/v3/entity';
const TEST = 'urn:li:dataPlatform:test';
const ds = (name: string, origin = 'PROD') => `urn:li:dataset:(${TEST},${name},${origin})`;

/**
 * What a new dataset's creation stores besides the written aspects (platform `test`, a name without dots),
 * with `aliases` when its name has capitals (the fixtures' `lowercasedUrn`).
 */
function datasetDefaults(name: string): Record<string, unknown> {
  // Only the name is lowercased, as the ecosystem's lowercasedUrn.
  const lowercased = ds(name.toLowerCase());
  return {
    browsePathsV2: { value: { path: [{ id: 'Default' }] } },
    datasetKey: { value: { name, platform: TEST, origin: 'PROD' } },
    dataPlatformInstance: { value: { platform: TEST } },
    ...(lowercased === ds(name) ? {} : { aliases: { value: { lowercasedUrn: lowercased } } }),
  };
}

/** The fixtures' datasetProperties: name, qualifiedName `entities.<name>`, empty customProperties and tags. */
function properties(name: string): Record<string, unknown> {
  return { name, qualifiedName: `entities.${name}`, customProperties: {}, tags: [] };
}

const urnsOf = (body: unknown): string[] =>
  ((body as { entities?: { urn: string }[] } | undefined)?.entities ?? []).map((e) => e.urn);

const SINGLES = [1, 2, 3].map((i) => `datasetSingle${i}EntityV3`);
/** entities.json's query: a field, an escaped dot and a trailing wildcard. */
const FIXTURE_QUERY = 'qualifiedName:entities\\.datasetSingle*';
/** A query selecting the same first page without the wildcard, for the steps that check shapes only. */
const FIRST_SINGLE_QUERY = `qualifiedName:entities.${SINGLES[0]}`;

/** Data platforms as the ecosystem bootstraps them; entities.json's filter steps read these. */
const PLATFORMS = [
  { id: 'OpenApi', name: 'openapi', displayName: 'OpenAPI', logoUrl: 'assets/platforms/openapilogo.png' },
  { id: 'vertexai', name: 'vertexai', displayName: 'vertexai', logoUrl: 'assets/platforms/vertexai.png' },
  { id: 'vertica', name: 'vertica', displayName: 'Vertica', logoUrl: 'assets/platforms/verticalogo.png' },
] as const;
type Platform = (typeof PLATFORMS)[number];
const platformInfo = (p: Platform) => ({
  name: p.name,
  datasetNameDelimiter: '.',
  type: 'OTHERS',
  displayName: p.displayName,
  logoUrl: p.logoUrl,
});
const platformEntity = (p: Platform) => ({
  urn: `urn:li:dataPlatform:${p.id}`,
  dataPlatformKey: { value: { platformName: p.id } },
  dataPlatformInfo: { value: platformInfo(p) },
});

for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping OpenAPI v3 fixture replay on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`OpenAPI v3 smoke fixtures replayed on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    /** The smoke tests act as the root user `datahub`, with a personal access token. */
    let authorization: string;
    const send = (method: string, path: string, body?: unknown, options?: CallOptions) =>
      call(base, method, path, body, {
        ...options,
        headers: { Authorization: authorization, ...options?.headers },
      });

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      authorization = `Bearer ${await personalAccessToken(base)}`;
    });
    afterAll(async () => catalog?.dispose());

    /** entities.json's first step: three datasets in one synchronous batch, then waited for in the index. */
    let singlesCreated: Promise<Reply> | undefined;
    const createSingles = () =>
      (singlesCreated ??= (async () => {
        const res = await send(
          'POST',
          `${V3}/dataset`,
          SINGLES.map((name) => ({
            urn: ds(name),
            datasetProperties: { value: properties(name) },
            status: { value: { removed: false } },
          })),
          { params: { createIfNotExists: 'false', createEntityIfNotExists: 'false', async: 'false' } },
        );
        await settle(
          () => send('POST', `${V3}/scroll`, { entities: ['dataset'] }, { params: { count: '100' } }),
          (r) => SINGLES.every((name) => urnsOf(r.body).includes(ds(name))),
        );
        return res;
      })());

    /** The platforms entities.json's filter steps read, written first (the ecosystem bootstraps them). */
    let platformsWritten: Promise<Reply> | undefined;
    const writePlatforms = () =>
      (platformsWritten ??= (async () => {
        const res = await send(
          'POST',
          `${V3}/dataPlatform`,
          PLATFORMS.map((p) => ({
            urn: `urn:li:dataPlatform:${p.id}`,
            dataPlatformInfo: { value: platformInfo(p) },
          })),
          { params: { async: 'false' } },
        );
        await settle(
          () => send('GET', `${V3}/dataPlatform`, undefined, { params: { count: '10' } }),
          (r) => urnsOf(r.body).length >= PLATFORMS.length,
        );
        return res;
      })());

    const filterScroll = (count: string, criterion: Record<string, unknown>) =>
      send(
        'POST',
        `${V3}/scroll`,
        { aspects: [], entities: ['dataPlatform'], filter: { and: [{ criteria: [criterion] }] } },
        { params: { count } },
      );

    describe('exceptions.json', () => {
      it('answers the delete of an entity that never existed with 200 and no body (the fixtures clean up first)', async () => {
        const del = await send('DELETE', `${V3}/dataset/${enc(ds('preconditionV3'))}`);
        expect(del.status).toBe(200);
        expect(del.text).toBe('');
        const generic = await send('DELETE', `${V3}/generic/${enc('urn:li:chart:(looker,chartGenericV3)')}`);
        expect(generic.status).toBe(200);
        expect(generic.text).toBe('');
      });

      it('refuses a single-aspect write whose body headers carry an unmet If-Version-Match with 412 Precondition Error', async () => {
        const urn = ds('preconditionV3');
        const res = await send(
          'POST',
          `${V3}/dataset/${enc(urn)}/status`,
          { value: { removed: false }, headers: { 'If-Version-Match': '-10000' } },
          { params: { createIfNotExists: 'false', async: 'false' } },
        );
        expectOpenApiError(res, 412, 'Precondition Error');
        expect((await send('GET', `${V3}/dataset/${enc(urn)}/status`)).status).toBe(404);
      });

      it('refuses a dataset urn with an unknown fabric type with 400, synchronous or not', async () => {
        const urn = ds('InvalidExceptions', 'INVALID');
        for (const async of ['false', 'true']) {
          const res = await send('POST', `${V3}/dataset`, [{ urn, status: { value: { removed: false } } }], {
            params: { createIfNotExists: 'false', async },
          });
          compareLikeFixture(res, { statuses: [400] });
        }
      });

      it('refuses an unknown aspect with exactly {"error": "Validation Error", "message"}, also when asynchronous', async () => {
        const urn = ds('InvalidExceptions');
        for (const async of ['false', 'true']) {
          const res = await send('POST', `${V3}/dataset`, [{ urn, INVALID: { value: { removed: false } } }], {
            params: { createIfNotExists: 'false', async },
          });
          expectOpenApiError(res, 400, 'Validation Error');
        }
        expect((await send('GET', `${V3}/dataset/${enc(urn)}`)).status).toBe(404);
      });

      it('clamps a cross-entity scroll count above the maximum instead of refusing it', async () => {
        const res = await send('POST', `${V3}/scroll?query=*&count=99999`, {});
        compareLikeFixture(res, { statuses: [200] });
        expect(res.body).toMatchObject({ entities: expect.any(Array) });
      });
    });

    describe('entities.json', () => {
      it('creates three datasets in one synchronous batch, the single-aspect create flags not getting in the way', async () => {
        compareLikeFixture(await createSingles(), {});
        for (const name of SINGLES) {
          const got = await send('GET', `${V3}/dataset/${enc(ds(name))}`, undefined, {
            params: { aspects: ['datasetProperties', 'status'] },
          });
          compareLikeFixture(got, {
            statuses: [200],
            json: {
              urn: ds(name),
              datasetProperties: { value: properties(name) },
              status: { value: { removed: false } },
            },
          });
        }
      });

      it('scrolls across entities answering only the aspect listed in the body', async () => {
        await createSingles();
        const res = await send(
          'POST',
          `${V3}/scroll`,
          { aspects: ['datasetProperties'] },
          {
            params: {
              pitKeepAlive: '1m',
              count: '1',
              query: FIRST_SINGLE_QUERY,
              sortCriteria: 'urn',
              sortOrder: 'ASCENDING',
            },
          },
        );
        compareLikeFixture(res, {
          statuses: [200],
          exclude: ['scrollId', 'totalCount', 'entities.*.scrollId', 'facets'],
          json: {
            entities: [{ urn: ds(SINGLES[0]!), datasetProperties: { value: properties(SINGLES[0]!) } }],
          },
        });
      });

      it('scrolls one entity type with repeated aspects parameters, answering an empty facets list', async () => {
        await createSingles();
        const res = await send('GET', `${V3}/dataset?aspects=datasetProperties&aspects=status`, undefined, {
          params: { pitKeepAlive: '1m', count: '1', query: FIRST_SINGLE_QUERY },
        });
        compareLikeFixture(res, {
          statuses: [200],
          exclude: ['scrollId', 'entities.*.scrollId', 'totalCount'],
          json: {
            entities: [
              {
                urn: ds(SINGLES[0]!),
                datasetProperties: { value: properties(SINGLES[0]!) },
                status: { value: { removed: false } },
              },
            ],
            facets: [],
          },
        });
      });

      it('round-trips a urn with an encoded slash: the whole entity reads back with its key and default aspects', async () => {
        const name = 'dataset/EntityV3';
        const urn = ds(name);
        compareLikeFixture(await send('DELETE', `${V3}/dataset/${enc(urn)}`), {});
        const created = await send(
          'POST',
          `${V3}/dataset`,
          [{ urn, datasetProperties: { value: properties(name) }, status: { value: { removed: false } } }],
          { params: { async: 'false' } },
        );
        compareLikeFixture(created, {});
        compareLikeFixture(await send('GET', `${V3}/dataset/${enc(urn)}`), {
          statuses: [200],
          json: {
            urn,
            ...datasetDefaults(name),
            datasetProperties: { value: properties(name) },
            status: { value: { removed: false } },
          },
        });
      });

      it('patches a new dataset in a synchronous batch, answering the full patched value with the creation defaults, then removes the field', async () => {
        const name = 'datasetPatchEntityV3';
        const urn = ds(name);
        compareLikeFixture(await send('DELETE', `${V3}/dataset/${enc(urn)}`), {});
        const patch = (op: Record<string, unknown>) =>
          send('PATCH', `${V3}/dataset`, [{ urn, datasetProperties: { value: { patch: [op] } } }], {
            params: { async: 'false' },
          });
        const described = { description: 'Test description', tags: [], customProperties: {} };
        compareLikeFixture(await patch({ op: 'add', path: '/description', value: 'Test description' }), {
          json: [{ urn, ...datasetDefaults(name), datasetProperties: { value: described } }],
        });
        const read = () =>
          send('GET', `${V3}/dataset/${enc(urn)}`, undefined, { params: { aspects: 'datasetProperties' } });
        compareLikeFixture(await read(), { json: { urn, datasetProperties: { value: described } } });
        compareLikeFixture(await patch({ op: 'remove', path: '/description' }), {
          json: [{ urn, datasetProperties: { value: { tags: [], customProperties: {} } } }],
        });
        compareLikeFixture(await read(), {
          json: { urn, datasetProperties: { value: { tags: [], customProperties: {} } } },
        });
      });
    });

    describe('aspects.json', () => {
      it('writes an aspect through its lowercase name and reads version 0 (the latest) and 1 (the first write)', async () => {
        const path = `${V3}/dataset/${enc(ds('dataset1AspectV3'))}/globaltags`;
        compareLikeFixture(await send('DELETE', `${V3}/dataset/${enc(ds('dataset1AspectV3'))}`), {});
        const params = { createIfNotExists: 'false', createEntityIfNotExists: 'false', async: 'false' };
        const one = { tags: [{ tag: 'urn:li:tag:tag1' }] };
        const two = { tags: [{ tag: 'urn:li:tag:tag1' }, { tag: 'urn:li:tag:tag2' }] };
        compareLikeFixture(await send('POST', path, { value: one }, { params }), {});
        compareLikeFixture(await send('POST', path, { value: two }, { params }), {});
        const version = (v: string) => send('GET', path, undefined, { params: { version: v } });
        compareLikeFixture(await version('0'), { json: { value: two } });
        compareLikeFixture(await version('1'), { json: { value: one } });
      });

      it('patches one aspect of a new dataset from the template default, then removes the field again', async () => {
        const urn = ds('datasetPatchAspectV3');
        const path = `${V3}/dataset/${enc(urn)}/datasetProperties`;
        const added = await send('PATCH', path, {
          patch: [{ op: 'add', path: '/description', value: 'Test description' }],
        });
        compareLikeFixture(added, {
          json: {
            urn,
            datasetProperties: { value: { description: 'Test description', tags: [], customProperties: {} } },
          },
        });
        compareLikeFixture(await send('GET', path), {
          json: { value: { description: 'Test description', customProperties: {}, tags: [] } },
        });
        const removed = await send('PATCH', path, { patch: [{ op: 'remove', path: '/description' }] });
        compareLikeFixture(removed, {
          json: { urn, datasetProperties: { value: { customProperties: {}, tags: [] } } },
        });
        compareLikeFixture(await send('GET', path), { json: { value: { customProperties: {}, tags: [] } } });
      });
    });

    describe('entities.json, cross-entity scroll filters (the bootstrapped platforms written first)', () => {
      it('filters a cross-entity scroll by an EQUAL criterion, answering every aspect for aspects: []', async () => {
        await writePlatforms();
        const res = await filterScroll('10', { field: 'name', values: ['openapi'], condition: 'EQUAL' });
        compareLikeFixture(res, {
          statuses: [200],
          exclude: ['scrollId', 'facets', 'entities.*.scrollId'],
          json: { entities: [platformEntity(PLATFORMS[0])], totalCount: 1 },
        });
      });

      it('filters a cross-entity scroll by a CONTAIN criterion, one page by urn with the total of all matches', async () => {
        await writePlatforms();
        const res = await filterScroll('1', { field: 'name', values: ['vert'], condition: 'CONTAIN' });
        compareLikeFixture(res, {
          statuses: [200],
          exclude: ['scrollId', 'facets', 'entities.*.scrollId'],
          json: { entities: [platformEntity(PLATFORMS[1])], totalCount: 2 },
        });
      });
    });

    describe('test_scroll_entities.py (the SDK scroll_entities requests on scroll_test_data.json)', () => {
      // The SDK posts the cross-entity scroll with `entities`, `aspects` (absent = urns only) and a filter;
      // the filter is sent here in the form entities.json uses: outer `and` items ORed, `criteria` ANDed.
      const PLATFORM = 'urn:li:dataPlatform:scrolltest';
      const dataset = (name: string) => `urn:li:dataset:(${PLATFORM},${name},PROD)`;
      const DATASETS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'].map(dataset);
      const MODELS = ['model1', 'model2'].map((m) => `urn:li:mlModel:(${PLATFORM},${m},PROD)`);
      const onPlatform = (value = PLATFORM) => ({
        and: [{ criteria: [{ field: 'platform', values: [value], condition: 'EQUAL' }] }],
      });
      type Page = { scrollId?: string; entities: Record<string, unknown>[]; totalCount: number };

      /** The data file's proposals, ingested as the smoke tests do (Rest.li, with a run id), then indexed. */
      let ingested: Promise<void> | undefined;
      const ingest = () =>
        (ingested ??= (async () => {
          const mcp = (entityType: string, entityUrn: string, aspectName: string, value: unknown) => ({
            entityType,
            entityUrn,
            changeType: 'UPSERT',
            aspectName,
            aspect: { value: JSON.stringify(value), contentType: 'application/json' },
            systemMetadata: { runId: 'scroll-test-run', lastObserved: Date.now() },
          });
          const proposals = [
            ...DATASETS.map((urn) =>
              mcp('dataset', urn, 'datasetProperties', {
                description: `Scroll test dataset ${urn.split(',')[1]}`,
                customProperties: {},
              }),
            ),
            mcp('dataset', dataset('zeta'), 'upstreamLineage', {
              upstreams: [
                {
                  auditStamp: { time: 1581407189000, actor: 'urn:li:corpuser:datahub' },
                  dataset: dataset('alpha'),
                  type: 'TRANSFORMED',
                },
              ],
            }),
            mcp('mlFeature', 'urn:li:mlFeature:(scrolltest,feature1)', 'mlFeatureProperties', {
              description: 'Scroll test ML feature 1 (derived from alpha)',
              dataType: 'USELESS',
              sources: [dataset('alpha')],
              customProperties: {},
            }),
            mcp('mlModel', MODELS[0]!, 'mlModelProperties', {
              description: 'Scroll test ML model 1 (consumes feature1)',
              mlFeatures: ['urn:li:mlFeature:(scrolltest,feature1)'],
              customProperties: {},
            }),
            mcp('mlModel', MODELS[1]!, 'mlModelProperties', {
              description: 'Scroll test ML model 2',
              customProperties: {},
            }),
          ];
          const res = await send(
            'POST',
            '/aspects?action=ingestProposalBatch',
            {
              proposals,
              async: 'false',
            },
            { headers: { 'X-RestLi-Protocol-Version': '2.0.0' } },
          );
          expect(res.status, res.text).toBe(200);
          await settle(
            () => scrollEntities({ entities: ['dataset', 'mlModel'], filter: onPlatform() }, { count: '20' }),
            (r) => ((r.body as Page | undefined)?.totalCount ?? 0) >= DATASETS.length + MODELS.length,
          );
        })());

      const scrollEntities = (body: Record<string, unknown>, params: Record<string, string>) =>
        send('POST', `${V3}/scroll`, body, { params });
      const page = (r: Reply): Page => {
        expect(r.status, r.text).toBe(200);
        return r.body as Page;
      };
      const urns = (p: Page) => p.entities.map((e) => e['urn'] as string);
      const aspectNames = (e: Record<string, unknown>) =>
        Object.keys(e).filter((k) => k !== 'urn' && k !== 'scrollId');

      it('answers a first page of five of the six matches with their total and a scrollId', async () => {
        await ingest();
        const first = page(
          await scrollEntities(
            { entities: ['dataset'], aspects: ['datasetKey'], filter: onPlatform() },
            { count: '5' },
          ),
        );
        expect(first.totalCount).toBe(6);
        expect(first.entities).toHaveLength(5);
        expect(first.scrollId).toBeTruthy();
      });

      it('answers urns only when no aspects are asked, every aspect for [], and only the listed ones otherwise', async () => {
        await ingest();
        const none = page(
          await scrollEntities({ entities: ['dataset'], filter: onPlatform() }, { count: '10' }),
        );
        expect(new Set(urns(none))).toEqual(new Set(DATASETS));
        for (const e of none.entities) expect(aspectNames(e), String(e['urn'])).toEqual([]);
        const all = page(
          await scrollEntities({ entities: ['dataset'], aspects: [], filter: onPlatform() }, { count: '10' }),
        );
        expect(new Set(urns(all))).toEqual(new Set(DATASETS));
        for (const e of all.entities)
          expect(aspectNames(e), String(e['urn'])).toEqual(
            expect.arrayContaining(['datasetKey', 'datasetProperties']),
          );
        const one = page(
          await scrollEntities(
            { entities: ['dataset'], aspects: ['datasetProperties'], filter: onPlatform() },
            { count: '10' },
          ),
        );
        expect(new Set(urns(one))).toEqual(new Set(DATASETS));
        for (const e of one.entities) expect(aspectNames(e), String(e['urn'])).toEqual(['datasetProperties']);
      });

      it('keeps to the entity types asked for, one or several', async () => {
        await ingest();
        const datasets = page(
          await scrollEntities(
            { entities: ['dataset'], aspects: ['datasetKey'], filter: onPlatform() },
            { count: '10' },
          ),
        );
        expect(new Set(urns(datasets))).toEqual(new Set(DATASETS));
        for (const e of datasets.entities)
          expect(e['datasetKey']).toMatchObject({ value: { platform: PLATFORM, name: expect.any(String) } });
        const models = page(
          await scrollEntities(
            { entities: ['mlModel'], aspects: ['mlModelKey'], filter: onPlatform() },
            { count: '10' },
          ),
        );
        expect(new Set(urns(models))).toEqual(new Set(MODELS));
        const both = page(
          await scrollEntities(
            { entities: ['dataset', 'mlModel'], aspects: ['datasetKey', 'mlModelKey'], filter: onPlatform() },
            { count: '20' },
          ),
        );
        expect(new Set(urns(both))).toEqual(new Set([...DATASETS, ...MODELS]));
      });

      it('applies the filter: a platform nobody has matches nothing', async () => {
        await ingest();
        const none = page(
          await scrollEntities(
            {
              entities: ['dataset'],
              aspects: ['datasetKey'],
              filter: onPlatform('urn:li:dataPlatform:__nonexistent__'),
            },
            { count: '10' },
          ),
        );
        expect(none.totalCount).toBe(0);
        expect(none.entities).toEqual([]);
      });

      it('pages by scrollId: two pages of three are disjoint and cover the six datasets', async () => {
        await ingest();
        const body = { entities: ['dataset'], aspects: ['datasetKey'], filter: onPlatform() };
        const first = page(await scrollEntities(body, { count: '3' }));
        expect(first.entities).toHaveLength(3);
        expect(first.scrollId).toBeTruthy();
        const second = page(await scrollEntities(body, { count: '3', scrollId: first.scrollId! }));
        expect(second.entities).toHaveLength(3);
        expect(urns(second).filter((u) => urns(first).includes(u))).toEqual([]);
        expect(new Set([...urns(first), ...urns(second)])).toEqual(new Set(DATASETS));
      });

      it('narrows by a full-text query within the filter', async () => {
        await ingest();
        const alpha = page(
          await scrollEntities(
            { entities: ['dataset'], aspects: ['datasetKey'], filter: onPlatform() },
            { count: '10', query: 'alpha' },
          ),
        );
        expect(alpha.totalCount).toBeGreaterThan(0);
        expect(urns(alpha)).toContain(dataset('alpha'));
      });

      it('answers each aspect with its system metadata, run id included, when asked', async () => {
        await ingest();
        const res = page(
          await scrollEntities(
            { entities: ['dataset'], aspects: ['datasetKey'], filter: onPlatform() },
            { count: '10', systemMetadata: 'true' },
          ),
        );
        expect(new Set(urns(res))).toEqual(new Set(DATASETS));
        for (const e of res.entities)
          expect(e['datasetKey'], String(e['urn'])).toMatchObject({
            systemMetadata: { runId: expect.stringMatching(/.+/) },
          });
      });
    });

    describe('generic_entities.json', () => {
      it('creates, patches, batch-reads, reads and deletes a dataset and a chart through the generic routes', async () => {
        const dataset = ds('datasetGenericV3');
        const chart = 'urn:li:chart:(looker,chartGenericV3)';
        compareLikeFixture(await send('DELETE', `${V3}/generic/${enc(dataset)}`), {});
        compareLikeFixture(await send('DELETE', `${V3}/generic/${enc(chart)}`), {});
        const created = await send(
          'POST',
          `${V3}/generic`,
          {
            dataset: [
              {
                urn: dataset,
                datasetProperties: { value: properties('datasetGenericV3') },
                status: { value: { removed: false } },
              },
            ],
            chart: [{ urn: chart, status: { value: { removed: false } } }],
          },
          { params: { async: 'false' } },
        );
        compareLikeFixture(created, {});
        const patched = await send(
          'PATCH',
          `${V3}/generic`,
          {
            dataset: [
              {
                urn: dataset,
                datasetProperties: {
                  value: { patch: [{ op: 'add', path: '/description', value: 'Generic description' }] },
                },
              },
            ],
          },
          { params: { async: 'false' } },
        );
        compareLikeFixture(patched, {});
        const described = { ...properties('datasetGenericV3'), description: 'Generic description' };
        const batch = await send(
          'POST',
          `${V3}/generic/batchGet`,
          {
            dataset: [{ urn: dataset, datasetProperties: { headers: {} } }],
            chart: [{ urn: chart, status: { headers: {} } }],
          },
          { params: { systemMetadata: 'false' } },
        );
        compareLikeFixture(batch, {
          json: {
            dataset: [{ urn: dataset, datasetProperties: { value: described } }],
            chart: [{ urn: chart, status: { value: { removed: false } } }],
          },
        });
        const one = await send('GET', `${V3}/generic/${enc(dataset)}`, undefined, {
          params: { aspects: 'datasetProperties' },
        });
        compareLikeFixture(one, { json: { urn: dataset, datasetProperties: { value: described } } });
        compareLikeFixture(await send('DELETE', `${V3}/generic/${enc(dataset)}`), {});
        compareLikeFixture(await send('DELETE', `${V3}/generic/${enc(chart)}`), {});
        expect((await send('GET', `${V3}/generic/${enc(dataset)}`)).status).toBe(404);
        expect((await send('GET', `${V3}/generic/${enc(chart)}`)).status).toBe(404);
      });
    });

    describe('fixture steps this catalog once answered differently', () => {
      it('exceptions.json: refuses a urn of an unknown entity type with 400 "Invalid urn!: <urn>", before its aspects, sync and async', async () => {
        const urn = 'urn:li:FOOBAR:(urn:li:dataPlatform:test,InvalidExceptions,PROD)';
        const sync = await send('POST', `${V3}/dataset`, [{ urn, status: { value: { removed: false } } }], {
          params: { createIfNotExists: 'false', async: 'false' },
        });
        expectOpenApiError(sync, 400, `Invalid urn!: ${urn}`, true);
        const async = await send('POST', `${V3}/dataset`, [{ urn, INVALID: { value: { removed: false } } }], {
          params: { createIfNotExists: 'false', async: 'true' },
        });
        expectOpenApiError(async, 400, `Invalid urn!: ${urn}`, true);
      });

      it('entities.json: reads async=False (Python requests spelling of a false param) as false in a batch PATCH', async () => {
        const name = 'datasetPatchFalseV3';
        const urn = ds(name);
        const res = await send(
          'PATCH',
          `${V3}/dataset`,
          [
            {
              urn,
              datasetProperties: {
                value: { patch: [{ op: 'add', path: '/description', value: 'Test description' }] },
              },
            },
          ],
          { params: { async: 'False' } },
        );
        compareLikeFixture(res, {
          json: [
            {
              urn,
              ...datasetDefaults(name),
              datasetProperties: {
                value: { description: 'Test description', tags: [], customProperties: {} },
              },
            },
          ],
        });
      });

      it('entities.json: scrolls across entities with the field query `qualifiedName:entities\\.datasetSingle*` (escaped dot, trailing wildcard)', async () => {
        await createSingles();
        const res = await send(
          'POST',
          `${V3}/scroll`,
          { aspects: ['datasetProperties'] },
          {
            params: { pitKeepAlive: '1m', count: '1', query: FIXTURE_QUERY },
          },
        );
        compareLikeFixture(
          res,
          {
            statuses: [200],
            exclude: ['scrollId', 'totalCount', 'entities.*.scrollId', 'facets'],
            json: {
              entities: [{ urn: ds(SINGLES[0]!), datasetProperties: { value: properties(SINGLES[0]!) } }],
            },
            step: 'cross-entity scroll',
          },
          true,
        );
        expect.soft((res.body as { totalCount?: number }).totalCount, 'cross-entity totalCount').toBe(3);
        const perType = await send(
          'GET',
          `${V3}/dataset?aspects=datasetProperties&aspects=status`,
          undefined,
          {
            params: { pitKeepAlive: '1m', count: '1', query: FIXTURE_QUERY },
          },
        );
        compareLikeFixture(
          perType,
          {
            statuses: [200],
            exclude: ['scrollId', 'entities.*.scrollId', 'totalCount'],
            json: {
              entities: [
                {
                  urn: ds(SINGLES[0]!),
                  datasetProperties: { value: properties(SINGLES[0]!) },
                  status: { value: { removed: false } },
                },
              ],
              facets: [],
            },
            step: 'per-type scroll',
          },
          true,
        );
      });

      it('entities.json: scrolls with systemMetadata=true answering aspectCreated/aspectModified by the writer, version "1", eventSource OPENAPI and no run ids', async () => {
        await createSingles();
        const res = await send(
          'POST',
          `${V3}/scroll`,
          { aspects: ['datasetProperties'] },
          {
            params: { pitKeepAlive: '1m', count: '1', query: FIRST_SINGLE_QUERY, systemMetadata: 'true' },
          },
        );
        const sm = 'entities.0.datasetProperties.systemMetadata';
        compareLikeFixture(res, {
          statuses: [200],
          exclude: [
            'scrollId',
            'entities.*.scrollId',
            'totalCount',
            'facets',
            `${sm}.properties.sourceIP`,
            `${sm}.properties.telemetryTraceId`,
            'entities.0.datasetProperties.auditStamp',
            `${sm}.lastObserved`,
            `${sm}.aspectCreated.time`,
            `${sm}.aspectModified.time`,
          ],
          json: {
            entities: [
              {
                urn: ds(SINGLES[0]!),
                datasetProperties: {
                  value: properties(SINGLES[0]!),
                  systemMetadata: {
                    aspectCreated: { actor: 'urn:li:corpuser:datahub' },
                    aspectModified: { actor: 'urn:li:corpuser:datahub' },
                    version: '1',
                    schemaVersion: 1,
                    properties: { eventSource: 'OPENAPI' },
                  },
                },
              },
            ],
          },
        });
      });

      it("entities.json: a cross-entity scroll's entity facet counts the page (aggregations skipped by default), or every match with skipAggregation=false", async () => {
        await createSingles();
        const scroll = (params: Record<string, string>) =>
          send(
            'POST',
            `${V3}/scroll`,
            { aspects: ['datasetProperties'] },
            {
              params: {
                pitKeepAlive: '1m',
                count: '1',
                query: FIXTURE_QUERY,
                sortCriteria: 'urn',
                systemMetadata: 'true',
                ...params,
              },
            },
          );
        const facets = (r: Reply) => (r.body as { facets?: unknown }).facets;
        const skipped = await scroll({});
        expect(skipped.status).toBe(200);
        expect((skipped.body as { totalCount?: number }).totalCount).toBe(3);
        expect(facets(skipped)).toEqual([{ field: 'entity', aggregations: { dataset: 1 } }]);
        expect(facets(await scroll({ skipAggregation: 'false' }))).toEqual([
          { field: 'entity', aggregations: { dataset: 3 } },
        ]);
      });

      it('retention_policies.json: keeps no history of an execution request result (maxVersions 1), so version 2 is 404', async () => {
        const urn = 'urn:li:dataHubExecutionRequest:retention-smoke-exec-1';
        const params = { async: 'false' };
        const write = (status: string, withKey: boolean) =>
          send(
            'POST',
            `${V3}/datahubexecutionrequest`,
            [
              {
                urn,
                ...(withKey
                  ? { dataHubExecutionRequestKey: { value: { id: 'retention-smoke-exec-1' } } }
                  : {}),
                dataHubExecutionRequestResult: { value: { status } },
              },
            ],
            { params },
          );
        compareLikeFixture(
          await send('DELETE', `${V3}/datahubexecutionrequest/${enc(urn)}`),
          { step: 'cleanup' },
          true,
        );
        compareLikeFixture(await write('PENDING', true), { step: 'create' }, true);
        compareLikeFixture(await write('RUNNING', false), { step: 'first change' }, true);
        compareLikeFixture(await write('COMPLETED', false), { step: 'second change' }, true);
        const path = `${V3}/datahubexecutionrequest/${enc(urn)}/datahubexecutionrequestresult`;
        compareLikeFixture(
          await send('GET', path, undefined, { params: { version: '0' } }),
          { step: 'version 0', json: { value: { status: 'COMPLETED' } } },
          true,
        );
        compareLikeFixture(
          await send('GET', path, undefined, { params: { version: '2' } }),
          { step: 'version 2', statuses: [404] },
          true,
        );
        compareLikeFixture(
          await send('GET', path, undefined, { params: { version: '1' } }),
          { step: 'version 1', statuses: [404] },
          true,
        );
      });

      it('aspects.json: reads version 2, the number the second write stamped, as that write', async () => {
        const urn = ds('dataset2AspectV3');
        const path = `${V3}/dataset/${enc(urn)}/globaltags`;
        const params = { createIfNotExists: 'false', createEntityIfNotExists: 'false', async: 'false' };
        const one = { tags: [{ tag: 'urn:li:tag:tag1' }] };
        const two = { tags: [{ tag: 'urn:li:tag:tag1' }, { tag: 'urn:li:tag:tag2' }] };
        compareLikeFixture(await send('POST', path, { value: one }, { params }), {});
        compareLikeFixture(await send('POST', path, { value: two }, { params }), {});
        compareLikeFixture(await send('GET', path, undefined, { params: { version: '2' } }), {
          json: { value: two },
        });
      });

      it('timeseries.json: writes two profiles, reads the newest or the one before a time bound, and peels them off one DELETE at a time', async () => {
        // Every step is checked softly, so that a failure lists each step that differs from the fixture.
        const urn = ds('datasetTimeseriesV3');
        const path = `${V3}/dataset/${enc(urn)}/datasetProfile`;
        compareLikeFixture(await send('DELETE', `${V3}/dataset/${enc(urn)}`), { step: 'cleanup' }, true);
        const params = { createIfNotExists: 'false', async: 'false' };
        const older = { rowCount: 100, messageId: 'old profile', timestampMillis: 100 };
        const newer = { rowCount: 200, messageId: 'new profile', timestampMillis: 200 };
        compareLikeFixture(
          await send('POST', path, { value: older }, { params }),
          { step: 'create old', json: { urn, datasetProfile: { value: older } } },
          true,
        );
        compareLikeFixture(
          await send('POST', path, { value: newer }, { params }),
          { step: 'create new', json: { urn, datasetProfile: { value: newer } } },
          true,
        );
        const read = (version?: string): Promise<Reply> =>
          send('GET', path, undefined, version === undefined ? {} : { params: { version } });
        const holds = (value: unknown) => (r: Reply) => isDeepStrictEqual(r.body, { value });
        // The fixture waits for the index between steps; at most a few seconds here.
        compareLikeFixture(
          await settle(() => read(), holds(newer), 3_000),
          { step: 'get latest', json: { value: newer } },
          true,
        );
        compareLikeFixture(await read('150'), { step: 'get version=150', json: { value: older } }, true);
        compareLikeFixture(await send('DELETE', path), { step: 'delete newest' }, true);
        compareLikeFixture(
          await settle(() => read(), holds(older), 3_000),
          { step: 'get after one delete', json: { value: older } },
          true,
        );
        compareLikeFixture(await send('DELETE', path), { step: 'delete last' }, true);
        compareLikeFixture(
          await settle(
            () => read(),
            (r) => r.status === 404,
            3_000,
          ),
          { step: 'get after two deletes', statuses: [404] },
          true,
        );
      });
    });
  });
}
