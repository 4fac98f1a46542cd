import { describe, expect, it } from 'vitest';
import {
  ACTOR_COOKIE,
  clearedSessionCookies,
  encodeCookieValue,
  SESSION_COOKIE,
  sessionCookies,
} from './session-cookies.js';
import { localPath } from './login-routes.js';

describe('sessionCookies', () => {
  const [session, actor] = sessionCookies('header.payload.signature', 'urn:li:corpuser:jane', {
    maxAgeMs: 86_400_000,
    secure: false,
  });

  it('holds the raw token in PLAY_SESSION, HttpOnly and SameSite=Strict', () => {
    expect(session).toEqual({
      name: SESSION_COOKIE,
      value: 'header.payload.signature',
      options: {
        path: '/',
        sameSite: 'strict',
        secure: false,
        maxAge: 86_400_000,
        httpOnly: true,
        encode: encodeCookieValue,
      },
    });
    expect(SESSION_COOKIE).toBe('PLAY_SESSION');
  });

  it('names the actor in a cookie the UI can read', () => {
    expect(actor).toEqual({
      name: ACTOR_COOKIE,
      value: 'urn:li:corpuser:jane',
      options: {
        path: '/',
        sameSite: 'strict',
        secure: false,
        maxAge: 86_400_000,
        httpOnly: false,
        encode: encodeCookieValue,
      },
    });
  });

  it('is Secure over HTTPS', () => {
    for (const cookie of sessionCookies('t', 'a', { maxAgeMs: 1000, secure: true })) {
      expect(cookie.options.secure).toBe(true);
    }
  });

  it('clears both with the same path and flags', () => {
    expect(clearedSessionCookies(false).map((c) => [c.name, c.options])).toEqual([
      [SESSION_COOKIE, { path: '/', sameSite: 'strict', secure: false, httpOnly: true }],
      [ACTOR_COOKIE, { path: '/', sameSite: 'strict', secure: false, httpOnly: false }],
    ]);
  });
});

describe('encodeCookieValue', () => {
  it('sends tokens and plain urns as they are, anything else percent-encoded', () => {
    expect(encodeCookieValue('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJqYW5lIn0.c2ln-_')).toBe(
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJqYW5lIn0.c2ln-_',
    );
    expect(encodeCookieValue('urn:li:corpuser:jane@example.com')).toBe('urn:li:corpuser:jane@example.com');
    expect(encodeCookieValue('urn:li:corpuser:a b;c')).toBe('urn%3Ali%3Acorpuser%3Aa%20b%3Bc');
  });
});

describe('localPath', () => {
  it('keeps a path on this site and refuses anything else', () => {
    expect(localPath('/search?q=x')).toBe('/search?q=x');
    for (const uri of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '',
    ]) {
      expect(localPath(uri)).toBe('/');
    }
  });
});
