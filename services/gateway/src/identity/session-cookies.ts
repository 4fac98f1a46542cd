import type { CookieOptions } from 'express';

/** Play's session cookie name; the authentication middleware reads the session token from it. */
export const SESSION_COOKIE = 'PLAY_SESSION';
/** The frontend's plain cookie naming the logged-in user; the UI reads it, so it is not HttpOnly. */
export const ACTOR_COOKIE = 'actor';

/** RFC 6265 cookie-octets: what a cookie value may hold without encoding. */
const COOKIE_OCTETS = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;

/**
 * Values go out as they are when they can (a JWT always can; so can a urn like
 * `urn:li:corpuser:jane@example.com`), as the frontend sends them; anything else is percent-encoded.
 * The middleware reads PLAY_SESSION without decoding, so the token must not be encoded.
 */
export function encodeCookieValue(value: string): string {
  return COOKIE_OCTETS.test(value) ? value : encodeURIComponent(value);
}

export interface SessionCookie {
  readonly name: string;
  readonly value: string;
  readonly options: CookieOptions;
}

/**
 * SameSite=Strict: a browser sends the cookies only with requests a page of this site makes, never
 * with a navigation or a request started by another site (Lax would still send them with a top-level
 * GET from elsewhere, e.g. a link to `/logOut`). Nothing here needs them on an arriving navigation:
 * the login is a same-origin POST, and the pages served (GraphiQL, Swagger UI) load without
 * credentials and then call the API from this origin, which sends them. The ecosystem's frontend
 * defaults to Lax (AUTH_COOKIE_SAME_SITE) because its SSO callback arrives from the identity
 * provider's site; this catalog has no such callback.
 */
const SAME_SITE = 'strict';

/**
 * The cookies a login sets: the raw session JWT (HttpOnly, so page scripts cannot read it) and the
 * actor urn. Secure only when the request came over HTTPS (`req.secure`, which believes
 * X-Forwarded-Proto only from TRUSTED_PROXIES), so plain-HTTP local setups keep working.
 */
export function sessionCookies(
  token: string,
  actorUrn: string,
  options: { readonly maxAgeMs: number; readonly secure: boolean },
): readonly SessionCookie[] {
  const common: CookieOptions = {
    path: '/',
    sameSite: SAME_SITE,
    secure: options.secure,
    maxAge: options.maxAgeMs,
    encode: encodeCookieValue,
  };
  return [
    { name: SESSION_COOKIE, value: token, options: { ...common, httpOnly: true } },
    { name: ACTOR_COOKIE, value: actorUrn, options: { ...common, httpOnly: false } },
  ];
}

/** What a logout sends to drop both cookies (same path and flags, so browsers match them). */
export function clearedSessionCookies(secure: boolean): readonly Omit<SessionCookie, 'value'>[] {
  const common: CookieOptions = { path: '/', sameSite: SAME_SITE, secure };
  return [
    { name: SESSION_COOKIE, options: { ...common, httpOnly: true } },
    { name: ACTOR_COOKIE, options: { ...common, httpOnly: false } },
  ];
}
