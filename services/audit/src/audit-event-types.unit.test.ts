import { changeTypes } from '@catalog/events';
import { describe, expect, it } from 'vitest';
import {
  AUDIT_EVENT_TYPES,
  auditEventTypeOfChange,
  isAuditEventType,
  LOGIN_EVENT_TYPES,
} from './audit-event-types.js';

const WRITES = ['UPSERT', 'CREATE', 'CREATE_ENTITY', 'PATCH', 'UPDATE'] as const;

describe('auditEventTypeOfChange: the ecosystem table (facts 4.1)', () => {
  const writeRows: [string, string][] = [
    ['dataHubAccessTokenKey', 'CreateAccessTokenEvent'],
    ['dataHubIngestionSourceKey', 'CreateIngestionSourceEvent'],
    ['dataHubIngestionSourceInfo', 'UpdateIngestionSourceEvent'],
    ['dataHubPolicyKey', 'CreatePolicyEvent'],
    ['dataHubPolicyInfo', 'UpdatePolicyEvent'],
    ['corpUserKey', 'CreateUserEvent'],
    ['corpUserCredentials', 'UpdateUserEvent'],
    ['corpUserEditableInfo', 'UpdateUserEvent'],
    ['corpUserInfo', 'UpdateUserEvent'],
    ['corpUserSettings', 'UpdateUserEvent'],
    ['corpUserStatus', 'UpdateUserEvent'],
    ['groupMembership', 'UpdateUserEvent'],
    ['roleMembership', 'UpdateUserEvent'],
    ['nativeGroupMembership', 'UpdateUserEvent'],
    ['datasetProperties', 'UpdateAspectEvent'],
    ['dataHubAccessTokenInfo', 'UpdateAspectEvent'],
    ['status', 'UpdateAspectEvent'],
    ['toString', 'UpdateAspectEvent'],
  ];
  for (const changeType of WRITES) {
    it.each(writeRows)(`${changeType} of %s is %s`, (aspect, expected) => {
      expect(auditEventTypeOfChange(changeType, aspect)).toBe(expected);
    });
  }

  it('a write without an aspect name is UpdateAspectEvent', () => {
    expect(auditEventTypeOfChange('UPSERT', undefined)).toBe('UpdateAspectEvent');
  });

  it.each([
    ['dataHubAccessTokenKey', 'RevokeAccessTokenEvent'],
    ['dataHubPolicyKey', 'DeletePolicyEvent'],
    ['dataHubPolicyInfo', 'DeleteEntityEvent'],
    ['corpUserKey', 'DeleteEntityEvent'],
    ['datasetKey', 'DeleteEntityEvent'],
    ['status', 'DeleteEntityEvent'],
  ])('DELETE of %s is %s', (aspect, expected) => {
    expect(auditEventTypeOfChange('DELETE', aspect)).toBe(expected);
  });

  it('DELETE without an aspect name is DeleteEntityEvent', () => {
    expect(auditEventTypeOfChange('DELETE', undefined)).toBe('DeleteEntityEvent');
  });

  it.each(['dataHubAccessTokenKey', 'corpUserKey', 'dataHubPolicyInfo', 'datasetProperties'])(
    'RESTATE of %s is EntityEvent',
    (aspect) => {
      expect(auditEventTypeOfChange('RESTATE', aspect)).toBe('EntityEvent');
    },
  );

  it('an unknown change type is EntityEvent', () => {
    expect(auditEventTypeOfChange('SOMETHING_NEW', 'corpUserKey')).toBe('EntityEvent');
  });

  it('every change type of the schema maps to a known event type', () => {
    for (const changeType of changeTypes)
      expect(isAuditEventType(auditEventTypeOfChange(changeType, 'corpUserInfo'))).toBe(true);
  });
});

describe('AUDIT_EVENT_TYPES', () => {
  it('lists the 14 event types of spec section 6, logins included', () => {
    expect([...AUDIT_EVENT_TYPES].sort()).toEqual(
      [
        'EntityEvent',
        'CreateUserEvent',
        'UpdateUserEvent',
        'CreateAccessTokenEvent',
        'RevokeAccessTokenEvent',
        'CreatePolicyEvent',
        'UpdatePolicyEvent',
        'DeletePolicyEvent',
        'CreateIngestionSourceEvent',
        'UpdateIngestionSourceEvent',
        'DeleteEntityEvent',
        'UpdateAspectEvent',
        'LogInEvent',
        'FailedLogInEvent',
      ].sort(),
    );
    expect(LOGIN_EVENT_TYPES).toEqual(['LogInEvent', 'FailedLogInEvent']);
  });

  it('isAuditEventType is exact (case-sensitive)', () => {
    expect(isAuditEventType('LogInEvent')).toBe(true);
    expect(isAuditEventType('loginevent')).toBe(false);
    expect(isAuditEventType('')).toBe(false);
  });
});
