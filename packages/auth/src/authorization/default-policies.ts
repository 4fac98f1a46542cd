import type { PolicyInfo } from '../types.js';

/**
 * The policies a fresh catalog starts with, as the ecosystem bootstraps them: names, urns and privilege
 * lists are what clients, the UI and acceptance tests expect to find (`listPolicies`, `updatePolicy` on
 * urn `7`, …). Non-editable ones are meant to be rewritten at every start, editable ones only written when
 * absent, so an operator's change to them survives.
 */
export interface BootstrapPolicy {
  readonly urn: string;
  /** A `dataHubPolicyInfo` aspect value; `info.editable` says whether operators may change it. */
  readonly info: PolicyInfo;
}

export { DEFAULT_ROLES, type BootstrapRole } from './default-roles.js';

const ROOT_USER = 'urn:li:corpuser:datahub';
const ADMIN_ROLE = 'urn:li:dataHubRole:Admin';
const EDITOR_ROLE = 'urn:li:dataHubRole:Editor';
const READER_ROLE = 'urn:li:dataHubRole:Reader';

const ROOT_ONLY = { resourceOwners: false, allUsers: false, allGroups: false, users: [ROOT_USER] };
const ALL_USERS = { resourceOwners: false, allUsers: true, allGroups: false, users: [] };
const ASSET_OWNERS = { resourceOwners: true, allUsers: false, allGroups: false, users: [], groups: [] };

function holdersOf(role: string): PolicyInfo['actors'] {
  return { resourceOwners: false, allUsers: false, allGroups: false, users: [], groups: [], roles: [role] };
}

const ALL_DOMAINS = { type: 'domain', allResources: true };

/** Everything the root user and Admins hold on the platform. */
const ADMIN_PLATFORM_PRIVILEGES = [
  'CREATE_LOGICAL_MODELS',
  'MANAGE_POLICIES',
  'MANAGE_INGESTION',
  'MANAGE_SECRETS',
  'MANAGE_CONNECTIONS',
  'MANAGE_USERS_AND_GROUPS',
  'VIEW_ANALYTICS',
  'GENERATE_PERSONAL_ACCESS_TOKENS',
  'MANAGE_ACCESS_TOKENS',
  'MANAGE_SERVICE_ACCOUNTS',
  'MANAGE_DOMAINS',
  'MANAGE_GLOBAL_ANNOUNCEMENTS',
  'MANAGE_TESTS',
  'MANAGE_GLOSSARIES',
  'MANAGE_USER_CREDENTIALS',
  'MANAGE_TAGS',
  'MANAGE_GLOBAL_VIEWS',
  'MANAGE_GLOBAL_SETTINGS',
  'RESTORE_INDICES_PRIVILEGE',
  'GET_TIMESERIES_INDEX_SIZES_PRIVILEGE',
  'TRUNCATE_TIMESERIES_INDEX_PRIVILEGE',
  'GET_ES_TASK_STATUS_PRIVILEGE',
  'SET_WRITEABLE_PRIVILEGE',
  'APPLY_RETENTION_PRIVILEGE',
  'MANAGE_GLOBAL_OWNERSHIP_TYPES',
  'GET_ANALYTICS_PRIVILEGE',
  'CREATE_BUSINESS_ATTRIBUTE',
  'MANAGE_BUSINESS_ATTRIBUTE',
  'MANAGE_STRUCTURED_PROPERTIES',
  'VIEW_STRUCTURED_PROPERTIES_PAGE',
  'MANAGE_DOCUMENTATION_FORMS',
  'MANAGE_FEATURES',
  'MANAGE_SYSTEM_OPERATIONS',
  'GET_PLATFORM_EVENTS',
  'MANAGE_HOME_PAGE_TEMPLATES',
  'GET_METADATA_CHANGE_LOG_EVENTS',
  'MANAGE_DOCUMENTS',
  'GET_TOPIC_EVENTS',
];

/** The read side of the low-level APIs that every reading role is given. */
const API_READ_PRIVILEGES = [
  'SEARCH_PRIVILEGE',
  'GET_COUNTS_PRIVILEGE',
  'GET_TIMESERIES_ASPECT_PRIVILEGE',
  'GET_ENTITY_PRIVILEGE',
  'GET_TIMELINE_PRIVILEGE',
];

const DATASET_SENSITIVE_PRIVILEGES = [
  'VIEW_DATASET_USAGE',
  'VIEW_DATASET_PROFILE',
  'VIEW_DATASET_OPERATIONS',
];

/** What admins and asset owners may do to an asset (the ecosystem lists it in both policies). */
const ASSET_EDIT_PRIVILEGES = [
  'VIEW_ENTITY_PAGE',
  'EDIT_ENTITY_TAGS',
  'EDIT_ENTITY_GLOSSARY_TERMS',
  'EDIT_ENTITY_OWNERS',
  'EDIT_ENTITY_DOCS',
  'EDIT_ENTITY_DOC_LINKS',
  'EDIT_ENTITY_STATUS',
  'EDIT_DOMAINS_PRIVILEGE',
  'EDIT_ENTITY_DATA_PRODUCTS',
  'EDIT_DEPRECATION_PRIVILEGE',
  'EDIT_ENTITY_ASSERTIONS',
  'EDIT_ENTITY_INCIDENTS',
  'EDIT_ENTITY',
  'EDIT_DATASET_COL_TAGS',
  'EDIT_DATASET_COL_GLOSSARY_TERMS',
  'EDIT_DATASET_COL_DESCRIPTION',
  'EDIT_DATASET_COL_BUSINESS_ATTRIBUTE_PRIVILEGE',
  ...DATASET_SENSITIVE_PRIVILEGES,
  'EDIT_TAG_COLOR',
  'EDIT_GROUP_MEMBERS',
  'EDIT_USER_PROFILE',
  'EDIT_CONTACT_INFO',
  'EDIT_LINEAGE',
  'EDIT_ENTITY_QUERIES',
] as const;

export const DEFAULT_POLICIES: readonly BootstrapPolicy[] = [
  {
    urn: 'urn:li:dataHubPolicy:0',
    info: {
      displayName: 'Root User - All Platform Privileges',
      description: 'Grants all platform privileges to root user.',
      type: 'PLATFORM',
      state: 'ACTIVE',
      privileges: ADMIN_PLATFORM_PRIVILEGES,
      actors: ROOT_ONLY,
      editable: false,
    },
  },
  {
    urn: 'urn:li:dataHubPolicy:1',
    info: {
      displayName: 'Root User - Edit and View All Resources',
      description: 'Grants all edit and view privileges for all resources to root user.',
      type: 'METADATA',
      state: 'ACTIVE',
      privileges: [
        'EDIT_ENTITY',
        'VIEW_ENTITY_PAGE',
        ...DATASET_SENSITIVE_PRIVILEGES,
        'EDIT_LINEAGE',
        'EDIT_ENTITY_ASSERTIONS',
        ...API_READ_PRIVILEGES,
        'PRODUCE_PLATFORM_EVENT_PRIVILEGE',
        'MANAGE_DATA_PRODUCTS',
        'MANAGE_GLOBAL_OWNERSHIP_TYPES',
        'DELETE_ENTITY',
        'ES_EXPLAIN_QUERY_PRIVILEGE',
        'EXECUTE_ENTITY',
        'MANAGE_ASSET_SUMMARY',
      ],
      actors: ROOT_ONLY,
      editable: false,
    },
  },
  {
    urn: 'urn:li:dataHubPolicy:root-domain-manage-data-products-policy',
    info: {
      displayName: 'Root User - Manage Data Products on All Domains',
      description: 'Grants MANAGE_DATA_PRODUCTS on all domains to the root user for data product operations.',
      type: 'METADATA',
      state: 'ACTIVE',
      resources: ALL_DOMAINS,
      privileges: ['MANAGE_DATA_PRODUCTS'],
      actors: ROOT_ONLY,
      editable: false,
    },
  },
  {
    urn: 'urn:li:dataHubPolicy:admin-domain-manage-data-products-policy',
    info: {
      displayName: 'Admins - Manage Data Products on All Domains',
      description: 'Grants MANAGE_DATA_PRODUCTS on all domains to Admin role holders.',
      type: 'METADATA',
      state: 'ACTIVE',
      resources: ALL_DOMAINS,
      privileges: ['MANAGE_DATA_PRODUCTS'],
      actors: holdersOf(ADMIN_ROLE),
      editable: false,
    },
  },
  {
    urn: 'urn:li:dataHubPolicy:editor-domain-manage-data-products-policy',
    info: {
      displayName: 'Editors - Manage Data Products on All Domains',
      description: 'Grants MANAGE_DATA_PRODUCTS on all domains to Editor role holders.',
      type: 'METADATA',
      state: 'ACTIVE',
      resources: ALL_DOMAINS,
      privileges: ['MANAGE_DATA_PRODUCTS'],
      actors: holdersOf(EDITOR_ROLE),
      editable: false,
    },
  },
  {
    urn: 'urn:li:dataHubPolicy:7',
    info: {
      displayName: 'All Users - Base Platform Privileges',
      description:
        'Grants base platform privileges to ALL users of DataHub. Change this policy to alter that behavior.',
      type: 'PLATFORM',
      state: 'ACTIVE',
      privileges: ['VIEW_ANALYTICS', 'GENERATE_PERSONAL_ACCESS_TOKENS'],
      actors: ALL_USERS,
      editable: true,
    },
  },
  {
    urn: 'urn:li:dataHubPolicy:view-entity-page-all',
    info: {
      displayName: 'All Users - View Entity Page',
      description: 'Grants entity view to all users',
      type: 'METADATA',
      state: 'ACTIVE',
      privileges: ['VIEW_ENTITY_PAGE', ...API_READ_PRIVILEGES, 'ES_EXPLAIN_QUERY_PRIVILEGE'],
      actors: ALL_USERS,
      editable: true,
    },
  },
  {
    urn: 'urn:li:dataHubPolicy:view-dataset-sensitive',
    info: {
      displayName: 'All Users - View Dataset Sensitive Information',
      description: 'Grants viewing privileges of usage and profile information of all datasets for all users',
      type: 'METADATA',
      state: 'ACTIVE',
      privileges: DATASET_SENSITIVE_PRIVILEGES,
      actors: ALL_USERS,
      editable: true,
    },
  },
  {
    urn: 'urn:li:dataHubPolicy:admin-platform-policy',
    info: {
      displayName: 'Admins - Platform Policy',
      description: 'Admins have all platform privileges.',
      type: 'PLATFORM',
      state: 'ACTIVE',
      privileges: ADMIN_PLATFORM_PRIVILEGES,
      actors: holdersOf(ADMIN_ROLE),
      editable: false,
    },
  },
  {
    urn: 'urn:li:dataHubPolicy:admin-metadata-policy',
    info: {
      displayName: 'Admins - Metadata Policy',
      description: 'Admins have all metadata privileges.',
      type: 'METADATA',
      state: 'ACTIVE',
      privileges: [
        ...ASSET_EDIT_PRIVILEGES,
        ...API_READ_PRIVILEGES,
        'PRODUCE_PLATFORM_EVENT_PRIVILEGE',
        'MANAGE_DATA_PRODUCTS',
        'DELETE_ENTITY',
        'ES_EXPLAIN_QUERY_PRIVILEGE',
        'EDIT_ENTITY_PROPERTIES',
        'EXECUTE_ENTITY',
        'MANAGE_ASSET_SUMMARY',
      ],
      actors: holdersOf(ADMIN_ROLE),
      editable: false,
    },
  },
  {
    urn: 'urn:li:dataHubPolicy:editor-platform-policy',
    info: {
      displayName: 'Editors - Platform Policy',
      description: 'Editors can manage ingestion and view analytics.',
      type: 'PLATFORM',
      state: 'ACTIVE',
      privileges: [
        'GENERATE_PERSONAL_ACCESS_TOKENS',
        'MANAGE_DOMAINS',
        'MANAGE_GLOBAL_ANNOUNCEMENTS',
        'MANAGE_GLOSSARIES',
        'MANAGE_TAGS',
        'MANAGE_BUSINESS_ATTRIBUTE',
        'MANAGE_STRUCTURED_PROPERTIES',
        'VIEW_STRUCTURED_PROPERTIES_PAGE',
        'MANAGE_DOCUMENTATION_FORMS',
        'MANAGE_FEATURES',
        'MANAGE_DOCUMENTS',
      ],
      actors: holdersOf(EDITOR_ROLE),
      editable: false,
    },
  },
  {
    urn: 'urn:li:dataHubPolicy:editor-metadata-policy',
    info: {
      displayName: 'Editors - Metadata Policy',
      description: 'Editors have all metadata privileges.',
      type: 'METADATA',
      state: 'ACTIVE',
      // Editors edit descriptive metadata but neither owners nor deletion (nor EDIT_ENTITY outside the
      // entity types of `editor-metadata-policy-entities`).
      privileges: [
        'VIEW_ENTITY_PAGE',
        'EDIT_ENTITY_TAGS',
        'EDIT_ENTITY_GLOSSARY_TERMS',
        'EDIT_ENTITY_DOCS',
        'EDIT_ENTITY_DOC_LINKS',
        'EDIT_ENTITY_STATUS',
        'EDIT_DOMAINS_PRIVILEGE',
        'EDIT_ENTITY_DATA_PRODUCTS',
        'EDIT_DEPRECATION_PRIVILEGE',
        'EDIT_ENTITY_ASSERTIONS',
        'EDIT_ENTITY_INCIDENTS',
        'EDIT_DATASET_COL_TAGS',
        'EDIT_DATASET_COL_GLOSSARY_TERMS',
        'EDIT_DATASET_COL_DESCRIPTION',
        'EDIT_DATASET_COL_BUSINESS_ATTRIBUTE_PRIVILEGE',
        ...DATASET_SENSITIVE_PRIVILEGES,
        'EDIT_TAG_COLOR',
        'EDIT_LINEAGE',
        'EDIT_ENTITY_QUERIES',
        ...API_READ_PRIVILEGES,
        'PRODUCE_PLATFORM_EVENT_PRIVILEGE',
        'MANAGE_DATA_PRODUCTS',
        'ES_EXPLAIN_QUERY_PRIVILEGE',
        'EDIT_ENTITY_PROPERTIES',
        'VIEW_STRUCTURED_PROPERTIES_PAGE',
        'MANAGE_ASSET_SUMMARY',
      ],
      actors: holdersOf(EDITOR_ROLE),
      editable: false,
    },
  },
  {
    urn: 'urn:li:dataHubPolicy:editor-metadata-policy-entities',
    info: {
      displayName: 'Editors - Edit Metadata Entities',
      description: 'Editors can edit primary metadata entities.',
      type: 'METADATA',
      state: 'ACTIVE',
      resources: {
        allResources: false,
        filter: {
          criteria: [
            {
              field: 'RESOURCE_TYPE',
              values: [
                'dataset',
                'chart',
                'dashboard',
                'dataFlow',
                'dataJob',
                'tag',
                'container',
                'domain',
                'glossaryTerm',
                'glossaryNode',
                'notebook',
                'dataProduct',
                'dataProcessInstance',
                'document',
              ],
              condition: 'EQUALS',
            },
          ],
        },
      },
      privileges: ['EDIT_ENTITY'],
      actors: holdersOf(EDITOR_ROLE),
      editable: true,
    },
  },
  {
    urn: 'urn:li:dataHubPolicy:reader-platform-policy',
    info: {
      displayName: 'Readers - Platform Policy',
      description: 'Readers can view analytics.',
      type: 'PLATFORM',
      state: 'ACTIVE',
      privileges: [],
      actors: holdersOf(READER_ROLE),
      editable: false,
    },
  },
  {
    urn: 'urn:li:dataHubPolicy:reader-metadata-policy',
    info: {
      displayName: 'Readers - Metadata Policy',
      description: 'Readers can view all assets.',
      type: 'METADATA',
      state: 'ACTIVE',
      privileges: [
        'VIEW_ENTITY_PAGE',
        ...DATASET_SENSITIVE_PRIVILEGES,
        ...API_READ_PRIVILEGES,
        'ES_EXPLAIN_QUERY_PRIVILEGE',
        'VIEW_STRUCTURED_PROPERTIES_PAGE',
      ],
      actors: holdersOf(READER_ROLE),
      editable: false,
    },
  },
  {
    urn: 'urn:li:dataHubPolicy:asset-owners-metadata-policy',
    info: {
      displayName: 'Asset Owners - Metadata Policy',
      description: 'Asset Owners have all metadata privileges ONLY for assets they own.',
      type: 'METADATA',
      state: 'ACTIVE',
      privileges: [
        ...ASSET_EDIT_PRIVILEGES,
        'GET_TIMELINE_PRIVILEGE',
        'GET_ENTITY_PRIVILEGE',
        'GET_TIMESERIES_ASPECT_PRIVILEGE',
        'GET_COUNTS_PRIVILEGE',
        'MANAGE_DATA_PRODUCTS',
        'ES_EXPLAIN_QUERY_PRIVILEGE',
        'EDIT_ENTITY_PROPERTIES',
        'MANAGE_ASSET_SUMMARY',
      ],
      actors: ASSET_OWNERS,
      editable: true,
    },
  },
];
