import { describe, expect, it } from 'vitest';
import { passwordLoginVerdict, sessionDenialReason } from './login-eligibility.js';

const key = ['corpUserKey', { username: 'jane' }] as const;
const info = ['corpUserInfo', { active: true }] as const;
const aspects = (...entries: (readonly [string, Record<string, unknown>])[]) => new Map(entries);

describe('sessionDenialReason', () => {
  it('lets a provisioned, active user in', () => {
    expect(sessionDenialReason(aspects(key, info), true)).toBeUndefined();
    expect(sessionDenialReason(aspects(key, ['corpUserStatus', { status: 'ACTIVE' }]), true)).toBeUndefined();
  });

  it('HARD_DELETED without a key aspect, only when existence is enforced', () => {
    expect(sessionDenialReason(aspects(), true)).toBe('HARD_DELETED');
    expect(sessionDenialReason(aspects(info), true)).toBe('HARD_DELETED');
    expect(sessionDenialReason(aspects(info), false)).toBeUndefined();
  });

  it('SOFT_DELETED when status.removed is true', () => {
    expect(sessionDenialReason(aspects(key, info, ['status', { removed: true }]), true)).toBe('SOFT_DELETED');
    expect(sessionDenialReason(aspects(key, info, ['status', { removed: false }]), true)).toBeUndefined();
  });

  it('SUSPENDED from corpUserStatus', () => {
    const suspended = ['corpUserStatus', { status: 'SUSPENDED' }] as const;
    expect(sessionDenialReason(aspects(key, info, suspended), true)).toBe('SUSPENDED');
  });

  it('NOT_PROVISIONED: a key but neither info nor status', () => {
    expect(sessionDenialReason(aspects(key), true)).toBe('NOT_PROVISIONED');
    expect(sessionDenialReason(aspects(key, ['status', { removed: false }]), false)).toBe('NOT_PROVISIONED');
  });

  it('checks in the ecosystem order: hard, soft, suspended, not provisioned', () => {
    const removed = ['status', { removed: true }] as const;
    const suspended = ['corpUserStatus', { status: 'SUSPENDED' }] as const;
    expect(sessionDenialReason(aspects(removed, suspended), true)).toBe('HARD_DELETED');
    expect(sessionDenialReason(aspects(key, removed, suspended), true)).toBe('SOFT_DELETED');
    expect(sessionDenialReason(aspects(key, removed), true)).toBe('SOFT_DELETED');
  });
});

describe('passwordLoginVerdict', () => {
  it('a wrong password is INVALID_CREDENTIALS whatever the state', () => {
    expect(passwordLoginVerdict(false, undefined)).toEqual({
      matches: false,
      denialReason: 'INVALID_CREDENTIALS',
    });
    expect(passwordLoginVerdict(false, 'SUSPENDED')).toEqual({
      matches: false,
      denialReason: 'INVALID_CREDENTIALS',
    });
  });

  it('a right password reports the session denial, if any', () => {
    expect(passwordLoginVerdict(true, undefined)).toEqual({ matches: true });
    expect(passwordLoginVerdict(true, 'SOFT_DELETED')).toEqual({
      matches: true,
      denialReason: 'SOFT_DELETED',
    });
  });
});
