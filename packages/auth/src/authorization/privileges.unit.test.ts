import { describe, expect, it } from 'vitest';
import {
  ANALYTICS_READ_PRIVILEGES,
  API_PRIVILEGES,
  ENTITY_PRIVILEGES,
  entityOperationPrivileges,
  GRAPHQL_PLATFORM_PRIVILEGES,
  manageRequires,
  PLATFORM_PRIVILEGES,
  RESTORE_INDICES_PRIVILEGES,
  searchPrivileges,
  systemOperationPrivileges,
  timeseriesViewPrivilege,
} from './privileges.js';

describe('entityOperationPrivileges', () => {
  it.each([
    ['READ', 'dataset', ['VIEW_ENTITY_PAGE', 'GET_ENTITY_PRIVILEGE', 'EDIT_ENTITY', 'DELETE_ENTITY']],
    ['CREATE', 'dataset', ['CREATE_ENTITY', 'EDIT_ENTITY']],
    ['UPDATE', 'chart', ['EDIT_ENTITY']],
    ['DELETE', 'chart', ['DELETE_ENTITY']],
    [
      'EXISTS',
      'dataset',
      ['EXISTS_ENTITY', 'EDIT_ENTITY', 'DELETE_ENTITY', 'VIEW_ENTITY_PAGE', 'SEARCH_PRIVILEGE'],
    ],
    ['UPDATE', 'dataHubPolicy', ['MANAGE_POLICIES']],
    [
      'CREATE',
      'corpuser',
      ['CREATE_USERS_AND_GROUPS', 'MANAGE_USERS_AND_GROUPS', 'CREATE_USERS', 'UPDATE_USERS'],
    ],
    ['UPDATE', 'corpGroup', ['UPDATE_USERS_AND_GROUPS', 'MANAGE_USERS_AND_GROUPS', 'UPDATE_GROUPS']],
    ['DELETE', 'corpuser', ['MANAGE_USERS_AND_GROUPS', 'UPDATE_USERS']],
    ['CREATE', 'dataHubIngestionSource', ['MANAGE_INGESTION']],
    ['DELETE', 'dataHubIngestionSource', ['DELETE_ENTITY', 'MANAGE_INGESTION']],
    ['READ', 'dataHubSecret', ['MANAGE_SECRETS']],
    ['DELETE', 'dataHubAccessToken', ['MANAGE_ACCESS_TOKENS', 'DELETE_ENTITY']],
    ['CREATE', 'structuredProperty', ['MANAGE_STRUCTURED_PROPERTIES']],
    ['READ', 'structuredProperty', ['VIEW_ENTITY_PAGE', 'MANAGE_STRUCTURED_PROPERTIES']],
  ] as const)('%s on %s accepts any of the ecosystem privileges', (operation, entityType, expected) => {
    expect(entityOperationPrivileges(operation, entityType)).toEqual(expected);
  });

  it('answers MANAGE with the privileges that meet both of its groups alone', () => {
    expect(entityOperationPrivileges('MANAGE', 'dataHubIngestionSource')).toEqual(['MANAGE_INGESTION']);
    expect(entityOperationPrivileges('MANAGE', 'corpuser')).toEqual([
      'MANAGE_USERS_AND_GROUPS',
      'UPDATE_USERS',
    ]);
    expect(entityOperationPrivileges('MANAGE', 'dataset')).toEqual([]);
  });

  it('does not mistake inherited object keys for entity types', () => {
    expect(entityOperationPrivileges('UPDATE', 'constructor')).toEqual(['EDIT_ENTITY']);
    expect(timeseriesViewPrivilege('constructor', 'name')).toBeUndefined();
  });
});

describe('manageRequires', () => {
  it('needs the UPDATE group and the DELETE group of the type', () => {
    expect(manageRequires('dataset')).toEqual([['EDIT_ENTITY'], ['DELETE_ENTITY']]);
    expect(manageRequires('dataHubIngestionSource')).toEqual([
      ['EDIT_ENTITY', 'MANAGE_INGESTION'],
      ['DELETE_ENTITY', 'MANAGE_INGESTION'],
    ]);
  });
});

describe('operation gates', () => {
  it('accepts MANAGE_SYSTEM_OPERATIONS beside every operations privilege', () => {
    expect(RESTORE_INDICES_PRIVILEGES).toEqual(['RESTORE_INDICES_PRIVILEGE', 'MANAGE_SYSTEM_OPERATIONS']);
    expect(systemOperationPrivileges('SET_WRITEABLE_PRIVILEGE')).toContain('MANAGE_SYSTEM_OPERATIONS');
    expect(ANALYTICS_READ_PRIVILEGES).toContain('MANAGE_SYSTEM_OPERATIONS');
  });

  it('gates search by the old SEARCH_PRIVILEGE or by READ on the searched type', () => {
    expect(searchPrivileges('dataset')).toEqual([
      'SEARCH_PRIVILEGE',
      'VIEW_ENTITY_PAGE',
      'GET_ENTITY_PRIVILEGE',
      'EDIT_ENTITY',
      'DELETE_ENTITY',
    ]);
    expect(searchPrivileges('dataHubSecret')).toEqual(['SEARCH_PRIVILEGE', 'MANAGE_SECRETS']);
  });
});

describe('timeseriesViewPrivilege', () => {
  it.each([
    ['dataset', 'datasetProfile', 'VIEW_DATASET_PROFILE'],
    ['dataset', 'datasetUsageStatistics', 'VIEW_DATASET_USAGE'],
    ['dataset', 'operation', 'VIEW_DATASET_OPERATIONS'],
    ['dashboard', 'dashboardUsageStatistics', 'VIEW_DATASET_USAGE'],
    ['chart', 'chartUsageStatistics', undefined],
    ['dashboard', 'datasetProfile', undefined],
  ] as const)('%s %s needs %s', (entityType, aspect, expected) => {
    expect(timeseriesViewPrivilege(entityType, aspect)).toBe(expected);
  });
});

describe('privilege lists', () => {
  it('keep the three kinds apart', () => {
    const platform = new Set(PLATFORM_PRIVILEGES);
    expect(API_PRIVILEGES.filter((p) => platform.has(p))).toEqual([]);
    expect(ENTITY_PRIVILEGES).toContain('EDIT_DATASET_COL_TAGS');
    expect(ENTITY_PRIVILEGES).toContain('EXECUTE_ENTITY');
    expect(new Set(ENTITY_PRIVILEGES).size).toBe(ENTITY_PRIVILEGES.length);
  });

  it('map every GraphQL platform privilege field to platform privileges', () => {
    expect(Object.keys(GRAPHQL_PLATFORM_PRIVILEGES)).toHaveLength(22);
    const platform = new Set(PLATFORM_PRIVILEGES);
    for (const [field, privileges] of Object.entries(GRAPHQL_PLATFORM_PRIVILEGES)) {
      expect(privileges.length, field).toBeGreaterThan(0);
      expect(
        privileges.filter((p) => !platform.has(p)),
        field,
      ).toEqual([]);
    }
  });
});
