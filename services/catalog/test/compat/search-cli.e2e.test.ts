import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  datasetUrn,
  personalAccessToken,
  proposal,
  request,
  startTestCatalog,
  type TestCatalog,
} from '../harness.js';
import { datahubCli, sdkPython } from './kafka-emitter-python.js';

/**
 * `datahub search` of the pinned CLI, unchanged, against the catalog: its query (one fragment over every
 * entity type, `platform` selected on several of them) validates against our schema, and its
 * `entity_type` filter (sent as `_entityType` with the EntityType value, `DATASET`) narrows the results.
 */
const run = promisify(execFile);
const { python, skip: skip } = sdkPython();
if (skip) console.warn(`skipping datahub search (CLI): ${skip}`);

interface SearchOutput {
  readonly total: number;
  readonly searchResults: { entity: { urn: string; type: string; platform?: { urn: string } | null } }[];
}

describe.skipIf(skip !== undefined)('datahub search (CLI) against the embedded catalog', () => {
  let catalog: TestCatalog;
  let env: Record<string, string | undefined>;
  const ns = `sc${Math.random().toString(36).slice(2, 8)}`;
  const orders = datasetUrn(`${ns}.orders`, 'snowflake');
  const revenue = datasetUrn(`${ns}.revenue`, 'bigquery');
  const chart = `urn:li:chart:(looker,${ns}.revenue_chart)`;
  const container = `urn:li:container:${ns}`;

  const search = async (args: readonly string[]): Promise<SearchOutput> => {
    const cli = datahubCli(python!);
    try {
      const { stdout } = await run(cli, ['search', ...args, '--format', 'json'], {
        env,
        timeout: 180_000,
        maxBuffer: 1 << 24,
      });
      return JSON.parse(stdout.slice(stdout.indexOf('{'))) as SearchOutput;
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(
        `datahub search ${args.join(' ')}: ${failed.message}\n${failed.stdout}\n${failed.stderr}`,
      );
    }
  };

  beforeAll(async () => {
    catalog = await startTestCatalog();
    env = {
      ...process.env,
      DATAHUB_TELEMETRY_ENABLED: 'false',
      DATAHUB_GMS_URL: catalog.baseUrl,
      DATAHUB_GMS_TOKEN: await personalAccessToken(catalog.baseUrl),
    };
    const res = await request(catalog.baseUrl, 'POST', '/aspects?action=ingestProposalBatch', {
      async: 'false',
      proposals: [
        proposal(orders, 'datasetProperties', { name: `${ns}_orders`, description: `orders of ${ns}` }),
        proposal(orders, 'container', { container }),
        proposal(revenue, 'datasetProperties', { name: `${ns}_revenue` }),
        proposal(chart, 'chartInfo', {
          title: `${ns}_revenue_chart`,
          description: `chart of ${ns}`,
          lastModified: {
            created: { time: 0, actor: 'urn:li:corpuser:datahub' },
            lastModified: { time: 0, actor: 'urn:li:corpuser:datahub' },
          },
        }),
        // A container without a platform instance: its platform (DataPlatform!) is the unknown one.
        proposal(container, 'containerProperties', { name: `${ns}_db` }),
      ],
    });
    if (res.status !== 200) throw new Error(`setup: ${res.status} ${res.text}`);
  }, 300_000);
  afterAll(async () => catalog?.dispose());

  it('finds datasets and charts with their platforms', async () => {
    const out = await search([ns]);
    const byUrn = new Map(out.searchResults.map((r) => [r.entity.urn, r.entity]));
    expect([...byUrn.keys()]).toEqual(expect.arrayContaining([orders, revenue, chart]));
    expect(byUrn.get(orders)?.platform?.urn).toBe('urn:li:dataPlatform:snowflake');
    expect(byUrn.get(chart)?.platform?.urn).toBe('urn:li:dataPlatform:looker');
  });

  it('narrows to datasets with --filter entity_type=dataset (the _entityType filter, DATASET)', async () => {
    const out = await search([ns, '--filter', 'entity_type=dataset']);
    expect(out.searchResults.map((r) => r.entity.urn).sort()).toEqual([orders, revenue].sort());
    expect(out.total).toBe(2);
  });

  it('narrows by platform', async () => {
    const out = await search([ns, '--filter', 'platform=bigquery']);
    expect(out.searchResults.map((r) => r.entity.urn)).toEqual([revenue]);
  });
});
