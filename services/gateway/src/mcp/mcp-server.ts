import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isDomainError } from '@catalog/model';
import type { Logger } from '@catalog/runtime';
import { randomUUID } from 'node:crypto';
import { registerEditTools } from './edit-tools.js';
import { registerReadTools } from './read-tools.js';
import { errorResult, type ToolContext } from './tool-context.js';

export interface McpSettings {
  /** TOOLS_IS_MUTATION_ENABLED: whether the edit tools are offered at all. */
  readonly mutationToolsEnabled: boolean;
  /** MCP_TOOL_RESULT_MAX_BYTES: what one result's lists may take before they are cut. */
  readonly resultMaxBytes: number;
}

const INSTRUCTIONS = `Tools over a metadata catalog: datasets, dashboards, pipelines, their schemas, owners,
tags, glossary terms, domains and lineage. Find entities with search, read them with get_entities and
list_schema_fields, trace data with get_lineage and get_lineage_paths_between, see usage with
get_dataset_queries. Every call acts as the token's user: what it may not read is left out, and edits it may
not make are refused.`;

/**
 * A tool's failure as a result the model can read: a domain error (bad input, refused, not found) by its
 * message; anything else by an opaque id, logged with the cause.
 */
function failure(error: unknown, tool: string, logger: Logger) {
  if (isDomainError(error)) return errorResult(error.message);
  const id = randomUUID();
  logger.error({ err: error, tool, errorId: id }, 'MCP tool failed');
  return errorResult(`The tool failed (error id ${id})`);
}

/** Every tool registered on `server` answers its failures as results instead of throwing. */
function guarded(server: McpServer, logger: Logger): McpServer {
  const register = server.registerTool.bind(server);
  const wrap = ((name: string, config: unknown, callback: (...args: unknown[]) => Promise<unknown>) =>
    register(
      name,
      config as never,
      (async (...args: unknown[]) => {
        try {
          return await callback(...args);
        } catch (error) {
          return failure(error, name, logger);
        }
      }) as never,
    )) as unknown as McpServer['registerTool'];
  return Object.assign(Object.create(server) as McpServer, { registerTool: wrap });
}

/** One request's server: the tools, bound to the request's actor (stateless: nothing outlives the request). */
export function createMcpServer(
  t: ToolContext,
  settings: McpSettings,
  info: { readonly version: string },
  logger: Logger,
): McpServer {
  const server = new McpServer(
    { name: 'metadata-catalog', version: info.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const tools = guarded(server, logger);
  registerReadTools(tools, t);
  if (settings.mutationToolsEnabled) registerEditTools(tools, t);
  return server;
}
