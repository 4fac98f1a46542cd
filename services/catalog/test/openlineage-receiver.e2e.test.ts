import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlData } from './graphql-client.js';
import {
  enc,
  get,
  logIn,
  readAllVersions,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';
import { signUpUser } from './test-users.js';

const PATH = '/openapi/openlineage/api/v1/lineage';
const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.54.0/client/python';
const FACET = { _producer: PRODUCER, _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/X.json' };

let catalog: TestCatalog;
let base: string;
let admin: string;
const run = Math.random().toString(36).slice(2, 8);
const source = `urn:li:dataset:(urn:li:dataPlatform:postgres,shop_${run}.orders,PROD)`;
const target = `urn:li:dataset:(urn:li:dataPlatform:bigquery,analytics_${run}.order_counts,PROD)`;
const flow = `urn:li:dataFlow:(airflow,etl_${run},prod)`;
const job = `urn:li:dataJob:(${flow},etl_${run}.count_orders)`;

function runEvent(
  eventType: string,
  runId: string,
  name = `etl_${run}.count_orders`,
): Record<string, unknown> {
  return {
    eventType,
    eventTime: '2026-11-29T10:00:00.000Z',
    producer: PRODUCER,
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId },
    job: {
      namespace: 'prod',
      name,
      facets: { jobType: { ...FACET, processingType: 'BATCH', integration: 'AIRFLOW', jobType: 'TASK' } },
    },
    inputs: [{ namespace: 'postgres://db:5432', name: `shop_${run}.orders` }],
    outputs: [
      {
        namespace: 'bigquery',
        name: `analytics_${run}.order_counts`,
        facets: {
          columnLineage: {
            ...FACET,
            fields: {
              orders: {
                inputFields: [{ namespace: 'postgres://db:5432', name: `shop_${run}.orders`, field: 'id' }],
              },
            },
          },
        },
      },
    ],
  };
}

async function send(
  body: string | undefined,
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown; text: string }> {
  const res = await fetch(`${base}${PATH}`, {
    method: 'POST',
    headers,
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

const asJson = (authorization: string) => ({
  'Content-Type': 'application/json',
  Authorization: authorization,
});

/** Waits until persistence has applied every proposal on the log (lag 0 on every partition). */
async function persisted(): Promise<void> {
  await waitUntil(
    () => catalog.log.lag('persistence', 'MetadataChangeProposal_v1'),
    (lags) => lags.every((l) => l.lag === 0),
    20_000,
  );
}

async function aspectsOf(urn: string): Promise<Record<string, { value: Record<string, unknown> }>> {
  const res = await get(base, `/entitiesV2/${enc(urn)}`);
  return (res.body as { aspects?: Record<string, { value: Record<string, unknown> }> }).aspects ?? {};
}

beforeAll(async () => {
  catalog = await startTestCatalog();
  base = catalog.baseUrl;
  admin = `Bearer ${await logIn(base)}`;
}, 120_000);
afterAll(async () => catalog?.dispose());

describe('the OpenLineage receiver', () => {
  it('accepts a run event with 202 and writes the job, its lineage, the datasets and the run', async () => {
    const runId = '0190f5d8-4f35-7b6a-9a3c-2f1e6c1d0a11';
    const res = await send(JSON.stringify(runEvent('START', runId)), asJson(admin));
    expect(res.status, res.text).toBe(202);
    expect(res.text).toBe('');
    const io = (await waitUntil(
      async () => (await aspectsOf(job))['dataJobInputOutput']?.value,
      (v) => v !== undefined,
      20_000,
    ))!;
    expect((io['inputDatasetEdges'] as { destinationUrn: string }[]).map((e) => e.destinationUrn)).toEqual([
      source,
    ]);
    expect((io['outputDatasetEdges'] as { destinationUrn: string }[]).map((e) => e.destinationUrn)).toEqual([
      target,
    ]);
    expect(io['fineGrainedLineages']).toEqual([
      expect.objectContaining({
        upstreams: [`urn:li:schemaField:(${source},id)`],
        downstreams: [`urn:li:schemaField:(${target},orders)`],
      }),
    ]);
    await persisted();
    expect(Object.keys(await aspectsOf(source))).toContain('datasetKey');
    expect((await aspectsOf(flow))['dataFlowInfo']?.value).toMatchObject({ name: `etl_${run}` });
    expect(
      (await aspectsOf(`urn:li:dataProcessInstance:${runId}`))['dataProcessInstanceRelationships']?.value,
    ).toMatchObject({
      parentTemplate: job,
    });
  });

  it('makes the lineage readable through GraphQL: downstream of the source, the job then the target', async () => {
    const found = await waitUntil(
      () =>
        graphqlData<{
          searchAcrossLineage: { searchResults: { entity: { urn: string }; degree: number }[] };
        }>(
          base,
          `query($input: SearchAcrossLineageInput!) { searchAcrossLineage(input: $input) { searchResults { entity { urn } degree } } }`,
          { input: { urn: source, direction: 'DOWNSTREAM', query: '*', count: 10 } },
          { headers: { Authorization: admin } },
        ),
      (d) => d.searchAcrossLineage.searchResults.some((r) => r.entity.urn === target),
      20_000,
    );
    const degrees = Object.fromEntries(
      found.searchAcrossLineage.searchResults.map((r) => [r.entity.urn, r.degree]),
    );
    expect(degrees).toMatchObject({ [job]: 1, [target]: 2 });
  });

  it('writes nothing new for a resent event', async () => {
    const runId = '0190f5d8-4f35-7b6a-9a3c-2f1e6c1d0a22';
    const body = JSON.stringify(runEvent('COMPLETE', runId));
    expect((await send(body, asJson(admin))).status).toBe(202);
    await persisted();
    const before = await readAllVersions(
      base,
      job,
      'dataJobInputOutput',
      'com.linkedin.datajob.DataJobInputOutput',
    );
    expect((await send(body, asJson(admin))).status).toBe(202);
    await persisted();
    const after = await readAllVersions(
      base,
      job,
      'dataJobInputOutput',
      'com.linkedin.datajob.DataJobInputOutput',
    );
    expect(after).toHaveLength(before.length);
  });

  it('refuses bad JSON, an event without eventType, run or job, with INVALID_EVENT and the place', async () => {
    const bad = await send('{"eventType": ', asJson(admin));
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      code: 'INVALID_EVENT',
      message: 'Invalid OpenLineage event',
      details: { errors: [expect.objectContaining({ path: '/', rule: 'malformedJson' })] },
    });
    const { eventType: _t, ...noType } = runEvent('START', '0190f5d8-4f35-7b6a-9a3c-2f1e6c1d0a33');
    const { run: _r, job: _j, ...noRunOrJob } = runEvent('START', '0190f5d8-4f35-7b6a-9a3c-2f1e6c1d0a33');
    for (const [event, path] of [
      [noType, '/eventType'],
      [noRunOrJob, '/job'],
    ] as const) {
      const res = await send(JSON.stringify(event), asJson(admin));
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({
        code: 'INVALID_EVENT',
        details: { errors: [{ path, rule: 'required' }] },
      });
    }
  });

  it('answers 415 for a body that does not say it is application/json', async () => {
    const body = JSON.stringify(runEvent('START', '0190f5d8-4f35-7b6a-9a3c-2f1e6c1d0a44'));
    for (const headers of [
      { 'Content-Type': 'text/plain', Authorization: admin },
      { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: admin },
    ]) {
      const res = await send(body, headers);
      expect(res.status).toBe(415);
      expect(res.body).toEqual({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'OpenLineage requests must use application/json',
        details: {},
      });
    }
    const untyped = await fetch(`${base}${PATH}`, {
      method: 'POST',
      headers: { Authorization: admin },
      body: new Blob([body]),
    });
    expect(untyped.status).toBe(415);
  });

  it('answers 401 AUTHENTICATION_REQUIRED without valid credentials', async () => {
    const body = JSON.stringify(runEvent('START', '0190f5d8-4f35-7b6a-9a3c-2f1e6c1d0a55'));
    for (const headers of [{ 'Content-Type': 'application/json' }, asJson('Bearer not-a-token')]) {
      const res = await send(body, headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        code: 'AUTHENTICATION_REQUIRED',
        message: 'Authentication required',
        details: {},
      });
    }
  });

  it('refuses a user without a role with 403 AUTHORIZATION_DENIED, writing nothing; an editor and an admin may', async () => {
    const noRole = await signUpUser(base, admin, `ol-norole-${run}@example.com`);
    const editor = await signUpUser(base, admin, `ol-editor-${run}@example.com`, 'Editor');
    const name = `denied_${run}.job`;
    const deniedJob = `urn:li:dataJob:(urn:li:dataFlow:(airflow,denied_${run},prod),${name})`;
    const event = (runId: string) => JSON.stringify(runEvent('START', runId, name));
    const refused = await send(event('0190f5d8-4f35-7b6a-9a3c-2f1e6c1d0a66'), asJson(noRole));
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body).toMatchObject({ code: 'AUTHORIZATION_DENIED', details: {} });
    await persisted();
    expect(await aspectsOf(deniedJob)).toEqual({});

    const accepted = await send(event('0190f5d8-4f35-7b6a-9a3c-2f1e6c1d0a77'), asJson(editor));
    expect(accepted.status, accepted.text).toBe(202);
    await waitUntil(
      async () => (await aspectsOf(deniedJob))['dataJobInfo'],
      (v) => v !== undefined,
      20_000,
    );
  });
});

describe('the OpenLineage receiver with DATAHUB_OPENLINEAGE_* settings', () => {
  let configured: TestCatalog;
  afterAll(async () => configured?.dispose());

  it('names the datasets and the flow with the environment and platform instance of the settings', async () => {
    configured = await startTestCatalog({
      DATAHUB_OPENLINEAGE_ENV: 'dev',
      DATAHUB_OPENLINEAGE_PLATFORM_INSTANCE: 'eu-1',
    });
    const authorization = `Bearer ${await logIn(configured.baseUrl)}`;
    const res = await fetch(`${configured.baseUrl}${PATH}`, {
      method: 'POST',
      headers: asJson(authorization),
      body: JSON.stringify(runEvent('START', '0190f5d8-4f35-7b6a-9a3c-2f1e6c1d0a88')),
    });
    expect(res.status).toBe(202);
    const devJob = `urn:li:dataJob:(urn:li:dataFlow:(airflow,etl_${run},eu-1),etl_${run}.count_orders)`;
    const io = await waitUntil(
      async () =>
        (
          (await get(configured.baseUrl, `/entitiesV2/${enc(devJob)}`)).body as {
            aspects?: Record<string, { value: { inputDatasetEdges: { destinationUrn: string }[] } }>;
          }
        ).aspects?.['dataJobInputOutput']?.value,
      (v) => v !== undefined,
      20_000,
    );
    expect(io!.inputDatasetEdges.map((e) => e.destinationUrn)).toEqual([source.replace(',PROD)', ',DEV)')]);
  }, 120_000);
});
