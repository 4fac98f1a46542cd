import { SYSTEM_CLIENT_AUTHORIZATION } from './load.js';

/**
 * How a bench authenticates (`--auth`): `system` the system client (Basic, no policy evaluation),
 * `token` a personal access token of the root user (JWT verification and the policy engine on every
 * request), `off` a catalog started with METADATA_SERVICE_AUTH_ENABLED=false and no credentials.
 */
export type BenchAuth = 'system' | 'token' | 'off';

export function benchAuthOf(value: string): BenchAuth {
  if (value === 'system' || value === 'token' || value === 'off') return value;
  throw new Error(`--auth is system, token or off, got ${value}`);
}

/** The catalog's environment for the mode. */
export function benchAuthEnv(auth: BenchAuth): Record<string, string> {
  return auth === 'off' ? { METADATA_SERVICE_AUTH_ENABLED: 'false' } : {};
}

/** The Authorization header of the mode's requests (null: none). */
export async function benchAuthorization(auth: BenchAuth, baseUrl: string): Promise<string | null> {
  if (auth === 'off') return null;
  if (auth === 'system') return SYSTEM_CLIENT_AUTHORIZATION;
  const login = await fetch(`${baseUrl}/logIn`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'datahub', password: process.env['ROOT_USER_PASSWORD'] ?? 'datahub' }),
  });
  const session = ((await login.json()) as { accessToken?: string }).accessToken;
  if (session === undefined) throw new Error(`logIn: HTTP ${login.status}`);
  const res = await fetch(`${baseUrl}/api/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${session}` },
    body: JSON.stringify({
      query:
        'mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:datahub", duration: ONE_DAY, name: "bench"}) { accessToken } }',
    }),
  });
  const token = ((await res.json()) as { data?: { createAccessToken?: { accessToken?: string } } }).data
    ?.createAccessToken?.accessToken;
  if (token === undefined) throw new Error(`createAccessToken: HTTP ${res.status}`);
  return `Bearer ${token}`;
}
