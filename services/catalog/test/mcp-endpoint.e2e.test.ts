import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphqlData } from './graphql-client.js';
import {
  SYSTEM_AUTH_HEADERS,
  callAs,
  datasetUrn,
  logIn,
  proposal,
  startTestCatalog,
  type TestCatalog,
} from './harness.js';
import { signUpUser } from './test-users.js';

type Json = Record<string, unknown>;

async function write(base: string, proposals: Record<string, unknown>[]): Promise<void> {
  const res = await fetch(`${base}/aspects?action=ingestProposalBatch`, {
    method: 'POST',
    headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', 'X-Wait-For-Index': 'true' },
    body: JSON.stringify({ proposals, async: 'false' }),
  });
  if (res.status !== 200) throw new Error(`write failed: ${res.status} ${await res.text()}`);
}

/** An MCP client of the SDK, connected to the catalog's `/mcp` with the bearer `authorization`. */
async function connect(base: string, authorization: string): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: authorization } },
    }),
  );
  return client;
}

/** A tool's result: its JSON text parsed, and whether it is an error. */
async function call(client: Client, name: string, args: Json): Promise<{ value: Json; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as {
    content: { type: string; text: string }[];
    isError?: boolean;
  };
  const text = result.content.map((c) => c.text).join('');
  return { value: JSON.parse(text) as Json, isError: result.isError === true };
}

const field = (parent: string, path: string) => `urn:li:schemaField:(${parent},${path})`;
const schema = (fields: { path: string; description?: string }[]) => ({
  schemaName: 's',
  platform: 'urn:li:dataPlatform:hive',
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
  fields: fields.map((f) => ({
    fieldPath: f.path,
    nativeDataType: 'varchar',
    type: { type: { 'com.linkedin.schema.StringType': {} } },
    ...(f.description === undefined ? {} : { description: f.description }),
  })),
});

const READ_TOOLS = [
  'get_dataset_queries',
  'get_entities',
  'get_lineage',
  'get_lineage_paths_between',
  'list_schema_fields',
  'search',
];
const EDIT_TOOLS = [
  'add_owners',
  'add_structured_properties',
  'add_tags',
  'add_terms',
  'remove_domains',
  'remove_owners',
  'remove_structured_properties',
  'remove_tags',
  'remove_terms',
  'set_domains',
  'update_description',
];

for (const family of FAMILIES) {
  describe.skipIf(family.skip !== undefined)(`the MCP endpoint on ${family.name}`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let admin_client: Client;
    const run = Math.random().toString(36).slice(2, 8);
    // orders -> enriched -> report (dataset lineage); orders.customer_email -> enriched.email (column).
    const [orders, enriched, report, wide] = ['orders', 'enriched', 'report', 'wide'].map((n) =>
      datasetUrn(`mcp_${run}.${n}`),
    ) as [string, string, string, string];
    const query = `urn:li:query:mcp_${run}`;
    const tag = `urn:li:tag:pii_${run}`;
    const term = `urn:li:glossaryTerm:email_${run}`;
    const domain = `urn:li:domain:sales_${run}`;
    const stamp = { time: 1, actor: 'urn:li:corpuser:datahub' };

    beforeAll(async () => {
      catalog = await startTestCatalog({
        ...family.env(),
        TOOLS_IS_MUTATION_ENABLED: 'true',
        MCP_TOOL_RESULT_MAX_BYTES: '8192',
      });
      base = catalog.baseUrl;
      admin = `Bearer ${await logIn(base)}`;
      await write(base, [
        proposal(tag, 'tagProperties', { name: `PII ${run}` }),
        proposal(term, 'glossaryTermInfo', {
          name: 'Email',
          definition: 'An email address',
          termSource: 'INTERNAL',
        }),
        proposal(domain, 'domainProperties', { name: `Sales ${run}` }),
        proposal(orders, 'datasetProperties', { name: `orders_${run}`, description: 'One row per order' }),
        proposal(orders, 'globalTags', { tags: [{ tag }] }),
        proposal(
          orders,
          'schemaMetadata',
          schema([
            { path: 'order_id' },
            { path: 'customer_email', description: 'Email of the buyer' },
            { path: 'amount' },
          ]),
        ),
        proposal(enriched, 'datasetProperties', { name: `enriched_${run}` }),
        proposal(enriched, 'schemaMetadata', schema([{ path: 'email' }])),
        proposal(enriched, 'upstreamLineage', {
          upstreams: [{ dataset: orders, type: 'TRANSFORMED', query }],
          fineGrainedLineages: [
            {
              upstreamType: 'FIELD_SET',
              upstreams: [field(orders, 'customer_email')],
              downstreamType: 'FIELD',
              downstreams: [field(enriched, 'email')],
              query,
            },
          ],
        }),
        proposal(report, 'datasetProperties', { name: `report_${run}` }),
        proposal(report, 'upstreamLineage', { upstreams: [{ dataset: enriched, type: 'TRANSFORMED' }] }),
        proposal(query, 'queryProperties', {
          statement: {
            value: `insert into enriched_${run} select customer_email from orders_${run}`,
            language: 'SQL',
          },
          source: 'SYSTEM',
          created: stamp,
          lastModified: stamp,
        }),
        proposal(query, 'querySubjects', { subjects: [{ entity: orders }, { entity: enriched }] }),
        // Forty columns of 400 characters each: more than one result's budget (8 KiB here).
        proposal(
          wide,
          'schemaMetadata',
          schema(
            Array.from({ length: 40 }, (_, i) => ({ path: `c${i}`, description: `${i} `.padEnd(400, 'x') })),
          ),
        ),
      ]);
      admin_client = await connect(base, admin);
    }, 120_000);

    afterAll(async () => {
      await admin_client?.close();
      await catalog?.dispose();
    });

    it('answers 401 to a request without credentials, as every other route', async () => {
      const res = await callAs(
        base,
        'POST',
        '/mcp',
        undefined,
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        {
          Accept: 'application/json, text/event-stream',
        },
      );
      expect(res.status).toBe(401);
    });

    it('lists the read tools and, with TOOLS_IS_MUTATION_ENABLED, the edits, each described for a model', async () => {
      const { tools } = await admin_client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS, ...EDIT_TOOLS].sort());
      for (const tool of tools) expect(tool.description?.length ?? 0).toBeGreaterThan(80);
      expect(tools.find((t) => t.name === 'search')?.inputSchema.properties).toHaveProperty('num_results');
    });

    it('search finds by keywords, by the SQL-like filter, and gives facets alone with num_results 0', async () => {
      const byName = await call(admin_client, 'search', { query: `orders_${run}` });
      expect((byName.value['searchResults'] as { entity: Json }[]).map((r) => r.entity['urn'])).toContain(
        orders,
      );
      const byTag = await call(admin_client, 'search', {
        query: '*',
        filter: `entity_type = dataset AND tag = ${tag}`,
      });
      expect((byTag.value['searchResults'] as { entity: Json }[]).map((r) => r.entity['urn'])).toEqual([
        orders,
      ]);
      const facets = await call(admin_client, 'search', { query: `mcp_${run}`, num_results: 0 });
      expect(facets.value['searchResults']).toEqual([]);
      expect(JSON.stringify(facets.value['facets'])).toContain('urn:li:dataPlatform:hive');
    });

    it('get_entities summarises an entity: name, description, platform, tags, schema size', async () => {
      const { value } = await call(admin_client, 'get_entities', { urns: [orders, enriched] });
      const [first] = value['entities'] as Json[];
      expect(first).toMatchObject({
        urn: orders,
        type: 'DATASET',
        name: `orders_${run}`,
        description: 'One row per order',
        platform: 'urn:li:dataPlatform:hive',
        tags: [tag],
        schemaFieldCount: 3,
      });
      const missing = await call(admin_client, 'get_entities', {
        urns: [datasetUrn(`mcp_${run}.missing`), 'not-a-urn'],
      });
      expect(missing.value['entities']).toEqual([
        { urn: datasetUrn(`mcp_${run}.missing`), error: expect.stringMatching(/not found/i) },
        { urn: 'not-a-urn', error: expect.stringMatching(/not a valid urn/i) },
      ]);
    });

    it('list_schema_fields puts the columns matching the keywords first and counts them', async () => {
      const { value } = await call(admin_client, 'list_schema_fields', { urn: orders, keywords: ['email'] });
      expect(value).toMatchObject({ totalFields: 3, matchingCount: 1, returned: 3, remainingCount: 0 });
      expect((value['fields'] as Json[])[0]).toMatchObject({
        fieldPath: 'customer_email',
        description: 'Email of the buyer',
      });
    });

    it('cuts a result that passes the byte budget at whole items, says so, and continues from the offset', async () => {
      const first = await call(admin_client, 'list_schema_fields', { urn: wide });
      expect(first.value).toMatchObject({ totalFields: 40, truncated: true, hasMore: true });
      const returned = first.value['returned'] as number;
      expect(returned).toBeGreaterThan(0);
      expect(returned).toBeLessThan(40);
      expect(first.value['note']).toContain(`offset=${returned}`);
      const next = await call(admin_client, 'list_schema_fields', { urn: wide, offset: returned });
      expect((next.value['fields'] as Json[])[0]).toMatchObject({ fieldPath: `c${returned}` });
    });

    it('get_lineage walks upstream as many hops as asked, with each entity at its degree', async () => {
      const one = await call(admin_client, 'get_lineage', { urn: report, upstream: true, max_hops: 1 });
      const oneHop = (one.value['upstreams'] as Json)['searchResults'] as { entity: Json; degree: number }[];
      expect(oneHop.map((r) => [r.entity['urn'], r.degree])).toEqual([[enriched, 1]]);
      const all = await call(admin_client, 'get_lineage', { urn: report, upstream: true, max_hops: 3 });
      const found = (
        (all.value['upstreams'] as Json)['searchResults'] as { entity: Json; degree: number }[]
      ).map((r) => [r.entity['urn'], r.degree]);
      expect(found).toEqual(
        expect.arrayContaining([
          [enriched, 1],
          [orders, 2],
        ]),
      );
      const down = await call(admin_client, 'get_lineage', {
        urn: orders,
        column: 'customer_email',
        upstream: false,
      });
      const [reached] = (down.value['downstreams'] as Json)['searchResults'] as Json[];
      expect(reached).toMatchObject({ entity: { urn: enriched }, degree: 1, lineageColumns: ['email'] });
      const columns = await call(admin_client, 'get_lineage_paths_between', {
        source_urn: orders,
        source_column: 'customer_email',
        target_urn: enriched,
        target_column: 'email',
      });
      expect(columns.value).toMatchObject({ pathCount: 1, metadata: { pathType: 'column-level' } });
      const [columnPath] = columns.value['paths'] as { path: string[] }[];
      expect(columnPath!.path[0]).toBe(field(orders, 'customer_email'));
      expect(columnPath!.path.at(-1)).toBe(field(enriched, 'email'));
    });

    it('get_lineage_paths_between gives the path from source to target', async () => {
      const { value } = await call(admin_client, 'get_lineage_paths_between', {
        source_urn: orders,
        target_urn: report,
      });
      expect(value).toMatchObject({ pathCount: 1, metadata: { direction: 'downstream' } });
      const [path] = value['paths'] as { path: string[] }[];
      expect(path!.path[0]).toBe(orders);
      expect(path!.path).toContain(enriched);
      expect(path!.path.at(-1)).toBe(report);
    });

    it('get_dataset_queries lists the queries that name the dataset, with their SQL', async () => {
      const { value } = await call(admin_client, 'get_dataset_queries', { urn: orders });
      expect(value['total']).toBe(1);
      expect((value['queries'] as Json[])[0]).toMatchObject({ urn: query, source: 'SYSTEM' });
      expect((value['queries'] as Json[])[0]!['statement']).toContain(`from orders_${run}`);
    });

    it('the edits change the entity as the token user, and read back through get_entities', async () => {
      const { urn: property } = (
        await graphqlData<{ createStructuredProperty: { urn: string } }>(
          base,
          'mutation($q: String!) { createStructuredProperty(input: {qualifiedName: $q, valueType: "urn:li:dataType:datahub.string", entityTypes: ["urn:li:entityType:datahub.dataset"]}) { urn } }',
          { q: `io.mcp.tier_${run}` },
          { headers: { Authorization: admin } },
        )
      ).createStructuredProperty;
      const { urn: score } = (
        await graphqlData<{ createStructuredProperty: { urn: string } }>(
          base,
          'mutation($q: String!) { createStructuredProperty(input: {qualifiedName: $q, valueType: "urn:li:dataType:datahub.number", entityTypes: ["urn:li:entityType:datahub.dataset"]}) { urn } }',
          { q: `io.mcp.score_${run}` },
          { headers: { Authorization: admin } },
        )
      ).createStructuredProperty;
      const edits: [string, Json][] = [
        ['add_terms', { term_urns: [term], entity_urns: [enriched] }],
        ['add_tags', { tag_urns: [tag], entity_urns: [enriched], column_paths: ['email'] }],
        [
          'add_owners',
          {
            owner_urns: ['urn:li:corpuser:datahub'],
            entity_urns: [enriched],
            ownership_type: 'DATA_STEWARD',
          },
        ],
        ['set_domains', { domain_urn: domain, entity_urns: [enriched] }],
        ['update_description', { entity_urn: enriched, description: 'Orders with customers' }],
        [
          'update_description',
          { entity_urn: enriched, operation: 'append', description: 'Refreshed hourly.' },
        ],
        [
          'add_structured_properties',
          { property_values: { [property]: ['gold'], [score]: ['0.95'] }, entity_urns: [enriched] },
        ],
      ];
      for (const [name, args] of edits) {
        const result = await call(admin_client, name, args);
        expect(result, name).toMatchObject({ isError: false, value: { success: true } });
      }
      const { value } = await call(admin_client, 'get_entities', { urns: enriched });
      expect(value).toMatchObject({
        glossaryTerms: [term],
        owners: [{ owner: 'urn:li:corpuser:datahub', type: 'urn:li:ownershipType:__system__data_steward' }],
        domain,
        description: 'Orders with customers\n\nRefreshed hourly.',
        structuredProperties: expect.arrayContaining([
          { property, values: ['gold'] },
          { property: score, values: [0.95] },
        ]),
      });
      const fields = await call(admin_client, 'list_schema_fields', { urn: enriched });
      expect((fields.value['fields'] as Json[])[0]).toMatchObject({ fieldPath: 'email', tags: [tag] });

      for (const [name, args] of [
        ['remove_terms', { term_urns: [term], entity_urns: [enriched] }],
        ['remove_owners', { owner_urns: ['urn:li:corpuser:datahub'], entity_urns: [enriched] }],
        ['remove_domains', { entity_urns: [enriched] }],
        ['remove_structured_properties', { property_urns: [property, score], entity_urns: [enriched] }],
        ['update_description', { entity_urn: enriched, operation: 'remove' }],
      ] as [string, Json][]) {
        const result = await call(admin_client, name, args);
        expect(result, name).toMatchObject({ isError: false, value: { success: true } });
      }
      const after = (await call(admin_client, 'get_entities', { urns: enriched })).value;
      for (const gone of ['glossaryTerms', 'owners', 'domain', 'structuredProperties', 'description'])
        expect(after, gone).not.toHaveProperty(gone);
    });

    it('a user without privileges is refused edits, changes nothing, and does not see what it may not read', async () => {
      const secret = (
        await graphqlData<{ createSecret: string }>(
          base,
          'mutation($n: String!) { createSecret(input: {name: $n, value: "hunter2", description: "the warehouse password"}) }',
          { n: `mcp_${run}` },
          { headers: { Authorization: admin } },
        )
      ).createSecret;
      const nobody = await signUpUser(base, admin, `mcp-nobody-${run}@example.com`);
      const client = await connect(base, nobody);
      try {
        const refused = await call(client, 'add_tags', { tag_urns: [tag], entity_urns: [report] });
        expect(refused.isError).toBe(true);
        expect(String(refused.value['error'])).toMatch(/unauthorized/i);
        const { value } = await call(admin_client, 'get_entities', { urns: report });
        expect(value).not.toHaveProperty('tags');

        const seen = await call(client, 'get_entities', { urns: [secret, report] });
        const [hidden, visible] = seen.value['entities'] as Json[];
        expect(hidden).toMatchObject({ urn: secret, error: expect.any(String) });
        expect(visible).toMatchObject({ urn: report, name: `report_${run}` });
      } finally {
        await client.close();
      }
      // The admin reads the secret entity, but its value aspect (restricted) never leaves the store.
      const { value } = await call(admin_client, 'get_entities', { urns: secret });
      expect(value).toMatchObject({ urn: secret });
      expect(JSON.stringify(value)).not.toContain('the warehouse password');
      expect(JSON.stringify(value)).not.toContain('hunter2');
    });
  });
}
