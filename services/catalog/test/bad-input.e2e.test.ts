import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  datasetUrn,
  enc,
  get,
  post,
  proposal,
  request,
  startTestCatalog,
  SYSTEM_CLIENT_AUTHORIZATION,
  type TestCatalog,
} from './harness.js';

let catalog: TestCatalog;
let base: string;

beforeAll(async () => {
  catalog = await startTestCatalog({ MAX_REQUEST_BYTES: String(64 * 1024) });
  base = catalog.baseUrl;
});
afterAll(async () => catalog.dispose());

const urn = datasetUrn('db.bad');

async function proposalLogEnd(): Promise<number> {
  const lag = await catalog.log.lag('persistence', 'MetadataChangeProposal_v1');
  return lag.reduce((sum, p) => sum + Number(p.endOffset), 0);
}

/** Sends a bad request and proves it changed nothing: no record on the proposal log, nothing stored. */
async function expectRejected(
  send: () => Promise<{ status: number; body: unknown }>,
  status: number,
  message: RegExp,
): Promise<void> {
  const before = await proposalLogEnd();
  const res = await send();
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({
    exceptionClass: 'com.linkedin.restli.server.RestLiServiceException',
    status,
    message: expect.stringMatching(message),
  });
  expect(await proposalLogEnd()).toBe(before);
  const entity = await get(base, `/entitiesV2/${enc(urn)}`);
  expect((entity.body as { aspects: object }).aspects).toEqual({});
}

const ingest = (body: unknown) => post(base, '/aspects?action=ingestProposal', body);

describe('bad input gets a 4xx naming the problem and changes nothing', () => {
  it('malformed JSON is a 400', () =>
    expectRejected(
      () => post(base, '/aspects?action=ingestProposal', undefined, '{"proposal": {'),
      400,
      /Malformed JSON/,
    ));

  it('a missing proposal is a 400', () =>
    expectRejected(() => ingest({ async: 'false' }), 400, /proposal is required/));

  it('an invalid URN is a 400', () =>
    expectRejected(
      () =>
        ingest({
          proposal: proposal(
            'urn:li:dataset:(unbalanced',
            'status',
            { removed: false },
            { entityType: 'dataset' },
          ),
        }),
      400,
      /urn/i,
    ));

  it('a URN that is not a URN at all is a 400', () =>
    expectRejected(
      () => ingest({ proposal: { ...proposal(urn, 'status', { removed: false }), entityUrn: 'not-a-urn' } }),
      400,
      /urn/i,
    ));

  it('an unknown entity type is a 400', () =>
    expectRejected(
      () => ingest({ proposal: { ...proposal(urn, 'status', { removed: false }), entityType: 'spaceship' } }),
      400,
      /Unknown entity type: spaceship/,
    ));

  it('an entity type that does not match the URN is a 400', () =>
    expectRejected(
      () => ingest({ proposal: { ...proposal(urn, 'status', { removed: false }), entityType: 'chart' } }),
      400,
      /entity type/i,
    ));

  it('an unknown aspect is a 400', () =>
    expectRejected(
      () => ingest({ proposal: proposal(urn, 'noSuchAspect', { a: 1 }) }),
      400,
      /Unknown aspect noSuchAspect/,
    ));

  it('an aspect value that is not JSON is a 400', () =>
    expectRejected(
      () =>
        ingest({
          proposal: {
            ...proposal(urn, 'status', {}),
            aspect: { value: '{removed: tru', contentType: 'application/json' },
          },
        }),
      400,
      /not valid JSON/,
    ));

  it('an aspect value that fails its schema is a 422 naming the field', () =>
    expectRejected(() => ingest({ proposal: proposal(urn, 'status', { removed: 'yes' }) }), 422, /removed/));

  it('a schema failure lists every problem, with paths', async () => {
    const res = await ingest({
      proposal: proposal(urn, 'ownership', { owners: [{ owner: 'nobody', type: 'NOT_A_TYPE' }] }),
    });
    expect(res.status).toBe(422);
    const message = (res.body as { message: string }).message;
    expect(message).toMatch(/owners\[0\]\.owner/);
    expect(message).toMatch(/owners\[0\]\.type/);
  });

  it('an unknown change type is a 400', () =>
    expectRejected(
      () => ingest({ proposal: proposal(urn, 'status', { removed: false }, { changeType: 'EXPLODE' }) }),
      400,
      /Unknown changeType/,
    ));

  it('a bad async flag is a 400', () =>
    expectRejected(
      () => ingest({ proposal: proposal(urn, 'status', { removed: false }), async: 'maybe' }),
      400,
      /async/,
    ));

  it('an oversized body is a 413', () =>
    expectRejected(
      () => ingest({ proposal: proposal(urn, 'datasetProperties', { description: 'x'.repeat(100 * 1024) }) }),
      413,
      /larger than the limit/,
    ));

  it('a batch with one bad proposal is refused whole and names its index', async () => {
    await expectRejected(
      () =>
        post(base, '/aspects?action=ingestProposalBatch', {
          proposals: [proposal(urn, 'status', { removed: false }), proposal(urn, 'noSuchAspect', {})],
        }),
      400,
      /proposals\[1\]/,
    );
  });

  it('a path with malformed percent-encoding is a 400, not a 500', async () => {
    for (const path of [
      '/entitiesV2/%E0%A4',
      '/entities/urn%3Ali%3Achart%3A(%)',
      '/aspects/%E0%A4?aspect=status&version=0',
    ]) {
      const res = await get(base, path);
      expect(res.status, path).toBe(400);
      expect(res.text, path).toContain('percent-encoding');
    }
  });

  it('a lastObserved beyond a safe integer is a 4xx naming the field, not a 503', () =>
    expectRejected(
      () =>
        ingest({
          proposal: {
            ...proposal(urn, 'status', { removed: false }),
            systemMetadata: { lastObserved: 1e30 },
          },
        }),
      422,
      /systemMetadata.lastObserved/,
    ));

  it('an unknown action is a 400', () =>
    expectRejected(() => post(base, '/aspects?action=explode', {}), 400, /Unknown action/));

  it('reads with an invalid URN or unknown aspect are 400s, not 404s or 500s', async () => {
    expect((await get(base, `/entitiesV2/${enc('urn:li:dataset:(x')}`)).status).toBe(400);
    expect((await get(base, `/aspects/${enc(urn)}?aspect=nope&version=0`)).status).toBe(400);
    expect((await get(base, `/aspects/${enc(urn)}?aspect=status&version=-1`)).status).toBe(400);
    expect((await get(base, `/entitiesV2/${enc(urn)}?aspects=List(nope)`)).status).toBe(400);
    expect((await get(base, `/entitiesV2/${enc('urn:li:spaceship:x')}`)).status).toBe(400);
  });

  it('a Rest.li path key with whitespace around it reads the entity, as the ecosystem reads past it', async () => {
    const spaced = datasetUrn('db.spaced_key');
    const written = await ingest({ proposal: proposal(spaced, 'status', { removed: false }) });
    expect(written.status, written.text).toBe(200);
    const res = await get(base, `/aspects/${enc(spaced)}%20%20%20%20?aspect=status&version=0`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ aspect: { 'com.linkedin.common.Status': { removed: false } } });
    expect((await get(base, `/entitiesV2/%20${enc(spaced)}%20`)).status).toBe(200);
  });
});

describe('every write path applies the ecosystem urn checks', () => {
  const TOO_LONG = 'Error: cannot provide an URN longer than 512 bytes (when URL encoded)';
  const WHITESPACE = 'Error: cannot provide an URN with leading or trailing whitespace';
  const DELIMITER = 'Error: URN cannot contain \u241F character';
  const megabyte = datasetUrn(`db.${'x'.repeat(1 << 20)}`);
  const longUrn = datasetUrn(`db.${'x'.repeat(600)}`);
  const cases: [string, string][] = [
    [longUrn, TOO_LONG],
    [`${urn} `, WHITESPACE],
    [datasetUrn('db.a\u241Fb'), DELIMITER],
  ];

  it('ingestProposal and ingestProposalBatch refuse them with 400 and the ecosystem message', async () => {
    for (const [bad, message] of cases) {
      const one = await ingest({ proposal: proposal(bad, 'status', { removed: false }) });
      expect(one.status, bad.slice(0, 60)).toBe(400);
      expect((one.body as { message: string }).message).toBe(message);
      const batch = await post(base, '/aspects?action=ingestProposalBatch', {
        proposals: [proposal(urn, 'status', { removed: false }), proposal(bad, 'status', { removed: false })],
      });
      expect(batch.status).toBe(400);
      expect((batch.body as { message: string }).message).toContain(message);
    }
  });

  it('a megabyte urn is refused, not stored (under a body limit that lets it through)', async () => {
    const big = await startTestCatalog({ MAX_REQUEST_BYTES: String(4 * 1024 * 1024) });
    try {
      const res = await post(big.baseUrl, '/aspects?action=ingestProposal', {
        proposal: proposal(megabyte, 'status', { removed: false }),
      });
      expect(res.status).toBe(400);
      expect((res.body as { message: string }).message).toBe(TOO_LONG);
    } finally {
      await big.dispose();
    }
  });

  it('entities?action=ingest and batchIngest refuse them', async () => {
    const SNAP = 'com.linkedin.metadata.snapshot.';
    const snapshot = (u: string) => ({
      value: {
        [`${SNAP}DatasetSnapshot`]: {
          urn: u,
          aspects: [{ 'com.linkedin.common.Status': { removed: false } }],
        },
      },
    });
    for (const [bad, message] of cases) {
      const one = await post(base, '/entities?action=ingest', { entity: snapshot(bad) });
      expect(one.status).toBe(400);
      expect((one.body as { message: string }).message).toContain(message);
      const batch = await post(base, '/entities?action=batchIngest', { entities: [snapshot(bad)] });
      expect(batch.status).toBe(400);
      expect((batch.body as { message: string }).message).toContain(message);
    }
  });

  it('OpenAPI v3 and v2 writes refuse them', async () => {
    for (const [bad, refusal] of cases) {
      // OpenAPI checks the urn against the entity's key first, as the ecosystem does: `PROD ` is no
      // fabric type, so the dataset urn with a trailing space fails that check before the whitespace one.
      const message = refusal === WHITESPACE ? `Invalid urn!: ${bad}` : refusal;
      const v3 = await request(base, 'POST', '/openapi/v3/entity/dataset?async=false', [
        { urn: bad, status: { value: { removed: false } } },
      ]);
      expect(v3.status).toBe(400);
      expect(v3.text).toContain(message);
      const v2 = await request(base, 'POST', '/openapi/v2/entity/dataset?async=false', [
        { urn: bad, aspects: { status: { value: { removed: false } } } },
      ]);
      expect(v2.status).toBe(400);
      expect(v2.text).toContain(message);
    }
  });

  it('GraphQL mutations refuse them with BAD_REQUEST', async () => {
    const res = await post(base, '/api/graphql', {
      query: 'mutation($i: CreateTagInput!) { createTag(input: $i) }',
      variables: { i: { id: 'x'.repeat(600), name: 'long' } },
    });
    const errors = (res.body as { errors?: { message: string; extensions?: { code?: number } }[] }).errors;
    expect(errors?.[0]?.message).toBe(TOO_LONG);
    expect(errors?.[0]?.extensions?.code).toBe(400);
  });

  it('deletes refuse them, even when nothing is stored under the urn', async () => {
    for (const [bad, message] of cases) {
      const res = await post(base, '/entities?action=delete', { urn: bad });
      expect(res.status).toBe(400);
      expect((res.body as { message: string }).message).toBe(message);
    }
  });
});

/** Large requests need a body limit above this file's 64 KiB: a catalog of their own. */
describe('large requests', () => {
  let large: TestCatalog;
  beforeAll(async () => {
    large = await startTestCatalog({ MAX_REQUEST_BYTES: String(4 * 1024 * 1024) });
  });
  afterAll(async () => large?.dispose());

  const search = (body: Record<string, unknown>) =>
    post(large.baseUrl, '/entities?action=search', { entity: 'dataset', start: 0, count: 10, ...body });

  it('a filter of 5000 EQUAL values answers 200', async () => {
    const values = Array.from({ length: 5000 }, (_, i) => datasetUrn(`db.none_${i}`));
    const res = await search({
      input: '*',
      filter: { or: [{ and: [{ field: 'urn', values, condition: 'EQUAL' }] }] },
    });
    expect(res.status).toBe(200);
  });

  it('a 100,000-character search text is a 400 naming the limit', async () => {
    const res = await search({ input: 'x'.repeat(100_000) });
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toMatch(/at most 1024 characters/);
  });

  it('too many pattern values, criteria or values are a 400 naming the limit', async () => {
    const contain = Array.from({ length: 1001 }, (_, i) => `v${i}`);
    const many = await search({
      input: '*',
      filter: { or: [{ and: [{ field: 'name', values: contain, condition: 'CONTAIN' }] }] },
    });
    expect(many.status).toBe(400);
    expect((many.body as { message: string }).message).toMatch(/at most 1000/);
    const criteria = Array.from({ length: 1001 }, (_, i) => ({
      field: 'name',
      values: [`n${i}`],
      condition: 'EQUAL',
    }));
    const wide = await search({ input: '*', filter: { or: [{ and: criteria }] } });
    expect(wide.status).toBe(400);
    expect((wide.body as { message: string }).message).toMatch(/at most 1000 criteria|may have at most 1000/);
  });

  it('GraphQL search with a 100,000-character query is BAD_REQUEST, not a server error', async () => {
    const res = await post(large.baseUrl, '/api/graphql', {
      query: 'query($q: String!) { searchAcrossEntities(input: {query: $q, start: 0, count: 1}) { total } }',
      variables: { q: 'x'.repeat(100_000) },
    });
    const errors = (res.body as { errors?: { extensions?: { code?: number }; message: string }[] }).errors;
    expect(errors?.[0]?.extensions?.code).toBe(400);
    expect(errors?.[0]?.message).toMatch(/at most 1024 characters/);
  });

  // Found by probing batch sizes beyond the fuzz suite's: each value was an SQL parameter, and SQLite
  // refused the statement ("too many SQL variables"), which the route reported as the index being down.
  it('an audit search filtering on 40,000 actors is a 400 naming the limit, not a 503', async () => {
    const actorUrns = Array.from({ length: 40_000 }, (_, i) => `urn:li:corpuser:u${i}`);
    const res = await fetch(`${large.baseUrl}/openapi/v1/events/audit/search?size=10`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: SYSTEM_CLIENT_AUTHORIZATION },
      body: JSON.stringify({ actorUrns }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/actorUrns .*at most 1000/);
  });
});
