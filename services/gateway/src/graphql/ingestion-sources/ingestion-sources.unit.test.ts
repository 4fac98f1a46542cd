import { createSchema, createYoga } from 'graphql-yoga';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApplicationDeps, graphqlContext, MemoryStore } from '../../application/admin-fakes.testing.js';
import {
  ingestionSourceInfoOf,
  isCronInterval,
  type UpdateIngestionSourceInput,
} from '../../application/ingestion-source-info.js';
import { IngestionSources } from '../../application/ingestion-sources.js';
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
  const ctx = () => ({
    auth: graphqlContext('urn:li:corpuser:admin'),
    requestId: 'r',
    services: {
      app: { ingestionSources: new IngestionSources(deps.stored, deps.policy, deps.proposals) },
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

  it('answers 404 for an update of a missing source, 400 for a bad recipe, 403 without the privilege', async () => {
    const missing = await run(
      'mutation($input: UpdateIngestionSourceInput!) { updateIngestionSource(urn: "urn:li:dataHubIngestionSource:nope", input: $input) }',
      { input: INPUT },
    );
    expect(missing.errors?.[0]?.message).toMatch(/does not exist/);
    const bad = await run(CREATE, { input: { ...INPUT, config: { ...INPUT.config, recipe: 'nope' } } });
    expect(bad.errors?.[0]?.message).toMatch(/config\.recipe/);
    allowed = false;
    const denied = await run(LIST, { input: {} });
    expect(denied.errors?.[0]?.message).toMatch(/Unauthorized/);
    expect(stored.size).toBe(0);
  });
});
