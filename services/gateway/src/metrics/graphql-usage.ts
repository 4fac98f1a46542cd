import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { UsageOperation } from './usage-operation.js';

/**
 * GraphQL operations and root fields the ecosystem's taxonomy names (`graphql.names` of its
 * usage_operations.yaml); the rest fall to its heuristics: search/scroll/browse roots are searches,
 * lineage roots lineage queries, other queries metadata queries and other mutations metadata writes.
 */
const NAMED: Readonly<Record<string, UsageOperation>> = {
  deleteEntity: 'entity_delete',
  deleteAspect: 'aspect_delete',
  ...names('search_query', [
    'search',
    'scroll',
    'autocomplete',
    'autoComplete',
    'getAutoCompleteResults',
    'getAutoCompleteMultipleResults',
    'browse',
    'browsePaths',
    'browseV2',
    'getQuickFilters',
    'listUsersAndGroups',
    'listDataProductAssets',
    'listApplicationAssets',
    'searchUsers',
    'searchDocuments',
  ]),
  ...names('lineage_query', ['getLineage', 'scrollAcrossLineage']),
  ...names('metadata_query', [
    'me',
    'getTimeline',
    'getSchemaBlame',
    'getSchemaVersionList',
    'getAnalyticsCharts',
    'getMetadataAnalyticsCharts',
    'getHighlights',
    'isAnalyticsEnabled',
  ]),
  ...names('other_read', [
    'searchConfiguration',
    'toolAudit',
    'getGrantedPrivileges',
    'listPolicies',
    'appConfig',
    'listAccessTokens',
    'getAccessToken',
    'getAccessTokenMetadata',
    'listServiceAccounts',
    'getServiceAccount',
    'debugAccess',
  ]),
  ...names('other_write', ['getInviteToken', 'batchDismissUserSuggestions', 'dismissUserSuggestion']),
  ...names('other_operations', [
    'runTestDefinition',
    'runTests',
    'validateTest',
    'createAccessToken',
    'revokeAccessToken',
  ]),
};

const OTHER_WRITE_PATTERNS = [
  /^update\w+Settings$/,
  /^(create|update|delete)View$/,
  /^(upsert|delete)(PageModule|PageTemplate|AiPlugin)$/,
  /^(create|update|delete)Post(V2)?$/,
  /^(create|delete)ServiceAccount$/,
  /^updateServiceAccountDefaultView$/,
  /^(create|remove)Group$/,
  /^(add|remove)GroupMembers$/,
  /^removeUser$/,
  /^updateUserStatus$/,
  /^(reset|update)LinkedIdentities$/,
  /^revokeUserInvitation$/,
  /^updateHelpLink$/,
  /^updateOrganizationDisplayPreferences$/,
  /^(clear|update)AiMemory(Content)?$/,
  /^deleteMcpServer$/,
];

function named(name: string): UsageOperation | undefined {
  return Object.hasOwn(NAMED, name) ? NAMED[name] : undefined;
}

function names(operation: UsageOperation, list: readonly string[]): Record<string, UsageOperation> {
  return Object.fromEntries(list.map((name) => [name, operation]));
}

interface ParsedOperation {
  readonly type: 'query' | 'mutation' | 'subscription';
  readonly rootField?: string;
}

/** Parsed documents by query text: clients send the same few queries over and over. */
const parsed = new LRUCache<string, readonly OperationDefinitionNode[]>({ max: 500 });

function operationsOf(query: string): readonly OperationDefinitionNode[] {
  let operations = parsed.get(query);
  if (operations === undefined) {
    try {
      operations = parse(query).definitions.filter(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
      );
    } catch {
      operations = [];
    }
    parsed.set(query, operations);
  }
  return operations;
}

function selectedOperation(query: string, operationName: string | undefined): ParsedOperation | undefined {
  const operations = operationsOf(query);
  const chosen =
    operationName === undefined
      ? operations[0]
      : (operations.find((o) => o.name?.value === operationName) ?? operations[0]);
  if (chosen === undefined) return undefined;
  const root = chosen.selectionSet.selections.find(
    (s) => s.kind === Kind.FIELD && s.name.value !== '__typename',
  );
  return {
    type: chosen.operation,
    ...(root !== undefined && root.kind === Kind.FIELD ? { rootField: root.name.value } : {}),
  };
}

/** The usage operation of a GraphQL request body (`{query, operationName}`). */
export function graphqlUsageOperation(body: unknown): UsageOperation {
  const query =
    typeof (body as { query?: unknown } | null)?.query === 'string' ? (body as { query: string }).query : '';
  const rawName = (body as { operationName?: unknown } | null)?.operationName;
  const operationName = typeof rawName === 'string' && rawName !== '' ? rawName : undefined;
  const operation = selectedOperation(query, operationName);
  const byName = operationName === undefined ? undefined : named(operationName);
  if (byName !== undefined) return byName;
  const root = operation?.rootField;
  if (root !== undefined) {
    const byRoot = named(root);
    if (byRoot !== undefined) return byRoot;
    if (operation?.type === 'mutation') {
      if (OTHER_WRITE_PATTERNS.some((p) => p.test(root))) return 'other_write';
      return 'metadata_write';
    }
    if (/^(search|scroll|browse)/.test(root)) return 'search_query';
    if (/Lineage/.test(root)) return 'lineage_query';
  }
  return operation?.type === 'mutation' ? 'metadata_write' : 'metadata_query';
}
