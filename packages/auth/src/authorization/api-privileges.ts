/**
 * Which privileges gate each CRUD-like operation of the low-level APIs. Every list is an any-of: holding
 * one privilege of it on the resource is enough.
 */

export type ApiOperation = 'READ' | 'CREATE' | 'UPDATE' | 'DELETE' | 'EXISTS' | 'MANAGE';

type SimpleOperation = Exclude<ApiOperation, 'MANAGE'>;
type OperationPrivileges = Readonly<Record<SimpleOperation, readonly string[]>>;

/** ENTITY READ: also what the built-in "View Self" policy grants every actor on its own urn. */
export const ENTITY_READ_PRIVILEGES: readonly string[] = [
  'VIEW_ENTITY_PAGE',
  'GET_ENTITY_PRIVILEGE',
  'EDIT_ENTITY',
  'DELETE_ENTITY',
];

const ENTITY_EXISTS_PRIVILEGES: readonly string[] = [
  'EXISTS_ENTITY',
  'EDIT_ENTITY',
  'DELETE_ENTITY',
  'VIEW_ENTITY_PAGE',
  'SEARCH_PRIVILEGE',
];

const ENTITY_OPERATIONS: OperationPrivileges = {
  READ: ENTITY_READ_PRIVILEGES,
  CREATE: ['CREATE_ENTITY', 'EDIT_ENTITY'],
  UPDATE: ['EDIT_ENTITY'],
  DELETE: ['DELETE_ENTITY'],
  EXISTS: ENTITY_EXISTS_PRIVILEGES,
};

/** Users and groups are created and changed through identity management, not generic entity edits. */
function identityOperations(create: string, update: string): OperationPrivileges {
  return {
    READ: ENTITY_READ_PRIVILEGES,
    CREATE: ['CREATE_USERS_AND_GROUPS', 'MANAGE_USERS_AND_GROUPS', create, update],
    UPDATE: ['UPDATE_USERS_AND_GROUPS', 'MANAGE_USERS_AND_GROUPS', update],
    DELETE: ['MANAGE_USERS_AND_GROUPS', update],
    EXISTS: ENTITY_EXISTS_PRIVILEGES,
  };
}

/**
 * Entity types whose writes need a platform privilege instead of (or beside) the generic ones: without
 * these, anyone holding EDIT_ENTITY everywhere could rewrite policies, users, secrets or tokens.
 */
const ENTITY_TYPE_OPERATIONS: ReadonlyMap<string, OperationPrivileges> = new Map(
  Object.entries({
    dataHubPolicy: {
      READ: ENTITY_READ_PRIVILEGES,
      CREATE: ['MANAGE_POLICIES'],
      UPDATE: ['MANAGE_POLICIES'],
      DELETE: ['MANAGE_POLICIES'],
      EXISTS: ENTITY_EXISTS_PRIVILEGES,
    },
    corpuser: identityOperations('CREATE_USERS', 'UPDATE_USERS'),
    corpGroup: identityOperations('CREATE_GROUPS', 'UPDATE_GROUPS'),
    dataHubIngestionSource: {
      READ: ENTITY_READ_PRIVILEGES,
      CREATE: ['MANAGE_INGESTION'],
      UPDATE: ['EDIT_ENTITY', 'MANAGE_INGESTION'],
      DELETE: ['DELETE_ENTITY', 'MANAGE_INGESTION'],
      EXISTS: ENTITY_EXISTS_PRIVILEGES,
    },
    document: {
      READ: [...ENTITY_READ_PRIVILEGES, 'MANAGE_DOCUMENTS'],
      CREATE: ['CREATE_ENTITY', 'EDIT_ENTITY', 'MANAGE_DOCUMENTS'],
      UPDATE: ['EDIT_ENTITY', 'MANAGE_DOCUMENTS'],
      DELETE: ['DELETE_ENTITY', 'MANAGE_DOCUMENTS'],
      EXISTS: ENTITY_EXISTS_PRIVILEGES,
    },
    // Secrets are readable only by their managers: their values feed ingestion credentials.
    dataHubSecret: {
      READ: ['MANAGE_SECRETS'],
      CREATE: ['MANAGE_SECRETS'],
      UPDATE: ['MANAGE_SECRETS'],
      DELETE: ['MANAGE_SECRETS'],
      EXISTS: ENTITY_EXISTS_PRIVILEGES,
    },
    // An invite is a sign-up credential: only those who may mint one may read it.
    inviteToken: {
      READ: ['MANAGE_USER_CREDENTIALS'],
      CREATE: ['MANAGE_USER_CREDENTIALS'],
      UPDATE: ['MANAGE_USER_CREDENTIALS'],
      DELETE: ['MANAGE_USER_CREDENTIALS'],
      EXISTS: ['MANAGE_USER_CREDENTIALS'],
    },
    // Connections hold (encrypted) credentials of external systems.
    dataHubConnection: {
      READ: ['MANAGE_CONNECTIONS'],
      CREATE: ['MANAGE_CONNECTIONS'],
      UPDATE: ['MANAGE_CONNECTIONS'],
      DELETE: ['MANAGE_CONNECTIONS'],
      EXISTS: ['MANAGE_CONNECTIONS'],
    },
    // Webhook subscriptions name destinations and hold (encrypted) signing keys: their managers' only.
    webhook: {
      READ: ['MANAGE_GLOBAL_SETTINGS'],
      CREATE: ['MANAGE_GLOBAL_SETTINGS'],
      UPDATE: ['MANAGE_GLOBAL_SETTINGS'],
      DELETE: ['MANAGE_GLOBAL_SETTINGS'],
      EXISTS: ['MANAGE_GLOBAL_SETTINGS'],
    },
    globalSettings: {
      READ: [...ENTITY_READ_PRIVILEGES, 'MANAGE_GLOBAL_SETTINGS'],
      CREATE: ['MANAGE_GLOBAL_SETTINGS'],
      UPDATE: ['MANAGE_GLOBAL_SETTINGS'],
      DELETE: ['MANAGE_GLOBAL_SETTINGS'],
      EXISTS: [...ENTITY_EXISTS_PRIVILEGES, 'MANAGE_GLOBAL_SETTINGS'],
    },
    // Token metadata (names, owners, expiry) is for token managers; a user lists its own tokens through
    // listAccessTokens, which asks GENERATE_PERSONAL_ACCESS_TOKENS and filters by owner.
    dataHubAccessToken: {
      READ: ['MANAGE_ACCESS_TOKENS'],
      CREATE: ['MANAGE_ACCESS_TOKENS', 'CREATE_ENTITY', 'EDIT_ENTITY'],
      UPDATE: ['MANAGE_ACCESS_TOKENS', 'EDIT_ENTITY'],
      DELETE: ['MANAGE_ACCESS_TOKENS', 'DELETE_ENTITY'],
      EXISTS: ['MANAGE_ACCESS_TOKENS', ...ENTITY_EXISTS_PRIVILEGES],
    },
    structuredProperty: {
      READ: ['VIEW_ENTITY_PAGE', 'MANAGE_STRUCTURED_PROPERTIES'],
      CREATE: ['MANAGE_STRUCTURED_PROPERTIES'],
      UPDATE: ['EDIT_ENTITY', 'MANAGE_STRUCTURED_PROPERTIES'],
      DELETE: ['DELETE_ENTITY', 'MANAGE_STRUCTURED_PROPERTIES'],
      EXISTS: ['MANAGE_STRUCTURED_PROPERTIES', ...ENTITY_EXISTS_PRIVILEGES],
    },
  }),
);

function operationsOf(entityType: string): OperationPrivileges {
  return ENTITY_TYPE_OPERATIONS.get(entityType) ?? ENTITY_OPERATIONS;
}

/**
 * MANAGE needs both the UPDATE and the DELETE privileges of the type: the returned any-of groups must
 * all hold (each on its own may be met by a different privilege).
 */
export function manageRequires(entityType: string): readonly (readonly string[])[] {
  const ops = operationsOf(entityType);
  return [ops.UPDATE, ops.DELETE];
}

/**
 * The privileges, any one of which allows `operation` on an entity of `entityType`. For MANAGE, which
 * is a conjunction, this is the privileges that satisfy it alone (those in both its groups; possibly
 * none); callers that must honour two separate grants check {@link manageRequires} instead.
 */
export function entityOperationPrivileges(operation: ApiOperation, entityType: string): readonly string[] {
  if (operation !== 'MANAGE') return operationsOf(entityType)[operation];
  const [update = [], remove = []] = manageRequires(entityType);
  return update.filter((privilege) => remove.includes(privilege));
}

/**
 * The type-level search gate. The ecosystem once asked for SEARCH_PRIVILEGE and now asks for READ on
 * the searched type; either is accepted so that stored policies of both eras keep working.
 */
export function searchPrivileges(entityType: string): readonly string[] {
  return [...new Set(['SEARCH_PRIVILEGE', ...entityOperationPrivileges('READ', entityType)])];
}

/** The search gate for entity types without their own READ rule (most of them). */
export const SEARCH_PRIVILEGES: readonly string[] = ['SEARCH_PRIVILEGE', ...ENTITY_READ_PRIVILEGES];

export const TIMESERIES_READ_PRIVILEGES: readonly string[] = [
  'GET_TIMESERIES_ASPECT_PRIVILEGE',
  'EDIT_ENTITY',
  'DELETE_ENTITY',
];
export const TIMESERIES_DELETE_PRIVILEGES: readonly string[] = ['DELETE_ENTITY'];
/** Analytics (and audit event search): there is no create, update or delete. */
export const ANALYTICS_READ_PRIVILEGES: readonly string[] = [
  'VIEW_ANALYTICS',
  'GET_ANALYTICS_PRIVILEGE',
  'MANAGE_SYSTEM_OPERATIONS',
];
export const COUNTS_READ_PRIVILEGES: readonly string[] = ['GET_COUNTS_PRIVILEGE'];

export const SYSTEM_OPERATIONS_PRIVILEGES: readonly string[] = ['MANAGE_SYSTEM_OPERATIONS'];

/** An operations endpoint's gate: its own privilege, or the umbrella MANAGE_SYSTEM_OPERATIONS. */
export function systemOperationPrivileges(privilege: string): readonly string[] {
  return privilege === 'MANAGE_SYSTEM_OPERATIONS' ? [privilege] : [privilege, 'MANAGE_SYSTEM_OPERATIONS'];
}

export const RESTORE_INDICES_PRIVILEGES: readonly string[] =
  systemOperationPrivileges('RESTORE_INDICES_PRIVILEGE');

/** Time-series aspects that reveal sensitive facts need a dedicated view privilege on the entity. */
const TIMESERIES_VIEW_PRIVILEGES: ReadonlyMap<string, string> = new Map([
  ['dataset/datasetProfile', 'VIEW_DATASET_PROFILE'],
  ['dataset/datasetUsageStatistics', 'VIEW_DATASET_USAGE'],
  ['dataset/operation', 'VIEW_DATASET_OPERATIONS'],
  ['dashboard/dashboardUsageStatistics', 'VIEW_DATASET_USAGE'],
]);

/** The view privilege a time-series aspect needs beyond reading its entity, if any. */
export function timeseriesViewPrivilege(entityType: string, aspectName: string): string | undefined {
  return TIMESERIES_VIEW_PRIVILEGES.get(`${entityType}/${aspectName}`);
}
