import { createSchema, createYoga } from 'graphql-yoga';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApplicationDeps, graphqlContext, MemoryStore } from '../../application/admin-fakes.testing.js';
import {
  ingestionSourceInfoOf,
  isCronInterval,
  type UpdateIngestionSourceInput,
} from '../../application/ingestion-source-info.js';
import { IngestionSources } from '../../application/ingestion-sources.js';
import type { SearchIndex, SearchRequest } from '@catalog/search';
import { catalogResolvers, catalogTypeDefs } from '../graphql-schema.js';

/** The in-memory store the fake writes go to. */
const memory = new MemoryStore();
const stored = memory.entities;

const INPUT: UpdateIngestionSourceInput = {
  name: ' Prod MySQL ',
  type: 'mysql',
  description: 'not stored',
  schedule: { interval: '0 5 * * *', timezone: 'America/Los_Angeles' },
  config: {
    recipe: '{"source":{"type":"mysql","config":{"host_port":"db:3306"}}}',
    executorId: 'default',
    version: '0.14.1',
    debugMode: false,
    extraArgs: [{ key: 'extra_pip_requirements', value: 'x' }],
  },
};

describe('ingestionSourceInfoOf (UpdateIngestionSourceInput → dataHubIngestionSourceInfo)', () => {
  it('maps the input to the stored aspect, keeping what GraphQL cannot set', () => {
    expect(
      ingestionSourceInfoOf(INPUT, { platform: 'urn:li:dataPlatform:mysql', source: { type: 'SYSTEM' } }),
    ).toEqual({
      name: 'Prod MySQL',
      type: 'mysql',
      platform: 'urn:li:dataPlatform:mysql',
      schedule: { interval: '0 5 * * *', timezone: 'America/Los_Angeles' },
      config: {
        recipe: INPUT.config.recipe,
        version: '0.14.1',
        executorId: 'default',
        debugMode: false,
        extraArgs: { extra_pip_requirements: 'x' },
      },
      source: { type: 'SYSTEM' },
    });
  });

  it('refuses a recipe that is not a JSON object, a bad interval, a blank timezone', () => {
    const bad = (patch: Partial<UpdateIngestionSourceInput>) => () =>
      ingestionSourceInfoOf({ ...INPUT, ...patch });
    expect(bad({ config: { ...INPUT.config, recipe: 'source: mysql' } })).toThrow(/config\.recipe/);
    expect(bad({ config: { ...INPUT.config, recipe: '[1]' } })).toThrow(/config\.recipe/);
    expect(bad({ schedule: { interval: '0 5 * *', timezone: 'UTC' } })).toThrow(/schedule\.interval/);
    expect(bad({ schedule: { interval: '0 5 * * *', timezone: ' ' } })).toThrow(/schedule\.timezone/);
    expect(bad({ name: '' })).toThrow(/name/);
  });

  it('checks cron intervals roughly', () => {
    expect(isCronInterval('*/15 0-6 1,15 JAN-MAR MON')).toBe(true);
    expect(isCronInterval('0 0 ? * *')).toBe(true);
    expect(isCronInterval('0 0 * * * *')).toBe(false);
    expect(isCronInterval('every day')).toBe(false);
  });
});

describe('ingestion source GraphQL', () => {
  let schema: ReturnType<typeof createSchema<ReturnType<typeof ctx>>>;
  let allowed: boolean;
  const deps = fakeApplicationDeps(() => allowed, memory);
  /** The search index as the executions listing uses it: execution requests by source, newest first. */
  const searched: SearchRequest[] = [];
  const search = {
    search: (request: SearchRequest) => {
      searched.push(request);
      const source = request.filter?.or[0]?.and[0]?.values[0];
      const runs = [...stored.entries()]
        .filter(([urn]) => urn.startsWith('urn:li:dataHubExecutionRequest:'))
        .map(([urn, aspects]) => ({ urn, input: aspects.get('dataHubExecutionRequestInput') }))
        .filter(
          (r) =>
            (r.input?.['source'] as { ingestionSource?: string } | undefined)?.ingestionSource === source,
        )
        .sort((a, b) => Number(b.input?.['requestedAt']) - Number(a.input?.['requestedAt']));
      return Promise.resolve({
        total: runs.length,
        hits: runs
          .slice(request.start, request.start + request.count)
          .map((r) => ({ urn: r.urn, entityType: 'dataHubExecutionRequest', score: 1, matchedFields: [] })),
        aggregations: [],
      });
    },
  } as unknown as SearchIndex;
  const ctx = () => ({
    auth: graphqlContext('urn:li:corpuser:admin'),
    requestId: 'r',
    services: {
      app: {
        ingestionSources: new IngestionSources(deps.stored, deps.policy, deps.proposals, search, {
          defaultCliVersion: '1.7.0.17',
          waitForIndex: () => Promise.resolve(),
        }),
      },
    },
    entities: {
      aspect: (urn: string, name: string) => Promise.resolve(stored.get(urn)?.get(name)),
      load: (urn: string) => Promise.resolve(stored.get(urn) ?? new Map()),
      clear: () => undefined,
    },
  });
  const run = async (
    query: string,
    variables: Record<string, unknown> = {},
  ): Promise<{ data?: Record<string, unknown>; errors?: { message: string }[] }> => {
    const yoga = createYoga<object, ReturnType<typeof ctx>>({
      schema,
      context: ctx,
      maskedErrors: false,
      logging: false,
    });
    const response = await yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };
  };

  beforeEach(() => {
    stored.clear();
    allowed = true;
    schema = createSchema<ReturnType<typeof ctx>>({
      typeDefs: catalogTypeDefs(),
      resolvers: catalogResolvers(),
    });
  });

  const CREATE = 'mutation($input: UpdateIngestionSourceInput!) { createIngestionSource(input: $input) }';
  const LIST = `query($input: ListIngestionSourcesInput!) { listIngestionSources(input: $input) {
    start count total
    ingestionSources { urn type name schedule { interval timezone }
      config { recipe executorId version debugMode extraArgs { key value } }
      executions(start: 0, count: 1) { total executionRequests { urn } } } } }`;

  it('creates, lists, updates and deletes a source', async () => {
    const created = await run(CREATE, { input: INPUT });
    expect(created.errors).toBeUndefined();
    const urn = created.data?.['createIngestionSource'] as string;
    expect(urn).toMatch(/^urn:li:dataHubIngestionSource:[0-9a-f-]{36}$/);
    await run(CREATE, { input: { ...INPUT, name: 'Another', type: 'bigquery', schedule: null } });

    const listed = await run(LIST, { input: { start: 0, count: 10, query: 'prod' } });
    expect(listed.errors).toBeUndefined();
    expect(listed.data?.['listIngestionSources']).toEqual({
      start: 0,
      count: 1,
      total: 1,
      ingestionSources: [
        {
          urn,
          // As the ecosystem's IngestionSource (no Entity): its type is the source type.
          type: 'mysql',
          name: 'Prod MySQL',
          schedule: { interval: '0 5 * * *', timezone: 'America/Los_Angeles' },
          config: {
            recipe: INPUT.config.recipe,
            executorId: 'default',
            version: '0.14.1',
            debugMode: false,
            extraArgs: [{ key: 'extra_pip_requirements', value: 'x' }],
          },
          executions: { total: 0, executionRequests: [] },
        },
      ],
    });
    const filtered = await run(LIST, {
      input: { filters: [{ field: 'type', values: ['bigquery'] }] },
    });
    expect((filtered.data?.['listIngestionSources'] as { total: number }).total).toBe(1);

    const updated = await run(
      'mutation($urn: String!, $input: UpdateIngestionSourceInput!) { updateIngestionSource(urn: $urn, input: $input) }',
      { urn, input: { ...INPUT, name: 'Renamed' } },
    );
    expect(updated.data?.['updateIngestionSource']).toBe(urn);
    expect(stored.get(urn)?.get('dataHubIngestionSourceInfo')?.['name']).toBe('Renamed');

    const deleted = await run('mutation($urn: String!) { deleteIngestionSource(urn: $urn) }', { urn });
    expect(deleted.data?.['deleteIngestionSource']).toBe(urn);
    expect(stored.has(urn)).toBe(false);
  });

  it('creates the source an update names when it is missing (the upsert `datahub ingest deploy` relies on)', async () => {
    const urn = 'urn:li:dataHubIngestionSource:deployed';
    const upserted = await run(
      'mutation($urn: String!, $input: UpdateIngestionSourceInput!) { updateIngestionSource(urn: $urn, input: $input) }',
      { urn, input: INPUT },
    );
    expect(upserted.data?.['updateIngestionSource']).toBe(urn);
    expect(stored.get(urn)?.get('dataHubIngestionSourceInfo')?.['name']).toBe('Prod MySQL');
  });

  it("lists a source's execution requests newest first, with their input and result", async () => {
    const source = 'urn:li:dataHubIngestionSource:cli-abc';
    stored.set(
      source,
      new Map([
        ['dataHubIngestionSourceInfo', { name: '[CLI] file', type: 'file', config: { recipe: '{}' } }],
      ]),
    );
    const runAt = (id: string, requestedAt: number, status?: string) =>
      stored.set(
        `urn:li:dataHubExecutionRequest:${id}`,
        new Map<string, Record<string, unknown>>([
          [
            'dataHubExecutionRequestInput',
            {
              task: 'CLI Ingestion',
              args: { recipe: '{"source":{"type":"file"}}', version: '1.7.0.17' },
              executorId: '__datahub_cli_',
              source: { type: 'CLI_INGESTION_SOURCE', ingestionSource: source },
              requestedAt,
            },
          ],
          ...(status === undefined
            ? []
            : ([
                ['dataHubExecutionRequestResult', { status, startTimeMs: requestedAt, durationMs: 5 }],
              ] as const)),
        ]),
      );
    runAt('run-1', 1000, 'SUCCESS');
    runAt('run-2', 2000, 'FAILURE');
    runAt('run-3', 3000);
    const listed = await run(
      `query($input: ListIngestionSourcesInput!) { listIngestionSources(input: $input) { ingestionSources {
        urn name executions { total executionRequests { id input { task arguments { key value } source { type ingestionSource } }
        result { status startTimeMs durationMs } source { urn } } } } } }`,
      { input: { start: 0, count: 10, filters: [{ field: 'urn', values: [source], condition: 'CONTAIN' }] } },
    );
    expect(listed.errors).toBeUndefined();
    const sources = (listed.data?.['listIngestionSources'] as { ingestionSources: Record<string, unknown>[] })
      .ingestionSources;
    const executions = sources[0]?.['executions'] as {
      total: number;
      executionRequests: Record<string, unknown>[];
    };
    expect(executions.total).toBe(3);
    expect(executions.executionRequests.map((e) => e['id'])).toEqual(['run-3', 'run-2', 'run-1']);
    expect(executions.executionRequests[1]).toEqual({
      id: 'run-2',
      input: {
        task: 'CLI Ingestion',
        arguments: [
          { key: 'recipe', value: '{"source":{"type":"file"}}' },
          { key: 'version', value: '1.7.0.17' },
        ],
        source: { type: 'CLI_INGESTION_SOURCE', ingestionSource: source },
      },
      result: { status: 'FAILURE', startTimeMs: 2000, durationMs: 5 },
      source: { urn: source },
    });
    expect(executions.executionRequests[0]?.['result']).toBeNull();
    expect(searched.at(-1)?.sort).toEqual([{ field: 'requestTimeMs', order: 'DESCENDING' }]);

    const one = await run(
      'query($urn: String!) { executionRequest(urn: $urn) { urn id result { status } } }',
      {
        urn: 'urn:li:dataHubExecutionRequest:run-1',
      },
    );
    expect(one.data?.['executionRequest']).toEqual({
      urn: 'urn:li:dataHubExecutionRequest:run-1',
      id: 'run-1',
      result: { status: 'SUCCESS' },
    });
    const absent = await run(
      'query { executionRequest(urn: "urn:li:dataHubExecutionRequest:nope") { urn } }',
    );
    expect(absent.data?.['executionRequest']).toBeNull();
    allowed = false;
    const denied = await run(
      'query { executionRequest(urn: "urn:li:dataHubExecutionRequest:run-1") { urn } }',
    );
    expect(denied.errors?.[0]?.message).toMatch(/Unauthorized/);
  });

  it('requests a run of a source: RUN_INGEST with its recipe (run id and pipeline name), version, extra arguments and debug mode', async () => {
    const source = (await run(CREATE, { input: INPUT })).data?.['createIngestionSource'] as string;
    const unversioned = (
      await run(CREATE, {
        input: { ...INPUT, name: 'No version', config: { ...INPUT.config, version: null } },
      })
    ).data?.['createIngestionSource'] as string;
    const REQUEST =
      'mutation($input: CreateIngestionExecutionRequestInput!) { createIngestionExecutionRequest(input: $input) }';
    const requested = await run(REQUEST, { input: { ingestionSourceUrn: source } });
    expect(requested.errors).toBeUndefined();
    const urn = requested.data?.['createIngestionExecutionRequest'] as string;
    expect(urn).toMatch(/^urn:li:dataHubExecutionRequest:[0-9a-f-]{36}$/);
    const input = stored.get(urn)?.get('dataHubExecutionRequestInput') as {
      task: string;
      source: unknown;
      executorId: string;
      args: Record<string, string>;
    };
    expect(input.task).toBe('RUN_INGEST');
    expect(input.source).toEqual({ type: 'MANUAL_INGESTION_SOURCE', ingestionSource: source });
    expect(input.executorId).toBe('default');
    expect(Object.keys(input.args)).toEqual(['recipe', 'version', 'extra_pip_requirements', 'debug_mode']);
    expect(JSON.parse(input.args['recipe']!)).toEqual({
      source: { type: 'mysql', config: { host_port: 'db:3306' } },
      run_id: urn,
      pipeline_name: source,
    });
    expect(input.args['version']).toBe('0.14.1');
    expect(input.args['debug_mode']).toBe('false');

    const defaulted = await run(REQUEST, { input: { ingestionSourceUrn: unversioned } });
    const other = defaulted.data?.['createIngestionExecutionRequest'] as string;
    expect(
      (stored.get(other)?.get('dataHubExecutionRequestInput') as { args: Record<string, string> }).args[
        'version'
      ],
    ).toBe('1.7.0.17');

    const missing = await run(REQUEST, {
      input: { ingestionSourceUrn: 'urn:li:dataHubIngestionSource:nope' },
    });
    expect(missing.errors?.[0]?.message).toMatch(/Failed to find ingestion source/);
    allowed = false;
    const before = stored.size;
    const denied = await run(REQUEST, { input: { ingestionSourceUrn: source } });
    expect(denied.errors?.[0]?.message).toMatch(/Unauthorized/);
    expect(stored.size).toBe(before);
  });

  it('answers 400 for a bad recipe, 403 without the privilege', async () => {
    const bad = await run(CREATE, { input: { ...INPUT, config: { ...INPUT.config, recipe: 'nope' } } });
    expect(bad.errors?.[0]?.message).toMatch(/config\.recipe/);
    allowed = false;
    const denied = await run(LIST, { input: {} });
    expect(denied.errors?.[0]?.message).toMatch(/Unauthorized/);
    expect(stored.size).toBe(0);
  });
});
