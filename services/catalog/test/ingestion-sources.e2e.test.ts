import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql } from './graphql-client.js';
import { logIn, startTestCatalog, type TestCatalog } from './harness.js';

const INPUT = {
  name: 'orders database',
  type: 'mysql',
  schedule: { interval: '0 5 * * *', timezone: 'UTC' },
  config: {
    recipe: JSON.stringify({ source: { type: 'mysql', config: { host_port: 'db:3306' } } }),
    executorId: 'default',
  },
};

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`ingestion sources through GraphQL (${family.name})`, () => {
    let catalog: TestCatalog;
    let admin: Record<string, string>;

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      admin = { Authorization: `Bearer ${await logIn(catalog.baseUrl)}` };
    });
    afterAll(async () => {
      await catalog?.dispose();
    });

    const gql = (query: string, variables: Record<string, unknown> = {}, headers = admin) =>
      graphql(catalog.baseUrl, query, variables, { headers });
    const list = async () => {
      const res = await gql(
        '{ listIngestionSources(input: {start: 0, count: 10}) { total ingestionSources { urn name schedule { interval } config { recipe executorId } } } }',
      );
      expect(res.errors).toBeUndefined();
      return (
        res.data as { listIngestionSources: { total: number; ingestionSources: Record<string, unknown>[] } }
      ).listIngestionSources;
    };

    it('creates, lists, updates and deletes a source, and refuses a recipe that is not JSON', async () => {
      const created = await gql(
        'mutation($input: UpdateIngestionSourceInput!) { createIngestionSource(input: $input) }',
        {
          input: INPUT,
        },
      );
      expect(created.errors).toBeUndefined();
      const urn = (created.data as { createIngestionSource: string }).createIngestionSource;
      expect(urn).toMatch(/^urn:li:dataHubIngestionSource:/);
      expect((await list()).ingestionSources).toEqual([
        expect.objectContaining({ urn, name: 'orders database', schedule: { interval: '0 5 * * *' } }),
      ]);
      const updated = await gql(
        'mutation($urn: String!, $input: UpdateIngestionSourceInput!) { updateIngestionSource(urn: $urn, input: $input) }',
        { urn, input: { ...INPUT, name: 'orders (nightly)' } },
      );
      expect(updated.errors).toBeUndefined();
      expect((await list()).ingestionSources[0]).toMatchObject({ name: 'orders (nightly)' });
      const bad = await gql(
        'mutation($input: UpdateIngestionSourceInput!) { createIngestionSource(input: $input) }',
        {
          input: { ...INPUT, config: { ...INPUT.config, recipe: 'not json' } },
        },
      );
      expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 400 });
      expect(bad.errors?.[0]?.message).toContain('recipe');
      expect((await gql(`mutation { deleteIngestionSource(urn: "${urn}") }`)).errors).toBeUndefined();
      expect((await list()).total).toBe(0);
    });

    it('needs MANAGE_INGESTION: the system client has it, a caller without credentials is not let in', async () => {
      const res = await graphql(catalog.baseUrl, '{ listIngestionSources(input: {}) { total } }');
      expect(res.errors).toBeUndefined();
      const anonymous = await fetch(`${catalog.baseUrl}/api/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: '{ listIngestionSources(input: {}) { total } }' }),
      });
      expect(anonymous.status).toBe(401);
    });
  });
}
