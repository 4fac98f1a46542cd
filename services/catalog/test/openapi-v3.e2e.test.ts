import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { SYSTEM_AUTH_HEADERS, startTestCatalog, type TestCatalog } from './harness.js';

interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Headers;
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<Reply> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
    headers: res.headers,
  };
}

for (const family of FAMILIES) {
  if (family.skip) console.warn(`skipping OpenAPI v3 e2e on ${family.name}: ${family.skip}`);

  describe.skipIf(family.skip !== undefined)(`OpenAPI v3 entity API on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    const run = Math.random().toString(36).slice(2, 8);
    // A dataset name with a `/` in it: raw in a path it must still read as one urn.
    const slashed = `urn:li:dataset:(urn:li:dataPlatform:hive,v3_${run}/a,PROD)`;
    const plain = `urn:li:dataset:(urn:li:dataPlatform:hive,v3_${run}.b,PROD)`;
    const V3 = '/openapi/v3/entity';

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
    });
    afterAll(async () => catalog?.dispose());

    it('creates entities in a synchronous batch and answers with what was stored', async () => {
      const res = await call(base, 'POST', `${V3}/dataset?async=false`, [
        {
          urn: slashed,
          datasetProperties: { value: { description: 'first' } },
          globalTags: { value: { tags: [{ tag: 'urn:li:tag:a' }] } },
        },
        {
          urn: plain,
          datasetProperties: { value: { description: 'second' }, headers: { ...SYSTEM_AUTH_HEADERS } },
        },
      ]);
      expect(res.status).toBe(200);
      // New entities: what their creation stored (key and default aspects) comes back too.
      const platform = 'urn:li:dataPlatform:hive';
      expect(res.body).toEqual([
        {
          urn: slashed,
          datasetProperties: { value: { description: 'first' } },
          globalTags: { value: { tags: [{ tag: 'urn:li:tag:a' }] } },
          datasetKey: { value: { platform, name: `v3_${run}/a`, origin: 'PROD' } },
          browsePathsV2: { value: { path: [{ id: 'Default' }] } },
          dataPlatformInstance: { value: { platform } },
        },
        {
          urn: plain,
          datasetProperties: { value: { description: 'second' } },
          datasetKey: { value: { platform, name: `v3_${run}.b`, origin: 'PROD' } },
          browsePathsV2: { value: { path: [{ id: `v3_${run}` }] } },
          dataPlatformInstance: { value: { platform } },
        },
      ]);
      expect(res.headers.get('traceparent')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    });

    it('reads an entity by raw or encoded urn, one aspect, and answers HEAD', async () => {
      const raw = await call(base, 'GET', `${V3}/dataset/${slashed}?aspects=datasetProperties`);
      expect(raw.body).toEqual({
        urn: slashed,
        datasetProperties: { value: { description: 'first' } },
      });
      const encoded = await call(
        base,
        'GET',
        `${V3}/dataset/${encodeURIComponent(slashed)}/globaltags?systemMetadata=true`,
      );
      expect(encoded.body).toMatchObject({
        value: { tags: [{ tag: 'urn:li:tag:a' }] },
        systemMetadata: { lastObserved: expect.any(Number) },
      });
      expect((await call(base, 'HEAD', `${V3}/dataset/${encodeURIComponent(plain)}`)).status).toBe(204);
      const missing = `urn:li:dataset:(urn:li:dataPlatform:hive,v3_${run}.none,PROD)`;
      expect((await call(base, 'HEAD', `${V3}/dataset/${encodeURIComponent(missing)}`)).status).toBe(404);
      const notFound = await call(base, 'GET', `${V3}/dataset/${encodeURIComponent(missing)}`);
      expect(notFound.status).toBe(404);
      expect(notFound.headers.get('Not-Found-Reason')).toBe('ENTITY');
    });

    it('patches an aspect and a batch, composing with what is stored', async () => {
      const one = await call(base, 'PATCH', `${V3}/dataset/${encodeURIComponent(plain)}/globalTags`, {
        patch: [{ op: 'add', path: '/tags/urn:li:tag:x', value: { tag: 'urn:li:tag:x' } }],
      });
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ urn: plain, globalTags: { value: { tags: [{ tag: 'urn:li:tag:x' }] } } });
      const batch = await call(base, 'PATCH', `${V3}/dataset?async=false`, [
        {
          urn: plain,
          globalTags: {
            value: { patch: [{ op: 'add', path: '/tags/urn:li:tag:y', value: { tag: 'urn:li:tag:y' } }] },
          },
        },
      ]);
      expect(batch.status).toBe(200);
      expect(batch.body).toEqual([
        { urn: plain, globalTags: { value: { tags: [{ tag: 'urn:li:tag:x' }, { tag: 'urn:li:tag:y' }] } } },
      ]);
      const noPatch = await call(base, 'PATCH', `${V3}/dataset?async=false`, [
        { urn: plain, globalTags: { value: {} } },
      ]);
      expect(noPatch).toMatchObject({ status: 400, body: { error: 'Missing `patch` field.' } });
    });

    it('creates an aspect only when it is absent unless told otherwise', async () => {
      const path = `${V3}/dataset/${encodeURIComponent(plain)}/status`;
      expect((await call(base, 'POST', path, { value: { removed: false } })).status).toBe(200);
      const again = await call(base, 'POST', path, { value: { removed: false } });
      expect(again).toMatchObject({ status: 400, body: { error: 'Validation Error' } });
      const upsert = await call(base, 'POST', `${path}?createIfNotExists=false`, {
        value: { removed: false },
      });
      expect(upsert.status).toBe(200);
    });

    it('creates an entity with one aspect only when the entity is absent (createIfEntityNotExists)', async () => {
      const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,v3_${run}.fresh,PROD)`;
      const path = `${V3}/dataset/${encodeURIComponent(urn)}/globalTags?createIfEntityNotExists=true`;
      const tags = { tags: [{ tag: 'urn:li:tag:fresh' }] };
      const created = await call(base, 'POST', path, { value: tags });
      expect(created).toMatchObject({ status: 200, body: { urn, globalTags: { value: tags } } });
      const entity = await call(base, 'GET', `${V3}/dataset/${encodeURIComponent(urn)}`);
      expect(Object.keys(entity.body as object)).toEqual(
        expect.arrayContaining(['datasetKey', 'globalTags', 'browsePathsV2']),
      );
      // The entity exists now: another aspect through the same flag is refused, nothing written.
      const again = await call(
        base,
        'POST',
        `${V3}/dataset/${encodeURIComponent(urn)}/status?createIfEntityNotExists=true`,
        { value: { removed: true } },
      );
      expect(again).toMatchObject({
        status: 400,
        body: {
          error: 'Validation Error',
          message: expect.stringContaining(
            'Cannot perform CREATE_ENTITY if not exists since the entity key already exists.',
          ),
        },
      });
      expect((await call(base, 'GET', `${V3}/dataset/${encodeURIComponent(urn)}/status`)).status).toBe(404);
    });

    it('reads a stored version in batchGet when an aspect carries If-Version-Match', async () => {
      const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,v3_${run}.versions,PROD)`;
      const path = `${V3}/dataset/${encodeURIComponent(urn)}/globalTags?createIfNotExists=false`;
      for (const tag of ['first', 'second'])
        expect(
          (await call(base, 'POST', path, { value: { tags: [{ tag: `urn:li:tag:${tag}` }] } })).status,
        ).toBe(200);
      const read = async (version?: string) =>
        (
          await call(base, 'POST', `${V3}/dataset/batchGet`, [
            {
              urn,
              globalTags:
                version === undefined
                  ? {}
                  : { headers: { ...SYSTEM_AUTH_HEADERS, 'If-Version-Match': version } },
            },
          ])
        ).body as { globalTags: { value: { tags: { tag: string }[] } } }[];
      expect((await read())[0]!.globalTags.value.tags[0]!.tag).toBe('urn:li:tag:second');
      expect((await read('1'))[0]!.globalTags.value.tags[0]!.tag).toBe('urn:li:tag:first');
      expect((await read('2'))[0]!.globalTags.value.tags[0]!.tag).toBe('urn:li:tag:second');
      expect(await read('7')).toEqual([]);
    });

    it('honours If-Version-Match in the aspect headers: a stale version is a 412', async () => {
      const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,v3_${run}.conditional,PROD)`;
      const write = (version: string, removed: boolean) =>
        call(base, 'POST', `${V3}/dataset?async=false`, [
          {
            urn,
            status: { value: { removed }, headers: { ...SYSTEM_AUTH_HEADERS, 'If-Version-Match': version } },
          },
        ]);
      expect(await write('-10000', false)).toMatchObject({
        status: 412,
        body: { error: 'Precondition Error' },
      });
      expect((await write('-1', false)).status).toBe(200);
      expect((await write('1', true)).status).toBe(200);
      const stale = await write('1', false);
      expect(stale).toMatchObject({ status: 412, body: { error: 'Precondition Error' } });
      expect((stale.body as { message: string }).message).toBe('Expected version 1, actual version 2');
      const read = await call(base, 'GET', `${V3}/dataset/${encodeURIComponent(urn)}/status`);
      expect(read.body).toEqual({ value: { removed: true } });
    });

    it('writes and reads through the generic routes, recording where a write came from', async () => {
      const chart = `urn:li:chart:(looker,v3_${run})`;
      const res = await call(base, 'POST', `${V3}/generic?async=false&systemMetadata=true`, {
        chart: [{ urn: chart, status: { value: { removed: false } } }],
        dataset: [{ urn: plain, status: { value: { removed: false } } }],
      });
      expect(res.status).toBe(200);
      const body = res.body as Record<
        string,
        { urn: string; status: { value: unknown; systemMetadata: { properties: Record<string, string> } } }[]
      >;
      expect(body['chart']?.[0]).toMatchObject({ urn: chart, status: { value: { removed: false } } });
      expect(body['chart']?.[0]?.status.systemMetadata.properties).toMatchObject({
        eventSource: 'OPENAPI',
        telemetryTraceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      });
      const got = await call(base, 'POST', `${V3}/generic/batchGet`, { chart: [{ urn: chart, status: {} }] });
      expect(got.body).toEqual({ chart: [{ urn: chart, status: { value: { removed: false } } }] });
      expect((await call(base, 'GET', `${V3}/generic/${encodeURIComponent(chart)}`)).status).toBe(200);
      const notList = await call(base, 'POST', `${V3}/generic`, { chart: { urn: chart } });
      expect(notList).toMatchObject({
        status: 400,
        body: { error: "Value of property 'chart' must be an array" },
      });
    });

    it('honours If-Modified-Since and If-Unmodified-Since, and refuses a malformed instant', async () => {
      const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,v3_${run}.since,PROD)`;
      const write = (headers: Record<string, string>) =>
        call(base, 'POST', `${V3}/dataset?async=false`, [
          { urn, status: { value: { removed: false }, headers } },
        ]);
      const past = new Date(Date.now() - 3_600_000).toISOString();
      const future = new Date(Date.now() + 3_600_000).toISOString();
      // Absent: modified at the earliest time.
      expect(await write({ 'If-Modified-Since': past })).toMatchObject({
        status: 412,
        body: { error: 'Precondition Error' },
      });
      expect((await write({ 'If-Unmodified-Since': past })).status).toBe(200);
      expect((await write({ 'If-Modified-Since': past })).status).toBe(200);
      expect(await write({ 'If-Unmodified-Since': past })).toMatchObject({ status: 412 });
      expect((await write({ 'If-Unmodified-Since': future })).status).toBe(200);
      expect((await write({ 'If-Modified-Since': 'yesterday' })).status).toBe(400);
    });

    it('takes the conditions of a single-aspect write as HTTP headers too', async () => {
      const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,v3_${run}.http_conditional,PROD)`;
      const path = `${V3}/dataset/${encodeURIComponent(urn)}/status?createIfNotExists=false`;
      const write = (version: string) =>
        fetch(`${base}${path}`, {
          method: 'POST',
          headers: {
            ...SYSTEM_AUTH_HEADERS,
            'Content-Type': 'application/json',
            'If-Version-Match': version,
          },
          body: JSON.stringify({ value: { removed: false } }),
        });
      expect((await write('3')).status).toBe(412);
      expect((await write('-1')).status).toBe(200);
    });

    it('accepts an asynchronous batch with 202 and stores it', async () => {
      const later = `urn:li:dataset:(urn:li:dataPlatform:hive,v3_${run}.later,PROD)`;
      const res = await call(base, 'POST', `${V3}/dataset`, [
        { urn: later, status: { value: { removed: false } } },
      ]);
      expect(res).toMatchObject({
        status: 202,
        body: [{ urn: later, status: { value: { removed: false } } }],
      });
      const deadline = Date.now() + 20_000;
      while ((await call(base, 'GET', `${V3}/dataset/${encodeURIComponent(later)}`)).status !== 200) {
        if (Date.now() > deadline) throw new Error('the async write never became readable');
        await new Promise((r) => setTimeout(r, 50));
      }
    });

    it('scrolls one type in pages, with no scrollId on the last one', async () => {
      await fetch(`${base}/aspects?action=ingestProposal`, {
        method: 'POST',
        headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', 'X-Wait-For-Index': 'true' },
        body: JSON.stringify({
          proposal: {
            entityType: 'dataset',
            entityUrn: plain,
            changeType: 'UPSERT',
            aspectName: 'datasetProperties',
            aspect: {
              contentType: 'application/json',
              value: JSON.stringify({ description: `second ${run}` }),
            },
          },
          async: 'false',
        }),
      });
      const seen: string[] = [];
      let scrollId: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await call(
          base,
          'GET',
          `${V3}/dataset?count=1&query=v3_${run}&aspects=datasetProperties${scrollId ? `&scrollId=${scrollId}` : ''}`,
        );
        const body = page.body as { scrollId?: string; entities: { urn: string }[]; totalCount: number };
        seen.push(...body.entities.map((e) => e.urn));
        scrollId = body.scrollId;
        if (scrollId === undefined) break;
      }
      expect(scrollId).toBeUndefined();
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(expect.arrayContaining([plain, slashed]));
    });

    it('scrolls sorted by sortCriteria and sortOrder across pages, and in disjoint slices', async () => {
      const names = ['echo', 'bravo', 'foxtrot', 'alpha', 'delta', 'charlie'];
      const urnOf = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,v3sort_${run}.n${i},PROD)`;
      const indexed = await fetch(`${base}/aspects?action=ingestProposalBatch`, {
        method: 'POST',
        headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', 'X-Wait-For-Index': 'true' },
        body: JSON.stringify({
          proposals: names.map((name, i) => ({
            entityType: 'dataset',
            entityUrn: urnOf(i),
            changeType: 'UPSERT',
            aspectName: 'datasetProperties',
            aspect: { contentType: 'application/json', value: JSON.stringify({ name }) },
          })),
          async: 'false',
        }),
      });
      expect(indexed.status).toBe(200);
      const scrollAll = async (params: string) => {
        const seen: string[] = [];
        let scrollId: string | undefined;
        for (let page = 0; page < 10; page++) {
          const reply = await call(
            base,
            'GET',
            `${V3}/dataset?count=2&query=v3sort_${run}&${params}${scrollId ? `&scrollId=${scrollId}` : ''}`,
          );
          expect(reply.status).toBe(200);
          const body = reply.body as { scrollId?: string; entities: { urn: string }[] };
          seen.push(...body.entities.map((e) => e.urn));
          scrollId = body.scrollId;
          if (scrollId === undefined) break;
        }
        return seen;
      };
      const byName = names
        .map((name, i) => ({ name, urn: urnOf(i) }))
        .sort((a, b) => b.name.localeCompare(a.name))
        .map((e) => e.urn);
      expect(await scrollAll('sortCriteria=name&sortOrder=DESCENDING')).toEqual(byName);
      expect(await scrollAll('sortCriteria=name')).toEqual([...byName].reverse());
      // A scrollId is for the sort it came from.
      const first = await call(base, 'GET', `${V3}/dataset?count=2&query=v3sort_${run}&sortCriteria=name`);
      const other = await call(
        base,
        'GET',
        `${V3}/dataset?count=2&query=v3sort_${run}&scrollId=${(first.body as { scrollId: string }).scrollId}`,
      );
      expect(other).toMatchObject({ status: 400, body: { error: expect.stringContaining('another sort') } });
      const slices = await Promise.all([0, 1, 2].map((id) => scrollAll(`sliceId=${id}&sliceMax=3`)));
      expect(slices.flat().sort()).toEqual(names.map((_, i) => urnOf(i)).sort());
      expect(new Set(slices.flat()).size).toBe(names.length);
      expect(await call(base, 'GET', `${V3}/dataset?sliceId=3&sliceMax=3`)).toMatchObject({ status: 400 });
      expect(await call(base, 'GET', `${V3}/dataset?sliceId=1`)).toMatchObject({ status: 400 });
    });

    it('answers bad input with the ecosystem error bodies, writing nothing', async () => {
      expect(await call(base, 'GET', `${V3}/dataset/not-a-urn`)).toMatchObject({
        status: 400,
        body: { error: 'Invalid urn!: not-a-urn' },
      });
      expect((await call(base, 'GET', `${V3}/nosuchentity`)).status).toBe(400);
      const unknownAspect = await call(base, 'POST', `${V3}/dataset?async=false`, [
        { urn: plain, nosuch: { value: {} } },
      ]);
      expect(unknownAspect).toMatchObject({ status: 400, body: { error: 'Validation Error' } });
      const invalid = await call(base, 'POST', `${V3}/dataset?async=false`, [
        { urn: plain, status: { value: { removed: 'yes' } } },
      ]);
      expect(invalid).toMatchObject({ status: 400, body: { error: 'Validation Error' } });
      const noUrn = await call(base, 'POST', `${V3}/dataset`, [{ status: { value: { removed: true } } }]);
      expect(noUrn).toMatchObject({ status: 400, body: { error: 'Missing `urn` field' } });
      const badJson = await fetch(`${base}${V3}/dataset`, {
        method: 'POST',
        headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json' },
        body: '[{',
      });
      expect(badJson.status).toBe(400);
      expect(await badJson.json()).toMatchObject({ error: 'Invalid JSON format' });
      const status = await call(base, 'GET', `${V3}/dataset/${encodeURIComponent(plain)}/status`);
      expect(status.body).toEqual({ value: { removed: false } });
    });

    it('serves its document as JSON and YAML, and the Rest.li docs page rendered from it', async () => {
      const json = await call(base, 'GET', '/openapi/v3/api-docs');
      expect(json.body).toMatchObject({ openapi: '3.1.0' });
      const yaml = await fetch(`${base}/openapi/v3/api-docs.yaml`, { headers: SYSTEM_AUTH_HEADERS });
      expect((await yaml.text()).startsWith('openapi: 3.1.0')).toBe(true);
      const docs = await fetch(`${base}/restli/docs`, { headers: SYSTEM_AUTH_HEADERS });
      expect(docs.headers.get('content-type')).toContain('text/html');
      const page = await docs.text();
      expect(page).toContain('POST /aspects');
      expect(page).toContain('ingestProposalBatch');
      expect(page).not.toContain('/openapi/v3/entity/dataset');
    });

    it('serves each group of the document on its own, and refuses a group it does not have', async () => {
      const v3 = await call(base, 'GET', '/openapi/v3/api-docs?group=10-openapi-v3');
      expect(v3.body).toMatchObject({ openapi: '3.1.0', info: { title: 'Entity API' } });
      const paths = Object.keys((v3.body as { paths: object }).paths);
      expect(paths).toContain('/openapi/v3/entity/dataset/{urn}/globaltags');
      expect(paths).not.toContain('/aspects');
      const v2 = await fetch(`${base}/openapi/v3/api-docs.yaml?group=50-openapi-v2`, {
        headers: SYSTEM_AUTH_HEADERS,
      });
      expect(await v2.text()).toContain('/openapi/v2/timeseries/{entityName}/{aspectName}');
      const unknown = await call(base, 'GET', '/openapi/v3/api-docs?group=99-nothing');
      expect(unknown).toMatchObject({ status: 400, body: { error: expect.stringContaining('group') } });
    });

    it('deletes an aspect, then the entity', async () => {
      expect(
        (await call(base, 'DELETE', `${V3}/dataset/${encodeURIComponent(slashed)}/globalTags`)).status,
      ).toBe(200);
      expect(
        (await call(base, 'GET', `${V3}/dataset/${encodeURIComponent(slashed)}/globalTags`)).status,
      ).toBe(404);
      expect((await call(base, 'DELETE', `${V3}/dataset/${slashed}`)).status).toBe(200);
      expect((await call(base, 'GET', `${V3}/dataset/${encodeURIComponent(slashed)}`)).status).toBe(404);
    });
  });
}
