import { describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE_POLICY, LoginThrottle, throttledMessage } from './login-throttle.js';

const ROOT = 'urn:li:corpuser:datahub';
const ATTACKER = '203.0.113.7';
const OFFICE = '198.51.100.2';

function setup(policy = LOGIN_THROTTLE_POLICY) {
  let t = 1_700_000_000_000;
  const clock = {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
  return { throttle: new LoginThrottle(policy, clock.now), clock };
}

describe('LoginThrottle', () => {
  it('lets the free failures through, then blocks the user 1 s, 2 s, 4 s … doubling', () => {
    const { throttle, clock } = setup();
    const attempt = { user: ROOT, address: ATTACKER };
    for (let i = 0; i < 5; i++) {
      expect(throttle.check(attempt)).toEqual({ allowed: true });
      throttle.failed(attempt);
    }
    expect(throttle.check(attempt)).toEqual({ allowed: true });
    throttle.failed(attempt);
    expect(throttle.check(attempt)).toEqual({ allowed: false, retryAfterSeconds: 1, blocked: 'user' });
    clock.advance(1000);
    expect(throttle.check(attempt)).toEqual({ allowed: true });
    throttle.failed(attempt);
    expect(throttle.check(attempt)).toMatchObject({ allowed: false, retryAfterSeconds: 2 });
    clock.advance(2000);
    throttle.failed(attempt);
    expect(throttle.check(attempt)).toMatchObject({ allowed: false, retryAfterSeconds: 4 });
  });

  it('never blocks for more than 15 minutes, however many failures', () => {
    const { throttle, clock } = setup();
    const attempt = { user: ROOT, address: ATTACKER };
    for (let i = 0; i < 60; i++) {
      throttle.failed(attempt);
      const decision = throttle.check(attempt);
      if (!decision.allowed) {
        expect(decision.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
        clock.advance(decision.retryAfterSeconds * 1000);
      }
    }
    throttle.failed(attempt);
    expect(throttle.check(attempt)).toMatchObject({ allowed: false, retryAfterSeconds: 900 });
    clock.advance(900_000);
    expect(throttle.check(attempt)).toEqual({ allowed: true });
  });

  it('a success resets the user counter', () => {
    const { throttle, clock } = setup();
    const attempt = { user: ROOT, address: OFFICE };
    for (let i = 0; i < 6; i++) throttle.failed(attempt);
    clock.advance(1000);
    throttle.succeeded(attempt);
    // Five more free failures, as at the start.
    for (let i = 0; i < 5; i++) throttle.failed({ user: ROOT, address: '192.0.2.1' });
    expect(throttle.check({ user: ROOT, address: '192.0.2.1' })).toEqual({ allowed: true });
  });

  it('an attacker elsewhere cannot lock the root user out at an address it logged in from', () => {
    const { throttle } = setup();
    throttle.succeeded({ user: ROOT, address: OFFICE });
    for (let i = 0; i < 12; i++) throttle.failed({ user: ROOT, address: ATTACKER });
    expect(throttle.check({ user: ROOT, address: ATTACKER })).toMatchObject({
      allowed: false,
      blocked: 'user',
    });
    expect(throttle.check({ user: ROOT, address: OFFICE })).toEqual({ allowed: true });
  });

  it('blocks an address guessing many users, without blocking those users elsewhere', () => {
    const { throttle } = setup();
    for (let i = 0; i < 21; i++) throttle.failed({ user: `urn:li:corpuser:u${i}`, address: ATTACKER });
    expect(throttle.check({ user: 'urn:li:corpuser:new', address: ATTACKER })).toEqual({
      allowed: false,
      retryAfterSeconds: 1,
      blocked: 'address',
    });
    expect(throttle.check({ user: 'urn:li:corpuser:u0', address: OFFICE })).toEqual({ allowed: true });
  });

  it('forgets a counter an hour after its last failure', () => {
    const { throttle, clock } = setup();
    const attempt = { user: ROOT, address: ATTACKER };
    for (let i = 0; i < 5; i++) throttle.failed(attempt);
    clock.advance(60 * 60_000 + 1);
    throttle.failed(attempt);
    expect(throttle.check(attempt)).toEqual({ allowed: true });
  });

  it('limits the system client per user only', () => {
    const { throttle } = setup();
    for (let i = 0; i < 30; i++) throttle.failed({ user: `urn:li:corpuser:u${i}` });
    expect(throttle.check({ user: 'urn:li:corpuser:other' })).toEqual({ allowed: true });
    for (let i = 0; i < 6; i++) throttle.failed({ user: ROOT });
    expect(throttle.check({ user: ROOT })).toMatchObject({ allowed: false, blocked: 'user' });
  });

  it('stays bounded in memory under a spray of names', () => {
    const { throttle } = setup({ ...LOGIN_THROTTLE_POLICY, maxEntries: 100 });
    for (let i = 0; i < 10_000; i++) throttle.failed({ user: `urn:li:corpuser:spray${i}` });
    // The oldest are gone: their counters start again.
    for (let i = 0; i < 5; i++) throttle.failed({ user: 'urn:li:corpuser:spray0' });
    expect(throttle.check({ user: 'urn:li:corpuser:spray0' })).toEqual({ allowed: true });
  });

  it('says when to try again', () => {
    expect(throttledMessage(1)).toBe('Too many failed logins: try again in 1 second.');
    expect(throttledMessage(30)).toBe('Too many failed logins: try again in 30 seconds.');
  });
});
