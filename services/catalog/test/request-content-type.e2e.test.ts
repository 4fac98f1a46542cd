import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  datasetUrn,
  enc,
  get,
  logIn,
  proposal,
  startTestCatalog,
  SYSTEM_AUTH_HEADERS,
  type JsonResponse,
  type TestCatalog,
} from './harness.js';

let catalog: TestCatalog;
let base: string;

beforeAll(async () => {
  catalog = await startTestCatalog();
  base = catalog.baseUrl;
});
afterAll(async () => catalog?.dispose());

/** Sends `body` as it is with the given Content-Type (none when undefined). */
async function send(
  method: string,
  path: string,
  contentType: string | undefined,
  body: string | Blob | undefined,
): Promise<JsonResponse> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...SYSTEM_AUTH_HEADERS,
      'X-RestLi-Protocol-Version': '2.0.0',
      ...(contentType === undefined ? {} : { 'Content-Type': contentType }),
    },
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text };
}

async function proposalLogEnd(): Promise<number> {
  const lag = await catalog.log.lag('persistence', 'MetadataChangeProposal_v1');
  return lag.reduce((sum, p) => sum + Number(p.endOffset), 0);
}

const ingestBody = (urn: string) =>
  JSON.stringify({ proposal: proposal(urn, 'status', { removed: false }), async: 'false' });

async function storedAspects(urn: string): Promise<object> {
  return ((await get(base, `/entitiesV2/${enc(urn)}`)).body as { aspects: object }).aspects;
}

describe('a body must say it is JSON', () => {
  it('a text/plain ingestProposal gets 415 and writes nothing', async () => {
    const urn = datasetUrn('ct.text_plain');
    const before = await proposalLogEnd();
    const res = await send('POST', '/aspects?action=ingestProposal', 'text/plain', ingestBody(urn));
    expect(res.status).toBe(415);
    expect((res.body as { message: string }).message).toMatch(/text\/plain.*accepts application\/json/);
    expect(await proposalLogEnd()).toBe(before);
    expect(await storedAspects(urn)).toEqual({});
  });

  it('a write with a body and no Content-Type gets 415 on OpenAPI, audit search and GraphQL, and writes nothing', async () => {
    const urn = datasetUrn('ct.untyped');
    const before = await proposalLogEnd();
    // A Blob without a type is how a browser sends a body without a Content-Type.
    const untyped = (text: string) => new Blob([text]);
    const cases: [string, string, Blob][] = [
      [
        'POST',
        '/openapi/v3/entity/dataset?async=false',
        untyped(JSON.stringify([{ urn, status: { value: { removed: false } } }])),
      ],
      ['POST', '/openapi/v1/events/audit/search', untyped('{}')],
      [
        'POST',
        '/api/graphql',
        untyped(JSON.stringify({ query: 'mutation { createTag(input: {id: "t"}) }' })),
      ],
    ];
    for (const [method, path, body] of cases) {
      const res = await send(method, path, undefined, body);
      expect(res.status, path).toBe(415);
      expect(res.text, path).toMatch(/no Content-Type.*accepts application\/json/);
    }
    expect(await proposalLogEnd()).toBe(before);
    expect(await storedAspects(urn)).toEqual({});
  });

  it('a Rest.li action reads a body without a Content-Type as JSON from a caller with an Authorization header, as Rest.li does', async () => {
    const urn = datasetUrn('ct.untyped_restli');
    const res = await send('POST', '/aspects?action=ingestProposal', undefined, new Blob([ingestBody(urn)]));
    expect(res.status, res.text).toBe(200);
    expect(await storedAspects(urn)).toHaveProperty('status');
  });

  it('a Rest.li write without a Content-Type and without an Authorization header is refused, and writes nothing', async () => {
    const urn = datasetUrn('ct.untyped_cookie');
    const before = await proposalLogEnd();
    const res = await fetch(`${base}/aspects?action=ingestProposal`, {
      method: 'POST',
      headers: { Cookie: `PLAY_SESSION=${await logIn(base)}` },
      body: new Blob([ingestBody(urn)]),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await proposalLogEnd()).toBe(before);
    expect(await storedAspects(urn)).toEqual({});
  });

  it('a cross-site text/plain GraphQL mutation gets 415 and runs nothing', async () => {
    const res = await send(
      'POST',
      '/api/graphql',
      'text/plain;charset=UTF-8',
      JSON.stringify({ query: 'mutation { createTag(input: {id: "csrf", name: "csrf"}) }' }),
    );
    expect(res.status).toBe(415);
    const tag = await get(base, `/entitiesV2/${enc('urn:li:tag:csrf')}`);
    expect((tag.body as { aspects?: object }).aspects ?? {}).toEqual({});
  });

  it('a form post to an OpenAPI write gets 415 naming the accepted types', async () => {
    const res = await send(
      'POST',
      '/openapi/v3/entity/dataset?async=false',
      'application/x-www-form-urlencoded',
      'urn=x',
    );
    expect(res.status).toBe(415);
    expect((res.body as { error: string }).error).toMatch(/accepts application\/json/);
  });

  it('charset parameters and +json suffixes are accepted', async () => {
    for (const [i, type] of [
      'application/json; charset=utf-8',
      'application/JSON;charset=UTF-8',
      'application/vnd.restli+json',
    ].entries()) {
      const urn = datasetUrn(`ct.accepted_${i}`);
      const res = await send('POST', '/aspects?action=ingestProposal', type, ingestBody(urn));
      expect(res.status, type).toBe(200);
      expect(await storedAspects(urn), type).toHaveProperty('status');
    }
  });

  it('a JSON Patch content type is accepted on OpenAPI PATCH routes and refused elsewhere', async () => {
    const urn = datasetUrn('ct.patch');
    const patch = JSON.stringify({
      patch: [{ op: 'add', path: '/customProperties/team', value: 'core' }],
    });
    const patched = await send(
      'PATCH',
      `/openapi/v3/entity/dataset/${enc(urn)}/datasetProperties?async=false`,
      'application/json-patch+json',
      patch,
    );
    expect(patched.status).toBe(200);
    const refused = await send(
      'POST',
      '/aspects?action=ingestProposal',
      'application/json-patch+json',
      ingestBody(urn),
    );
    expect(refused.status).toBe(415);
    expect((refused.body as { message: string }).message).toMatch(/JSON Patch/);
  });

  it('GETs and bodiless writes are unaffected by the Content-Type', async () => {
    const read = await send('GET', `/entitiesV2/${enc(datasetUrn('ct.none'))}`, 'text/plain', undefined);
    expect(read.status).toBe(200);
    const list = await send('POST', '/runs?action=list', 'text/plain', undefined);
    expect(list.status).toBe(200);
    const untyped = await send('POST', '/runs?action=list', undefined, undefined);
    expect(untyped.status).toBe(200);
  });
});
