import type { RequestContext } from '@catalog/auth';
import type { CatalogApplication } from '../application/catalog-application.js';

/** What every tool runs with: the application, the request's actor, and the result size budget. */
export interface ToolContext {
  readonly app: CatalogApplication;
  readonly ctx: RequestContext;
  /** Bytes a result's lists may take before they are cut (MCP_TOOL_RESULT_MAX_BYTES). */
  readonly budgetBytes: number;
}

/** A tool's answer: one JSON text block, as the ecosystem's server returns its results. */
export function jsonResult(value: unknown) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(value) }] };
}

/** A refused or failed call: the message for the model, marked as an error. */
export function errorResult(message: string) {
  return { content: [{ type: 'text' as const, text: JSON.stringify({ error: message }) }], isError: true };
}

/** A schema field's urn, the form lineage and queries name columns by. */
export function schemaFieldUrn(datasetUrn: string, column: string): string {
  return `urn:li:schemaField:(${datasetUrn},${column})`;
}
