import type { ChangeEvent, ChangeTransaction } from '../../application/entity-timeline.js';
import type { GraphQLContext } from '../context.js';

/**
 * A dataset schema's history as the ecosystem's timeline.graphql reads it from the TECHNICAL_SCHEMA
 * timeline: its semantic versions (getSchemaVersionList) and, per field, the last change at or before
 * a version (getSchemaBlame).
 */
export const schemaHistorySchema = `
input GetSchemaVersionListInput { datasetUrn: String! }
type SemanticVersionStruct { semanticVersion: String semanticVersionTimestamp: Long versionStamp: String }
type GetSchemaVersionListResult {
  latestVersion: SemanticVersionStruct
  version: SemanticVersionStruct
  semanticVersionList: [SemanticVersionStruct!]
}
input GetSchemaBlameInput { datasetUrn: String! version: String }
type SchemaFieldChange {
  timestampMillis: Long!
  lastSemanticVersion: String!
  versionStamp: String!
  changeType: ChangeOperationType!
  lastSchemaFieldChange: String
}
type SchemaFieldBlame { fieldPath: String! schemaFieldChange: SchemaFieldChange! }
type GetSchemaBlameResult { version: SemanticVersionStruct schemaFieldBlameList: [SchemaFieldBlame!] }
extend type Query {
  getSchemaBlame(input: GetSchemaBlameInput!): GetSchemaBlameResult
  getSchemaVersionList(input: GetSchemaVersionListInput!): GetSchemaVersionListResult
}
`;

const OPERATION_WORDS: Readonly<Record<string, string>> = {
  ADD: 'Added',
  MODIFY: 'Modified',
  REMOVE: 'Removed',
};

/** `1.2.0-computed` → `1.2.0`, as the schema history shows versions. */
const truncate = (semVer: string) =>
  semVer.endsWith('-computed') ? semVer.slice(0, -'-computed'.length) : semVer;

/** A version's numeric parts, for ordering (`1.10.0` after `1.9.0`); undefined when it has none. */
function versionParts(version: string): number[] | undefined {
  const parts = truncate(version).split('.').map(Number);
  return parts.every((n) => Number.isInteger(n) && n >= 0) ? parts : undefined;
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

const struct = (t: ChangeTransaction) => ({
  semanticVersion: truncate(t.semVer),
  semanticVersionTimestamp: t.timestamp,
  versionStamp: t.versionStamp,
});

/** The transactions newest version first, those above `cutoff` (when given) left out. */
function newestFirst(
  transactions: readonly ChangeTransaction[],
  cutoff?: readonly number[],
): ChangeTransaction[] {
  return transactions
    .map((t) => ({ t, parts: versionParts(t.semVer) }))
    .filter((v): v is { t: ChangeTransaction; parts: number[] } => v.parts !== undefined)
    .filter((v) => cutoff === undefined || compareVersions(v.parts, cutoff) <= 0)
    .sort((a, b) => compareVersions(b.parts, a.parts))
    .map((v) => v.t);
}

/** The field path a schema field urn names: its last tuple part (field paths are stored encoded). */
function fieldPathOf(schemaFieldUrn: string): string | undefined {
  if (!schemaFieldUrn.startsWith('urn:li:schemaField:(') || !schemaFieldUrn.endsWith(')')) return undefined;
  const comma = schemaFieldUrn.lastIndexOf(',');
  return comma < 0 ? undefined : schemaFieldUrn.slice(comma + 1, -1);
}

function fieldBlame(event: ChangeEvent, transaction: ChangeTransaction, fieldPath: string) {
  const version = truncate(transaction.semVer);
  return {
    fieldPath,
    schemaFieldChange: {
      timestampMillis: transaction.timestamp,
      lastSemanticVersion: version,
      versionStamp: transaction.versionStamp,
      changeType: event.operation,
      lastSchemaFieldChange: `${OPERATION_WORDS[event.operation] ?? 'Unknown change made'} in v${version}`,
    },
  };
}

async function schemaTimeline(ctx: GraphQLContext, datasetUrn: string, purpose: string) {
  const answer = await ctx.services.app.timeline.timeline(
    ctx.auth,
    { urn: datasetUrn, categories: ['TECHNICAL_SCHEMA'], startTime: 0, purpose },
    true,
  );
  return answer.transactions;
}

export function schemaHistoryResolvers(): Record<string, Record<string, unknown>> {
  return {
    Query: {
      getSchemaVersionList: async (
        _root: unknown,
        args: { input: { datasetUrn: string } },
        ctx: GraphQLContext,
      ) => {
        const transactions = await schemaTimeline(ctx, args.input.datasetUrn, 'schema version list');
        const latest = transactions[transactions.length - 1];
        if (latest === undefined) return null;
        return {
          latestVersion: struct(latest),
          // No version is selected in a list: the latest is the one shown.
          version: struct(latest),
          semanticVersionList: newestFirst(transactions).map(struct),
        };
      },
      getSchemaBlame: async (
        _root: unknown,
        args: { input: { datasetUrn: string; version?: string | null } },
        ctx: GraphQLContext,
      ) => {
        const transactions = await schemaTimeline(ctx, args.input.datasetUrn, 'schema blame');
        const latest = transactions[transactions.length - 1];
        if (latest === undefined) return { version: null, schemaFieldBlameList: null };
        const cutoff = versionParts(args.input.version ?? latest.semVer);
        if (cutoff === undefined) return { version: null, schemaFieldBlameList: null };
        const selected = newestFirst(transactions, cutoff);
        const newest = selected[0];
        if (newest === undefined) return { version: null, schemaFieldBlameList: null };
        const blame = new Map<string, ReturnType<typeof fieldBlame>>();
        for (const transaction of selected)
          for (const event of transaction.changeEvents) {
            if (
              event.category !== 'TECHNICAL_SCHEMA' ||
              event.modifier === undefined ||
              blame.has(event.modifier)
            )
              continue;
            const fieldPath = fieldPathOf(event.modifier);
            if (fieldPath !== undefined) blame.set(event.modifier, fieldBlame(event, transaction, fieldPath));
          }
        return {
          version: struct(newest),
          schemaFieldBlameList: [...blame.values()].filter(
            (b) => b.schemaFieldChange.changeType !== 'REMOVE',
          ),
        };
      },
    },
  };
}
