import { describe, expect, it } from 'vitest';
import { decodeAuditScrollId, encodeAuditScrollId } from './audit-scroll-id.js';
import { loginSourceName, usageEventOf } from './audit-usage-event.js';

describe('the audit scrollId', () => {
  it('round-trips a cursor through the search_after-shaped token', () => {
    const scrollId = encodeAuditScrollId({
      timestamp: 1_649_953_100_653,
      id: 'LogInEvent_urn:li:corpuser:jdoe',
    });
    expect(JSON.parse(Buffer.from(scrollId, 'base64').toString('utf8'))).toEqual({
      sort: [1_649_953_100_653, 'LogInEvent_urn:li:corpuser:jdoe'],
      pitId: null,
      expirationTime: 0,
    });
    expect(decodeAuditScrollId(scrollId)).toEqual({
      timestamp: 1_649_953_100_653,
      id: 'LogInEvent_urn:li:corpuser:jdoe',
    });
    // URL-safe and unpadded forms decode too.
    const urlSafe = Buffer.from(JSON.stringify({ sort: [5, 'a?>'] })).toString('base64url');
    expect(decodeAuditScrollId(urlSafe)).toEqual({ timestamp: 5, id: 'a?>' });
  });

  it.each([
    '',
    '%%%',
    'bm90IGpzb24=',
    Buffer.from('null').toString('base64'),
    Buffer.from('{"sort":[null,"a"]}').toString('base64'),
  ])('refuses %j', (scrollId) => {
    expect(() => decodeAuditScrollId(scrollId)).toThrow('Invalid scrollId');
  });
});

describe('usageEventOf', () => {
  it('maps the stored loginSource to its enum name', () => {
    expect(
      [
        'passwordLogin',
        'passwordReset',
        'fallbackLogin',
        'signUpLinkLogin',
        'guestLogin',
        'ssoLogin',
        'oidcImplicitLogin',
      ].map(loginSourceName),
    ).toEqual([
      'PASSWORD_LOGIN',
      'PASSWORD_RESET',
      'FALLBACK_LOGIN',
      'SIGN_UP_LINK_LOGIN',
      'GUEST_LOGIN',
      'SSO_LOGIN',
      'OIDC_IMPLICIT_LOGIN',
    ]);
    expect(loginSourceName('GUEST_LOGIN')).toBe('GUEST_LOGIN');
    expect(loginSourceName('constructor')).toBeUndefined();
    expect(loginSourceName(undefined)).toBeUndefined();
  });

  it('leaves out null and absent fields', () => {
    const event = {
      id: 'x',
      eventType: 'UpdateAspectEvent',
      timestamp: 1,
      actorUrn: 'urn:li:corpuser:a',
      sourceIP: null,
      entityUrn: 'urn:li:dataset:x',
      rawUsageEvent: {},
    } as never;
    expect(usageEventOf(event, false)).toEqual({
      eventType: 'UpdateAspectEvent',
      timestamp: 1,
      actorUrn: 'urn:li:corpuser:a',
      entityUrn: 'urn:li:dataset:x',
    });
  });
});
