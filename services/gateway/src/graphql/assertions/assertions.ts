import type {
  AssertionResultInput,
  RunEventsQuery,
  UpsertCustomAssertionInput,
} from '../../application/assertions.js';
import type { GraphQLContext } from '../context.js';
import { refOf, requireRef, type EntityRef } from '../entities/entity-ref.js';

/**
 * The ecosystem's assertion API (assertions.graphql, entity.graphql): custom assertions, their run
 * results and an asset's assertions, with its types and nullability; application/assertions.ts decides
 * and answers. Assertion.info (incidents slice) is the stored `assertionInfo`; its fields resolve here.
 */
export const assertionSchema = `
enum DatasetAssertionScope { DATASET_COLUMN DATASET_ROWS DATASET_STORAGE_SIZE DATASET_SCHEMA UNKNOWN }
enum AssertionStdAggregation {
  IDENTITY MEAN MEDIAN UNIQUE_COUNT UNIQUE_PROPOTION NULL_COUNT NULL_PROPORTION STDDEV MIN MAX SUM COLUMNS
  COLUMN_COUNT ROW_COUNT _NATIVE_
}
enum AssertionStdOperator {
  BETWEEN LESS_THAN LESS_THAN_OR_EQUAL_TO GREATER_THAN GREATER_THAN_OR_EQUAL_TO EQUAL_TO NOT_EQUAL_TO NULL
  NOT_NULL CONTAIN END_WITH START_WITH REGEX_MATCH IN NOT_IN IS_TRUE IS_FALSE _NATIVE_
}
enum AssertionStdParameterType { STRING NUMBER LIST SET UNKNOWN }
enum AssertionResultType { INIT SUCCESS FAILURE ERROR }
enum AssertionResultSeverity { LOW MEDIUM HIGH }
enum AssertionResultErrorType {
  SOURCE_CONNECTION_ERROR SOURCE_QUERY_FAILED INVALID_PARAMETERS INSUFFICIENT_DATA INVALID_SOURCE_TYPE
  UNSUPPORTED_PLATFORM CUSTOM_SQL_ERROR FIELD_ASSERTION_ERROR UNKNOWN_ERROR
}
enum AssertionRunStatus { COMPLETE }
enum AssertionSourceType { NATIVE EXTERNAL INFERRED }

input PlatformInput { urn: String name: String }
input AssertionStdParameterInput { value: String! type: AssertionStdParameterType! }
input AssertionStdParametersInput {
  value: AssertionStdParameterInput
  maxValue: AssertionStdParameterInput
  minValue: AssertionStdParameterInput
}
input UpsertCustomAssertionInput {
  entityUrn: String!
  type: String!
  description: String!
  fieldPath: String
  fieldPaths: [String!]
  platform: PlatformInput!
  externalUrl: String
  logic: String
  scope: DatasetAssertionScope
  aggregation: AssertionStdAggregation
  operator: AssertionStdOperator
  parameters: AssertionStdParametersInput
  nativeType: String
  nativeParameters: [StringMapEntryInput!]
}
input AssertionResultErrorInput { type: AssertionResultErrorType! message: String! }
input AssertionResultInput {
  timestampMillis: Long
  type: AssertionResultType!
  properties: [StringMapEntryInput!]
  externalUrl: String
  error: AssertionResultErrorInput
  severity: AssertionResultSeverity
}

type SchemaFieldRef { urn: String! path: String! }
type AssertionStdParameter { value: String! type: AssertionStdParameterType! }
type AssertionStdParameters {
  value: AssertionStdParameter
  maxValue: AssertionStdParameter
  minValue: AssertionStdParameter
}
type CustomAssertionInfo {
  type: String!
  entityUrn: String!
  field: SchemaFieldRef
  fields: [SchemaFieldRef!]
  scope: DatasetAssertionScope
  aggregation: AssertionStdAggregation
  operator: AssertionStdOperator
  parameters: AssertionStdParameters
  nativeType: String
  nativeParameters: [StringMapEntry!]
  logic: String
}
type AssertionSource { type: AssertionSourceType! created: AuditStamp }
extend type AssertionInfo {
  description: String
  externalUrl: String
  customAssertion: CustomAssertionInfo
  source: AssertionSource
  lastUpdated: AuditStamp
}
type AssertionResultError { type: AssertionResultErrorType! properties: [StringMapEntry!] }
type AssertionResult {
  type: AssertionResultType!
  rowCount: Long
  missingCount: Long
  unexpectedCount: Long
  actualAggValue: Float
  externalUrl: String
  nativeResults: [StringMapEntry!]
  error: AssertionResultError
  severity: AssertionResultSeverity
}
type AssertionRunEvent {
  timestampMillis: Long!
  lastObservedMillis: Long
  assertionUrn: String!
  asserteeUrn: String!
  runId: String!
  status: AssertionRunStatus!
  runtimeContext: [StringMapEntry!]
  result: AssertionResult
}
type AssertionRunEventsResult {
  total: Int!
  failed: Int!
  succeeded: Int!
  errored: Int!
  runEvents: [AssertionRunEvent!]!
}
type EntityAssertionsResult { start: Int! count: Int! total: Int! assertions: [Assertion!]! }
extend type Assertion {
  runEvents(status: AssertionRunStatus, startTimeMillis: Long, endTimeMillis: Long, limit: Int): AssertionRunEventsResult
}
extend type Dataset {
  assertions(start: Int, count: Int, includeSoftDeleted: Boolean): EntityAssertionsResult
}
extend type Mutation {
  upsertCustomAssertion(urn: String, input: UpsertCustomAssertionInput!): Assertion!
  reportAssertionResult(urn: String!, result: AssertionResultInput!): Boolean!
  deleteAssertion(urn: String!): Boolean
}
`;

type Json = Readonly<Record<string, unknown>>;

const app = (ctx: GraphQLContext) => ctx.services.app.assertions;

const asRecord = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;

/** A string map as the ecosystem's StringMapEntry list (null when absent). */
const entries = (value: unknown): { key: string; value: unknown }[] | null => {
  const map = asRecord(value);
  return map === undefined ? null : Object.entries(map).map(([key, v]) => ({ key, value: v }));
};

/** The reference of a schemaField urn: its urn and the field path it ends with. */
function fieldRef(urn: unknown): { urn: string; path: string } | null {
  if (typeof urn !== 'string') return null;
  const open = urn.indexOf('(');
  const body = open < 0 || !urn.endsWith(')') ? '' : urn.slice(open + 1, -1);
  // The path follows the last comma at depth 0 (the parent urn's own commas sit inside its parentheses).
  let depth = 0;
  let split = -1;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) split = i;
  }
  return { urn, path: split < 0 ? body : body.slice(split + 1) };
}

function stdParameters(value: unknown): Json | null {
  const parameters = asRecord(value);
  if (parameters === undefined) return null;
  const one = (key: string) => asRecord(parameters[key]) ?? null;
  return { value: one('value'), maxValue: one('maxValue'), minValue: one('minValue') };
}

function customAssertion(value: unknown): Json | null {
  const info = asRecord(value);
  if (info === undefined) return null;
  const fields = Array.isArray(info['fields']) ? info['fields'].flatMap((f) => fieldRef(f) ?? []) : null;
  return {
    type: info['type'],
    entityUrn: info['entity'],
    field: fieldRef(info['field']),
    fields,
    scope: info['scope'] ?? null,
    aggregation: info['aggregation'] ?? null,
    operator: info['operator'] ?? null,
    parameters: stdParameters(info['parameters']),
    nativeType: info['nativeType'] ?? null,
    nativeParameters: entries(info['nativeParameters']),
    logic: info['logic'] ?? null,
  };
}

function result(value: unknown): Json | null {
  const r = asRecord(value);
  if (r === undefined) return null;
  const error = asRecord(r['error']);
  return {
    type: r['type'],
    rowCount: r['rowCount'] ?? null,
    missingCount: r['missingCount'] ?? null,
    unexpectedCount: r['unexpectedCount'] ?? null,
    actualAggValue: r['actualAggValue'] ?? null,
    externalUrl: r['externalUrl'] ?? null,
    nativeResults: entries(r['nativeResults']),
    error: error === undefined ? null : { type: error['type'], properties: entries(error['properties']) },
    severity: r['severity'] ?? null,
  };
}

function runEvent(event: { value: Json; lastObservedMillis?: number }): Json {
  const v = event.value;
  return {
    timestampMillis: v['timestampMillis'],
    lastObservedMillis: event.lastObservedMillis ?? null,
    assertionUrn: v['assertionUrn'],
    asserteeUrn: v['asserteeUrn'],
    runId: v['runId'],
    status: v['status'],
    runtimeContext: entries(v['runtimeContext']),
    result: result(v['result']),
  };
}

interface AssertionsArgs {
  readonly start?: number | null;
  readonly count?: number | null;
  readonly includeSoftDeleted?: boolean | null;
}

export function assertionResolvers() {
  return {
    AssertionInfo: {
      description: (info: Json) => info['description'] ?? null,
      externalUrl: (info: Json) => info['externalUrl'] ?? null,
      customAssertion: (info: Json) => customAssertion(info['customAssertion']),
      source: (info: Json) => {
        const source = asRecord(info['source']);
        return source === undefined
          ? null
          : { type: source['type'], created: asRecord(source['created']) ?? null };
      },
      lastUpdated: (info: Json) => asRecord(info['lastUpdated']) ?? null,
    },
    Assertion: {
      runEvents: async (ref: EntityRef, args: RunEventsQuery, ctx: GraphQLContext) => {
        const page = await app(ctx).runEvents(ctx.auth, ref.urn, args);
        return { ...page, runEvents: page.runEvents.map(runEvent) };
      },
    },
    Dataset: {
      assertions: async (ref: EntityRef, args: AssertionsArgs, ctx: GraphQLContext) => {
        const page = await app(ctx).forEntity(ctx.auth, ref.urn, args);
        return { ...page, assertions: page.urns.flatMap((urn) => refOf(urn) ?? []) };
      },
    },
    Mutation: {
      upsertCustomAssertion: async (
        _r: unknown,
        args: { urn?: string | null; input: UpsertCustomAssertionInput },
        ctx: GraphQLContext,
      ) => requireRef(await app(ctx).upsertCustom(ctx.auth, args.urn, args.input)),
      reportAssertionResult: async (
        _r: unknown,
        args: { urn: string; result: AssertionResultInput },
        ctx: GraphQLContext,
      ) => {
        await app(ctx).reportResult(ctx.auth, args.urn, args.result);
        return true;
      },
      deleteAssertion: (_r: unknown, args: { urn: string }, ctx: GraphQLContext) =>
        app(ctx).delete(ctx.auth, args.urn),
    },
  };
}
