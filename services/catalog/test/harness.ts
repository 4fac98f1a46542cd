import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@catalog/runtime';
import { readCatalogConfig, startCatalog, type RunningCatalog } from '../src/index.js';

export interface TestCatalog extends RunningCatalog {
  readonly baseUrl: string;
  readonly dataDir: string;
  /** Closes the catalog and removes its data directory. */
  dispose(): Promise<void>;
}

/** Starts an embedded catalog on a free port over a fresh data directory. */
export async function startTestCatalog(env: Record<string, string> = {}): Promise<TestCatalog> {
  const dataDir = mkdtempSync(join(tmpdir(), 'catalog-e2e-'));
  const config = readCatalogConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    CATALOG_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...env,
  });
  const logger = createLogger({ name: 'catalog-test', level: config.logLevel });
  const catalog = await startCatalog(config, logger);
  return {
    ...catalog,
    baseUrl: `http://127.0.0.1:${catalog.port}`,
    dataDir,
    dispose: async () => {
      await catalog.close();
      rmSync(dataDir, { recursive: true, force: true });
      await dropIndices(env);
    },
  };
}

export interface JsonResponse {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
}

/** The system client's credentials at their defaults (`Basic <id>:<secret>` in plain text, as the ecosystem sends them). */
export const SYSTEM_CLIENT_AUTHORIZATION = 'Basic __datahub_system:JohnSnowKnowsNothing';
/** What every harness request sends to be authenticated as the system client. */
export const SYSTEM_AUTH_HEADERS = { Authorization: SYSTEM_CLIENT_AUTHORIZATION };

const RESTLI_HEADERS = {
  'Content-Type': 'application/json',
  'X-RestLi-Protocol-Version': '2.0.0',
  ...SYSTEM_AUTH_HEADERS,
};

export async function post(
  baseUrl: string,
  path: string,
  body: unknown,
  rawBody?: string,
): Promise<JsonResponse> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: RESTLI_HEADERS,
    body: rawBody ?? JSON.stringify(body),
  });
  return read(res);
}

/**
 * Any request with the Rest.li headers and `X-Wait-For-Index: true` (a write answers once it is
 * searchable), its body sent as JSON.
 */
export async function request(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<JsonResponse> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...RESTLI_HEADERS, 'Content-Type': contentType, 'X-Wait-For-Index': 'true' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return read(res);
}

export async function get(baseUrl: string, path: string): Promise<JsonResponse> {
  return read(await fetch(`${baseUrl}${path}`, { headers: RESTLI_HEADERS }));
}

async function read(res: Response): Promise<JsonResponse> {
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}

export function enc(urn: string): string {
  return encodeURIComponent(urn);
}

export function datasetUrn(name: string, platform = 'hive', env = 'PROD'): string {
  return `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${env})`;
}

/** A proposal in the wire form the Python SDK sends. */
export function proposal(
  entityUrn: string,
  aspectName: string,
  value: unknown,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const entityType = entityUrn.split(':')[2];
  return {
    entityType,
    entityUrn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
    ...extra,
  };
}

export function ingest(baseUrl: string, p: Record<string, unknown>, async = false): Promise<JsonResponse> {
  return post(baseUrl, '/aspects?action=ingestProposal', { proposal: p, async: String(async) });
}

/** Reads every stored version of an aspect through GET /aspects, from 0 up to the first 404. */
export async function readAllVersions(
  baseUrl: string,
  urn: string,
  aspect: string,
  recordName: string,
): Promise<unknown[]> {
  const values: unknown[] = [];
  for (let version = 0; ; version++) {
    const res = await get(baseUrl, `/aspects/${enc(urn)}?aspect=${aspect}&version=${version}`);
    if (res.status === 404) return values;
    if (res.status !== 200) throw new Error(`GET version ${version}: ${res.status} ${res.text}`);
    values.push((res.body as { aspect: Record<string, unknown> }).aspect[recordName]);
  }
}

/** Polls until the predicate holds; fails with the last value seen. */
export async function waitUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!done(last)) {
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 25));
    last = await read();
  }
  return last;
}

/**
 * Drops the OpenSearch indices of a catalog that ran on its own index prefix, so that a test run does
 * not pile up a hundred indices per catalog in the shared node's cluster state.
 */
export async function dropIndices(env: Record<string, string>): Promise<void> {
  const url = env['OPENSEARCH_URL'];
  const prefix = env['INDEX_PREFIX'];
  if (url === undefined || prefix === undefined || prefix === '') return;
  const res = await fetch(`${url.replace(/\/$/, '')}/${encodeURIComponent(prefix)}*`, { method: 'DELETE' });
  if (!res.ok && res.status !== 404) throw new Error(`dropping ${prefix}* indices: HTTP ${res.status}`);
}

/** The root user's password while ROOT_USER_PASSWORD is left at its default. */
export const ROOT_PASSWORD = 'datahub';

/** A session token of a native user, from `POST /logIn`. */
export async function logIn(
  baseUrl: string,
  username = 'datahub',
  password = ROOT_PASSWORD,
): Promise<string> {
  const res = await fetch(`${baseUrl}/logIn`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await res.json()) as { accessToken?: string; message?: string };
  if (res.status !== 200 || typeof body.accessToken !== 'string') {
    throw new Error(`logIn as ${username}: HTTP ${res.status} ${JSON.stringify(body)}`);
  }
  return body.accessToken;
}

/**
 * A personal access token acting as `actor`, minted through GraphQL `createAccessToken` by whoever
 * `authorization` authenticates (the root user's session by default).
 */
export async function personalAccessToken(
  baseUrl: string,
  options: { actorUrn?: string; authorization?: string; duration?: string; name?: string } = {},
): Promise<string> {
  const authorization = options.authorization ?? `Bearer ${await logIn(baseUrl)}`;
  const res = await fetch(`${baseUrl}/api/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: authorization },
    body: JSON.stringify({
      query: `mutation($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { accessToken } }`,
      variables: {
        input: {
          type: 'PERSONAL',
          actorUrn: options.actorUrn ?? 'urn:li:corpuser:datahub',
          duration: options.duration ?? 'ONE_DAY',
          name: options.name ?? 'test token',
        },
      },
    }),
  });
  const body = (await res.json()) as {
    data?: { createAccessToken?: { accessToken?: string } };
    errors?: unknown;
  };
  const token = body.data?.createAccessToken?.accessToken;
  if (typeof token !== 'string')
    throw new Error(`createAccessToken: HTTP ${res.status} ${JSON.stringify(body)}`);
  return token;
}

/**
 * Any request with the given `Authorization` (none when undefined) and a JSON body, answered with its
 * status, parsed body, text and content type: what the authentication suites send.
 */
export async function callAs(
  baseUrl: string,
  method: string,
  path: string,
  authorization: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<JsonResponse & { readonly contentType: string | null }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      'Content-Type': 'application/json',
      'X-RestLi-Protocol-Version': '2.0.0',
      ...(authorization === undefined ? {} : { Authorization: authorization }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { ...(await read(res)), contentType: res.headers.get('content-type') };
}
