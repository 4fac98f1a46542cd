import type { GraphQLContext } from '../context.js';
import { keyOf, refOf, type EntityRef } from '../entities/entity-ref.js';

const ENTITY = 'dataHubExecutionRequest';
const INPUT = 'dataHubExecutionRequestInput';
const RESULT = 'dataHubExecutionRequestResult';

/**
 * Execution requests of ingestion sources (ingestion.graphql): the runs an executor or the CLI's
 * run-summary reporter recorded, read from their `dataHubExecutionRequestInput` and
 * `dataHubExecutionRequestResult`. Their arguments hold the recipe, so they are for who manages
 * ingestion, however the request was reached.
 */
export const executionRequestSchema = `
type ExecutionRequestSource { type: String ingestionSource: String }
type ExecutionRequestInput {
  task: String!
  source: ExecutionRequestSource!
  arguments: [StringMapEntry!]
  requestedAt: Long!
  actorUrn: String @deprecated(reason: "Use actor instead")
  actor: CorpUser
  executorId: String
}
type StructuredReport { type: String! serializedValue: String! contentType: String! }
type ExecutionRequestResult {
  status: String!
  startTimeMs: Long
  durationMs: Long
  report: String
  structuredReport: StructuredReport
}

extend type ExecutionRequest {
  id: String!
  input: ExecutionRequestInput!
  result: ExecutionRequestResult
  source: IngestionSource
}

extend type Query {
  executionRequest(urn: String!): ExecutionRequest
}
`;

type Json = Readonly<Record<string, unknown>>;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);

async function inputOf(ref: EntityRef, ctx: GraphQLContext): Promise<Json | undefined> {
  await ctx.services.app.ingestionSources.mayReadRecipes(ctx.auth);
  return ctx.entities.aspect<Json>(ref.urn, INPUT);
}

/** `ExecutionRequestInput` of a stored `dataHubExecutionRequestInput`. */
export function executionInputView(input: Json): Record<string, unknown> {
  const source = (input['source'] ?? {}) as Json;
  const args = input['args'];
  return {
    task: text(input['task']) ?? '',
    source: { type: text(source['type']), ingestionSource: text(source['ingestionSource']) },
    arguments:
      typeof args === 'object' && args !== null
        ? Object.entries(args as Json).map(([key, value]) => ({ key, value: text(value) }))
        : null,
    requestedAt: num(input['requestedAt']) ?? 0,
    actorUrn: text(input['actorUrn']),
    actor: refOf(input['actorUrn']) ?? null,
    executorId: text(input['executorId']),
  };
}

/** `ExecutionRequestResult` of a stored `dataHubExecutionRequestResult`. */
export function executionResultView(result: Json): Record<string, unknown> {
  const structured = result['structuredReport'] as Json | undefined;
  return {
    status: text(result['status']) ?? '',
    startTimeMs: num(result['startTimeMs']),
    durationMs: num(result['durationMs']),
    report: text(result['report']),
    structuredReport:
      structured === undefined
        ? null
        : {
            type: text(structured['type']) ?? '',
            serializedValue: text(structured['serializedValue']) ?? '',
            contentType: text(structured['contentType']) ?? '',
          },
  };
}

export function executionRequestResolvers(): Record<string, Record<string, unknown>> {
  return {
    ExecutionRequest: {
      id: (ref: EntityRef) => String(keyOf(ref)['id'] ?? ''),
      input: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const input = await inputOf(ref, ctx);
        return input === undefined ? null : executionInputView(input);
      },
      result: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const result = await ctx.entities.aspect<Json>(ref.urn, RESULT);
        return result === undefined ? null : executionResultView(result);
      },
      source: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const input = await inputOf(ref, ctx);
        const source = (input?.['source'] ?? {}) as Json;
        return refOf(source['ingestionSource']) ?? null;
      },
    },
    Query: {
      executionRequest: async (_r: unknown, { urn }: { urn: string }, ctx: GraphQLContext) => {
        const found = await ctx.services.app.ingestionSources.execution(ctx.auth, urn);
        return found === undefined ? null : { urn: found, entity: ENTITY };
      },
    },
  };
}
