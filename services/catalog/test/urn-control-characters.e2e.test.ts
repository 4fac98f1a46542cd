import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  datasetUrn,
  enc,
  get,
  post,
  proposal,
  request,
  startTestCatalog,
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

async function proposalLogEnd(): Promise<number> {
  const lag = await catalog.log.lag('persistence', 'MetadataChangeProposal_v1');
  return lag.reduce((sum, p) => sum + Number(p.endOffset), 0);
}

const CONTROL = /control character U\+00[0-9A-F]{2}/;
const newline = datasetUrn('db.a\nb');
const nul = datasetUrn('db.a\u0000b');
const escape = 'urn:li:corpuser:a\u001bb';
const del = 'urn:li:tag:a\u007fb';

function expectRefused(res: JsonResponse, what: string): void {
  expect(res.status, what).toBe(400);
  expect(res.text, what).toMatch(CONTROL);
}

async function graphql(query: string, variables: Record<string, unknown>) {
  const res = await post(base, '/api/graphql', { query, variables });
  return (res.body as { errors?: { message: string; extensions?: { code?: number } }[] }).errors;
}

describe('a urn with a control character is a 400 naming it, on every route', () => {
  it('a urn with a newline gets 400 on read and write', async () => {
    for (const urn of [newline, nul]) {
      const before = await proposalLogEnd();
      expectRefused(
        await post(base, '/aspects?action=ingestProposal', {
          proposal: proposal(urn, 'status', { removed: false }),
        }),
        'ingestProposal',
      );
      expectRefused(await get(base, `/entitiesV2/${enc(urn)}`), 'entitiesV2 get');
      expectRefused(await get(base, `/aspects/${enc(urn)}?aspect=status&version=0`), 'aspects get');
      expectRefused(await get(base, `/entities/${enc(urn)}`), 'entities get');
      expect(await proposalLogEnd()).toBe(before);
    }
  });

  it('Rest.li writes, batch reads and actions refuse it in the body or the query', async () => {
    const before = await proposalLogEnd();
    expectRefused(
      await post(base, '/aspects?action=ingestProposalBatch', {
        proposals: [
          proposal(datasetUrn('db.ok'), 'status', { removed: false }),
          proposal(newline, 'status', {}),
        ],
      }),
      'ingestProposalBatch',
    );
    const snapshot = {
      value: {
        'com.linkedin.metadata.snapshot.DatasetSnapshot': {
          urn: nul,
          aspects: [{ 'com.linkedin.common.Status': { removed: false } }],
        },
      },
    };
    expectRefused(await post(base, '/entities?action=ingest', { entity: snapshot }), 'entities ingest');
    expectRefused(await post(base, '/entities?action=delete', { urn: newline }), 'entities delete');
    expectRefused(await post(base, '/entities?action=exists', { urn: newline }), 'entities exists');
    expectRefused(await get(base, `/entitiesV2?ids=List(${enc(newline)})`), 'entitiesV2 batch get');
    expectRefused(
      await get(base, `/relationships?direction=INCOMING&urn=${enc(newline)}&types=List(DownstreamOf)`),
      'relationships',
    );
    expect(await proposalLogEnd()).toBe(before);
  });

  it('OpenAPI reads and writes refuse it in the path and the body', async () => {
    const before = await proposalLogEnd();
    expectRefused(await get(base, `/openapi/v3/entity/dataset/${enc(newline)}`), 'v3 get');
    expectRefused(await get(base, `/openapi/v2/entity/dataset/${enc(nul)}`), 'v2 get');
    expectRefused(
      await request(base, 'POST', `/openapi/v3/entity/dataset/${enc(newline)}/status?async=false`, {
        value: { removed: false },
      }),
      'v3 aspect post',
    );
    expectRefused(
      await request(base, 'POST', '/openapi/v3/entity/dataset?async=false', [
        { urn: nul, status: { value: { removed: false } } },
      ]),
      'v3 batch post',
    );
    expectRefused(await request(base, 'DELETE', `/openapi/v3/entity/dataset/${enc(newline)}`), 'v3 delete');
    expectRefused(
      await get(
        base,
        `/openapi/relationships/v1?urn=${enc(newline)}&direction=INCOMING&relationshipTypes=DownstreamOf`,
      ),
      'relationships v1',
    );
    expect(await proposalLogEnd()).toBe(before);
  });

  it('GraphQL refuses it with BAD_REQUEST on reads and mutations', async () => {
    const read = await graphql('query($u: String!) { dataset(urn: $u) { urn } }', { u: newline });
    expect(read?.[0]?.extensions?.code).toBe(400);
    expect(read?.[0]?.message).toMatch(CONTROL);
    const before = await proposalLogEnd();
    const write = await graphql(
      'mutation($u: String!) { updateDescription(input: {description: "d", resourceUrn: $u}) }',
      { u: escape },
    );
    expect(write?.[0]?.extensions?.code).toBe(400);
    expect(write?.[0]?.message).toMatch(CONTROL);
    const tag = await graphql(
      'mutation($u: String!) { addTag(input: {tagUrn: $u, resourceUrn: "urn:li:corpuser:x"}) }',
      { u: del },
    );
    expect(tag?.[0]?.extensions?.code).toBe(400);
    expect(await proposalLogEnd()).toBe(before);
  });

  it('a urn with a control character inside an aspect value is refused', async () => {
    const before = await proposalLogEnd();
    const res = await post(base, '/aspects?action=ingestProposal', {
      proposal: proposal(datasetUrn('db.owned'), 'ownership', {
        owners: [{ owner: escape, type: 'DATAOWNER' }],
      }),
    });
    expect(res.status).toBe(422);
    expect(res.text).toMatch(/owners\[0\]\.owner/);
    expect(await proposalLogEnd()).toBe(before);
  });
});
