import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetUrn, enc, get, post, proposal, startTestCatalog, type TestCatalog } from './harness.js';

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
});
