import { SYSTEM_AUTH_HEADERS } from './harness.js';
/** A GraphQL answer with its HTTP status, as the e2e suites read it. */
export interface GraphQLResponse {
  readonly status: number;
  readonly data?: Record<string, unknown> | null;
  readonly errors?: { message: string; path?: string[]; extensions?: Record<string, unknown> }[];
  readonly extensions?: Record<string, unknown>;
}

/** Posts a query to the catalog's GraphQL endpoint (or `path`), with extra request headers. */
export async function graphql(
  base: string,
  query: string,
  variables: Record<string, unknown> = {},
  options: { readonly path?: string; readonly headers?: Record<string, string> } = {},
): Promise<GraphQLResponse> {
  const res = await fetch(`${base}${options.path ?? '/api/graphql'}`, {
    method: 'POST',
    headers: { ...SYSTEM_AUTH_HEADERS, 'Content-Type': 'application/json', ...options.headers },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  return { status: res.status, ...(text === '' ? {} : (JSON.parse(text) as object)) };
}

/** The data of a query that must succeed. */
export async function graphqlData<T = Record<string, unknown>>(
  base: string,
  query: string,
  variables: Record<string, unknown> = {},
  options: { readonly path?: string; readonly headers?: Record<string, string> } = {},
): Promise<T> {
  const res = await graphql(base, query, variables, options);
  if (res.status !== 200 || res.errors !== undefined)
    throw new Error(`GraphQL failed: ${res.status} ${JSON.stringify(res.errors)}`);
  return res.data as T;
}
