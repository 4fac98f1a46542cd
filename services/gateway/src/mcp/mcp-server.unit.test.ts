import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createLogger } from '@catalog/runtime';
import { describe, expect, it } from 'vitest';
import type { CatalogApplication } from '../application/catalog-application.js';
import type { RequestContext } from '@catalog/auth';
import { createMcpServer } from './mcp-server.js';

async function toolNames(mutationToolsEnabled: boolean): Promise<string[]> {
  const server = createMcpServer(
    { app: {} as CatalogApplication, ctx: {} as RequestContext, budgetBytes: 60_000 },
    { mutationToolsEnabled, resultMaxBytes: 60_000 },
    { version: 'test' },
    createLogger({ name: 'test', level: 'silent' }),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'unit', version: '1' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  return tools.map((t) => t.name);
}

describe('the MCP server’s tools', () => {
  it('offers no edit tool unless TOOLS_IS_MUTATION_ENABLED', async () => {
    expect((await toolNames(false)).sort()).toEqual([
      'get_dataset_queries',
      'get_entities',
      'get_lineage',
      'get_lineage_paths_between',
      'list_schema_fields',
      'search',
    ]);
    expect(await toolNames(true)).toEqual(
      expect.arrayContaining(['add_tags', 'update_description', 'set_domains']),
    );
  });

  it('answers a failing tool as an error result naming the problem, not a protocol error', async () => {
    const server = createMcpServer(
      { app: {} as CatalogApplication, ctx: {} as RequestContext, budgetBytes: 60_000 },
      { mutationToolsEnabled: false, resultMaxBytes: 60_000 },
      { version: 'test' },
      createLogger({ name: 'test', level: 'silent' }),
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'unit', version: '1' });
    await client.connect(clientSide);
    const result = (await client.callTool({ name: 'search', arguments: { filter: 'platform ~ a' } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    await client.close();
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]!.text)).toEqual({ error: expect.stringMatching(/filter/) });
  });
});
