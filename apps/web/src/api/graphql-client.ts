import { TypedDocumentString } from '../gql/graphql';

/** The catalog answered 401: the session is gone or never was. */
export class UnauthenticatedError extends Error {
  constructor() {
    super('Not signed in');
    this.name = 'UnauthenticatedError';
  }
}

/** The GraphQL response carried errors (a refusal, bad input, an outage): their messages. */
export class GraphQLRequestError extends Error {
  constructor(
    message: string,
    readonly codes: readonly (number | string | undefined)[],
  ) {
    super(message);
    this.name = 'GraphQLRequestError';
  }
}

interface GraphQLResponse<T> {
  readonly data?: T | null;
  readonly errors?: readonly { message: string; extensions?: { code?: number | string } }[];
}

/**
 * Runs one typed document against the catalog's GraphQL endpoint with the session cookie (same origin;
 * JSON, so the server's cross-site checks pass). Throws UnauthenticatedError on 401.
 */
export function execute<TResult>(
  document: TypedDocumentString<TResult, Record<string, never>>,
): Promise<TResult>;
export function execute<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
): Promise<TResult>;
export async function execute<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  variables?: TVariables,
): Promise<TResult> {
  // A graphql() call finds its document by its exact text: an edited one is missing until regenerated.
  if (!(document instanceof TypedDocumentString))
    throw new Error('A GraphQL document of the app is not generated: run pnpm web:codegen');
  const response = await fetch('/api/graphql', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ query: document.toString(), variables: variables ?? {} }),
  });
  if (response.status === 401) throw new UnauthenticatedError();
  let body: GraphQLResponse<TResult>;
  try {
    body = (await response.json()) as GraphQLResponse<TResult>;
  } catch {
    throw new Error(`The catalog answered HTTP ${response.status} without a GraphQL response`);
  }
  if (body.errors !== undefined && body.errors.length > 0)
    throw new GraphQLRequestError(
      body.errors.map((e) => e.message).join('; '),
      body.errors.map((e) => e.extensions?.code),
    );
  if (body.data === undefined || body.data === null)
    throw new Error(`The catalog answered HTTP ${response.status} without data`);
  return body.data;
}
