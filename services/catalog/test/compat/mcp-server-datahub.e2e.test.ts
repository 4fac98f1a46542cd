import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { skipUnlessCi } from '@catalog/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../families.js';
import { SYSTEM_AUTH_HEADERS, datasetUrn, proposal, startTestCatalog, type TestCatalog } from '../harness.js';
import { pythonReport, sdkPython } from './kafka-emitter-python.js';

/**
 * The ecosystem's own MCP server, mcp-server-datahub (pinned in infra/local/python-sdk.sh), unchanged
 * against the catalog: every open-source tool it offers runs its GraphQL against us and answers.
 */
const run = promisify(execFile);

async function pythonWithMcpServer(): Promise<{ python: string } | { skip: string }> {
  const found = sdkPython();
  if (found.skip !== undefined) return { skip: found.skip };
  try {
    await run(found.python, ['-c', 'import mcp, mcp_server_datahub.mcp_server'], { timeout: 120_000 });
    return { python: found.python };
  } catch {
    return { skip: `${found.python} lacks mcp-server-datahub: run infra/local/python-sdk.sh` };
  }
}

const found = await pythonWithMcpServer();
const pythonSkip = skipUnlessCi('skip' in found ? found.skip : undefined);

interface Report {
  readonly tools: readonly string[];
  readonly calls: readonly { readonly name: string; readonly isError: boolean; readonly text: string }[];
}

async function write(base: string, proposals: Record<string, unknown>[]): Promise<void> {
  const res = await fetch(`${base}/aspects?action=ingestProposalBatch`, {
    method: 'POST',
    headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', 'X-Wait-For-Index': 'true' },
    body: JSON.stringify({ proposals, async: 'false' }),
  });
  if (res.status !== 200) throw new Error(`write failed: ${res.status} ${await res.text()}`);
}

const schema = (paths: [string, string?][]) => ({
  schemaName: 's',
  platform: 'urn:li:dataPlatform:hive',
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: 'create table t (x int)' } },
  fields: paths.map(([fieldPath, description]) => ({
    fieldPath,
    nativeDataType: 'varchar',
    type: { type: { 'com.linkedin.schema.StringType': {} } },
    ...(description === undefined ? {} : { description }),
  })),
});

for (const family of FAMILIES) {
  const skip = pythonSkip ?? family.skip;
  if (skip) console.warn(`skipping mcp-server-datahub on ${family.name}: ${skip}`);

  describe.skipIf(skip !== undefined)(`mcp-server-datahub against the catalog on ${family.name}`, () => {
    let catalog: TestCatalog;
    let report: Report;
    const id = Math.random().toString(36).slice(2, 8);
    const [orders, enriched, report_] = ['orders', 'enriched', 'report'].map((n) =>
      datasetUrn(`mcpsrv_${id}.${n}`),
    ) as [string, string, string];
    const query = `urn:li:query:mcpsrv_${id}`;
    const stamp = { time: 1, actor: 'urn:li:corpuser:datahub' };
    const text = (name: string) => {
      const call = report.calls.find((c) => c.name === name)!;
      expect(call.isError, call.text).toBe(false);
      return call.text;
    };

    beforeAll(async () => {
      if ('skip' in found) return;
      catalog = await startTestCatalog(family.env());
      await write(catalog.baseUrl, [
        proposal(orders, 'datasetProperties', { name: `orders_${id}`, description: 'One row per order' }),
        proposal(orders, 'schemaMetadata', schema([['order_id'], ['customer_email', 'Email of the buyer']])),
        proposal(enriched, 'datasetProperties', { name: `enriched_${id}` }),
        proposal(enriched, 'upstreamLineage', {
          upstreams: [{ dataset: orders, type: 'TRANSFORMED', query }],
        }),
        proposal(report_, 'datasetProperties', { name: `report_${id}` }),
        proposal(report_, 'upstreamLineage', { upstreams: [{ dataset: enriched, type: 'TRANSFORMED' }] }),
        proposal(query, 'queryProperties', {
          statement: { value: `select customer_email from orders_${id}`, language: 'SQL' },
          source: 'MANUAL',
          created: stamp,
          lastModified: stamp,
        }),
        proposal(query, 'querySubjects', { subjects: [{ entity: orders }] }),
      ]);
      report = await pythonReport<Report>(found.python, 'mcp_server_datahub_tools.py', [
        catalog.baseUrl,
        JSON.stringify([
          ['search', { query: `orders_${id}` }],
          ['get_entities', { urns: [orders] }],
          ['list_schema_fields', { urn: orders, keywords: ['email'] }],
          ['get_lineage', { urn: report_, upstream: true, max_hops: 3 }],
          ['get_lineage_paths_between', { source_urn: orders, target_urn: report_ }],
          ['get_dataset_queries', { urn: orders }],
        ]),
      ]);
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    it('lists its open-source read tools', () => {
      expect(report.tools).toEqual(
        expect.arrayContaining([
          'search',
          'get_entities',
          'list_schema_fields',
          'get_lineage',
          'get_lineage_paths_between',
          'get_dataset_queries',
        ]),
      );
    });

    it('search finds the dataset', () => {
      const result = JSON.parse(text('search')) as { searchResults: { entity: { urn: string } }[] };
      expect(result.searchResults.map((r) => r.entity.urn)).toEqual([orders]);
    });

    it('get_entities reads the dataset with its description and schema', () => {
      const [entity] = JSON.parse(text('get_entities')) as Record<string, unknown>[];
      expect(entity).toMatchObject({ urn: orders, properties: { description: 'One row per order' } });
      expect(JSON.stringify(entity)).toContain('customer_email');
    });

    it('list_schema_fields puts the column matching the keyword first', () => {
      const result = JSON.parse(text('list_schema_fields')) as { fields: { fieldPath: string }[] } & Record<
        string,
        unknown
      >;
      expect(result).toMatchObject({ totalFields: 2, matchingCount: 1 });
      expect(result.fields[0]!.fieldPath).toBe('customer_email');
    });

    it('get_lineage follows three hops upstream', () => {
      const result = JSON.parse(text('get_lineage')) as {
        upstreams: { searchResults: { entity: { urn: string }; degree: number }[] };
      };
      expect(result.upstreams.searchResults.map((r) => [r.entity.urn, r.degree])).toEqual(
        expect.arrayContaining([
          [enriched, 1],
          [orders, 2],
        ]),
      );
    });

    it('get_lineage_paths_between finds the path from orders to the report', () => {
      const result = JSON.parse(text('get_lineage_paths_between')) as { pathCount: number; paths: unknown[] };
      expect(result.pathCount).toBeGreaterThan(0);
      expect(JSON.stringify(result.paths)).toContain(enriched);
    });

    it('get_dataset_queries lists the query with its SQL', () => {
      const result = JSON.parse(text('get_dataset_queries')) as {
        total: number;
        queries: { urn: string; properties: { statement: { value: string } } }[];
      };
      expect(result.total).toBe(1);
      expect(result.queries[0]).toMatchObject({ urn: query });
      expect(result.queries[0]!.properties.statement.value).toContain(`from orders_${id}`);
    });
  });
}
