import type { ChangeCategory, ChangeEvent, ChangeTransaction } from '../../application/entity-timeline.js';
import type { GraphQLContext } from '../context.js';

/** The ecosystem's DEFAULT_MAX_CHANGE_TRANSACTIONS: GraphQL answers the newest this many. */
const MAX_CHANGE_TRANSACTIONS = 100;

/** The categories GraphQL has names for (ChangeCategoryType); events of others are left out. */
const GRAPHQL_CATEGORIES: ReadonlySet<string> = new Set([
  'DOCUMENTATION',
  'GLOSSARY_TERM',
  'OWNERSHIP',
  'TECHNICAL_SCHEMA',
  'TAG',
  'PARENT',
  'RELATED_ENTITIES',
  'DOMAIN',
  'STRUCTURED_PROPERTY',
  'APPLICATION',
  'ASSET_MEMBERSHIP',
  'VERSIONING',
]);
const GRAPHQL_OPERATIONS: ReadonlySet<string> = new Set(['ADD', 'MODIFY', 'REMOVE']);

/** getTimeline and its types, as the ecosystem's timeline.graphql declares them. */
export const timelineSchema = `
enum ChangeOperationType { ADD MODIFY REMOVE }
enum ChangeCategoryType {
  DOCUMENTATION GLOSSARY_TERM OWNERSHIP TECHNICAL_SCHEMA TAG PARENT RELATED_ENTITIES DOMAIN
  STRUCTURED_PROPERTY APPLICATION ASSET_MEMBERSHIP VERSIONING
}
input GetTimelineInput { urn: String! changeCategories: [ChangeCategoryType!] includeVersionSet: Boolean }
type GetTimelineResult { changeTransactions: [ChangeTransaction!]! skippedVersionCount: Int }
type ChangeTransaction {
  timestampMillis: Long!
  lastSemanticVersion: String!
  versionStamp: String!
  changeType: ChangeOperationType!
  actor: String
  changes: [ChangeEvent!]
}
type ChangeEvent {
  urn: String!
  category: ChangeCategoryType
  operation: ChangeOperationType
  modifier: String
  parameters: [TimelineParameterEntry!]
  auditStamp: AuditStamp
  description: String
}
type TimelineParameterEntry { key: String value: String }
extend type Query { getTimeline(input: GetTimelineInput!): GetTimelineResult }
`;

interface GetTimelineInput {
  readonly urn: string;
  readonly changeCategories?: readonly ChangeCategory[] | null;
  readonly includeVersionSet?: boolean | null;
}

export function timelineResolvers(): Record<string, Record<string, unknown>> {
  return {
    Query: {
      getTimeline: async (_root: unknown, args: { input: GetTimelineInput }, ctx: GraphQLContext) => {
        const { input } = args;
        const answer = await ctx.services.app.timeline.timeline(
          ctx.auth,
          {
            urn: input.urn,
            categories: input.changeCategories ?? [],
            startTime: 0,
            includeVersionSet: input.includeVersionSet === true,
            maxTransactions: MAX_CHANGE_TRANSACTIONS,
          },
          true,
        );
        return {
          changeTransactions: answer.transactions.map(changeTransaction).filter((t) => t.changes.length > 0),
          skippedVersionCount: answer.skippedVersionCount,
        };
      },
    },
  };
}

function changeTransaction(transaction: ChangeTransaction) {
  const changes = transaction.changeEvents
    .filter((e) => GRAPHQL_CATEGORIES.has(e.category) && GRAPHQL_OPERATIONS.has(e.operation))
    .map(changeEvent);
  return {
    timestampMillis: transaction.timestamp,
    lastSemanticVersion: transaction.semVer,
    versionStamp: transaction.versionStamp,
    changeType: transactionChangeType(changes),
    actor: transaction.actor,
    changes,
  };
}

/** ADD or REMOVE when every change of the transaction is one; MODIFY otherwise. */
function transactionChangeType(changes: readonly { readonly operation: string }[]): string {
  const operations = new Set(changes.map((c) => c.operation));
  return operations.size === 1 ? (changes[0]?.operation ?? 'MODIFY') : 'MODIFY';
}

function changeEvent(event: ChangeEvent) {
  return {
    urn: event.entityUrn,
    category: event.category,
    operation: event.operation,
    modifier: event.modifier ?? null,
    parameters:
      event.parameters === undefined
        ? null
        : Object.entries(event.parameters).map(([key, value]) => ({ key, value: parameterText(value) })),
    auditStamp: event.auditStamp ?? null,
    description: event.description,
  };
}

function parameterText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string'
    ? value
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
}
