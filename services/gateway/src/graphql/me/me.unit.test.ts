import { describe, expect, it } from 'vitest';
import { PLATFORM_PRIVILEGE_FIELDS, platformPrivilegeFlags } from './me.js';

describe('platformPrivilegeFlags', () => {
  it('sets every field for the system client', () => {
    const flags = platformPrivilegeFlags('all');
    expect(Object.keys(flags)).toEqual([...PLATFORM_PRIVILEGE_FIELDS]);
    expect(Object.values(flags).every((v) => v)).toBe(true);
  });

  it('sets the fields that a held privilege grants, and no others', () => {
    const flags = platformPrivilegeFlags(new Set(['MANAGE_DOMAINS', 'GENERATE_PERSONAL_ACCESS_TOKENS']));
    expect(
      Object.entries(flags)
        .filter(([, v]) => v)
        .map(([k]) => k)
        .sort(),
    ).toEqual(['createDomains', 'generatePersonalAccessTokens', 'manageDomains'].sort());
  });

  it('sets nothing for an actor without platform privileges', () => {
    expect(Object.values(platformPrivilegeFlags(new Set())).some((v) => v)).toBe(false);
  });
});
