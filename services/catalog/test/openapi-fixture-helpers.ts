import { SYSTEM_AUTH_HEADERS } from './harness.js';
/**
 * Helpers for replaying the shapes of the ecosystem's OpenAPI smoke-test fixtures (smoke-test/tests/openapi/
 * in the public DataHub repository). Their runner sends each request and, when a step has an expected body,
 * compares it with the actual one ignoring array order and leaving out the `exclude_regex_paths`; any extra
 * key in the actual body fails the comparison. `compareLikeFixture` does the same here.
 */
import { expect } from 'vitest';

export interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
  readonly headers: Headers;
}

export interface CallOptions {
  /** Query parameters, appended as the fixture's `params` are (values sent as given). */
  readonly params?: Record<string, string | readonly string[]>;
  readonly headers?: Record<string, string>;
  readonly contentType?: string;
}

/** One HTTP exchange with a JSON body (when given), answered as status, parsed body, text and headers. */
export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<Reply> {
  let url = `${base}${path}`;
  if (options.params !== undefined) {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(options.params))
      for (const v of typeof value === 'string' ? [value] : value) query.append(name, v);
    url += `${path.includes('?') ? '&' : '?'}${query.toString()}`;
  }
  const res = await fetch(url, {
    method,
    headers: {
      ...SYSTEM_AUTH_HEADERS,
      'Content-Type': options.contentType ?? 'application/json',
      accept: 'application/json',
      ...options.headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

/** A urn fully percent-encoded, as the fixtures write it in paths (`%3A %28 %2C %29 %2F`). */
export function enc(urn: string): string {
  return encodeURIComponent(urn);
}

/**
 * Removes the values at the given paths (dot-separated keys; `*` for every key or index), as the
 * fixtures' `exclude_regex_paths` do: an excluded value may be present or absent.
 */
export function excluding(value: unknown, paths: readonly string[]): unknown {
  const copy = structuredClone(value);
  for (const path of paths) drop(copy, path.split('.'));
  return copy;
}

function drop(node: unknown, keys: readonly string[]): void {
  if (typeof node !== 'object' || node === null || keys.length === 0) return;
  const [head, ...rest] = keys as [string, ...string[]];
  const record = node as Record<string, unknown>;
  const names = head === '*' ? Object.keys(record) : [head];
  for (const name of names) {
    if (rest.length === 0) {
      if (Array.isArray(node)) continue;
      delete record[name];
    } else drop(record[name], rest);
  }
}

/** Arrays sorted canonically at every depth, so that two values compare regardless of array order. */
export function orderless(value: unknown): unknown {
  if (Array.isArray(value))
    return value
      .map(orderless)
      .sort((a, b) =>
        JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0,
      );
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, orderless(v)]));
  return value;
}

/**
 * The fixture runner's check of one step: the status is one of `statuses` (the runner's default is
 * 200, 202 or 204), and, when an expected body is given, the body equals it exactly, ignoring array
 * order and the excluded paths.
 */
export function compareLikeFixture(
  res: Reply,
  expected: { statuses?: readonly number[]; json?: unknown; exclude?: readonly string[]; step?: string },
  /** Record a mismatch and go on (expect.soft), so that a sequence reports every step that differs. */
  soft = false,
): void {
  const check = soft ? expect.soft : expect;
  const step = expected.step === undefined ? '' : `${expected.step}: `;
  const statuses = expected.statuses ?? [200, 202, 204];
  check(statuses, `${step}status ${res.status}, body ${res.text}`).toContain(res.status);
  if (expected.json !== undefined) {
    const exclude = expected.exclude ?? [];
    check(orderless(excluding(res.body, exclude)), `${step}body`).toEqual(
      orderless(excluding(expected.json, exclude)),
    );
  }
}

/**
 * An OpenAPI error body as the fixtures check it: exactly `{"error": <error>}` once `message` is
 * excluded (so no other key may be present).
 */
export function expectOpenApiError(res: Reply, status: number, error: string, soft = false): void {
  compareLikeFixture(res, { statuses: [status], json: { error }, exclude: ['message'] }, soft);
}

/**
 * Polls until the predicate holds or the time is up, and returns the last value either way, so that the
 * caller's assertion shows what was seen (the fixtures' runner waits for the search index between steps).
 */
export async function settle<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!done(last) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    last = await read();
  }
  return last;
}
