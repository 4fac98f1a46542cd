import { randomUUID } from 'node:crypto';
import type { GraphQLError } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { isDomainError, type ErrorCode } from '@catalog/model';
import type { Logger } from '@catalog/runtime';
import { outageOf, RETRY_AFTER_SECONDS } from '../outage.js';

/** The ecosystem's GraphQL error codes (DataHubGraphQLErrorCode): a number and a name. */
const CODES: Readonly<Record<ErrorCode, { code: number; type: string }>> = {
  VALIDATION: { code: 400, type: 'BAD_REQUEST' },
  SCHEMA_VALIDATION: { code: 400, type: 'BAD_REQUEST' },
  PAYLOAD_TOO_LARGE: { code: 400, type: 'BAD_REQUEST' },
  PRECONDITION: { code: 412, type: 'PRECONDITION_FAILED' },
  NOT_FOUND: { code: 404, type: 'NOT_FOUND' },
  CONFLICT: { code: 409, type: 'CONFLICT' },
  UNAUTHORIZED: { code: 403, type: 'UNAUTHORIZED' },
  FORBIDDEN: { code: 403, type: 'UNAUTHORIZED' },
  UNAVAILABLE: { code: 503, type: 'SERVICE_UNAVAILABLE' },
  THROTTLED: { code: 429, type: 'TOO_MANY_REQUESTS' },
};

/**
 * Shapes an error of a resolver as the ecosystem does: the field's data null and an entry in `errors`
 * with `extensions {code, type, classification}`. A domain error keeps its message; an outage (a client
 * error of a dependency that cannot be reached) is SERVICE_UNAVAILABLE 503 naming what is down; anything
 * else is masked as "An unknown error occurred." with a correlation id that the log line carries too.
 * Errors graphql-js raises itself (syntax, validation, variables) pass unchanged: never a 5xx.
 */
export function maskError(logger: Logger) {
  return (error: unknown): Error => {
    // graphql may be loaded twice (ESM and CJS builds), so errors are told apart by name, not class.
    const graphqlError = isGraphQLError(error) ? error : undefined;
    const original = graphqlError ? graphqlError.originalError : error;
    if (graphqlError && (original === undefined || original === null || isGraphQLError(original)))
      return isGraphQLError(original) ? original : graphqlError;
    const options = {
      ...(graphqlError?.nodes ? { nodes: graphqlError.nodes } : {}),
      ...(graphqlError?.path ? { path: graphqlError.path } : {}),
    };
    const outage = isDomainError(original) ? undefined : outageOf(original);
    if (outage !== undefined) logger.warn({ err: original, path: graphqlError?.path }, outage.message);
    const known = outage ?? (isDomainError(original) ? original : undefined);
    if (known !== undefined) {
      const { code, type } = CODES[known.code];
      return createGraphQLError(known.message, {
        ...options,
        extensions: { code, type, classification: 'DataFetchingException' },
      });
    }
    const correlationId = randomUUID();
    logger.error({ err: original, correlationId, path: graphqlError?.path }, 'GraphQL resolver failed');
    return createGraphQLError('An unknown error occurred.', {
      ...options,
      extensions: { code: 500, type: 'SERVER_ERROR', classification: 'DataFetchingException', correlationId },
    });
  };
}

/**
 * An outage gets `Retry-After` on GraphQL too. The status stays 200, as the ecosystem's clients expect
 * of any response that carries `errors`; the error itself says SERVICE_UNAVAILABLE 503.
 */
export function useRetryAfterOnOutage(): Plugin {
  return {
    onResultProcess: ({ result, serverContext }) => {
      const results = Array.isArray(result) ? result : [result];
      const outage = results.some(
        (r) =>
          !(Symbol.asyncIterator in r) &&
          (r.errors ?? []).some((e) => (e.extensions as { code?: unknown } | undefined)?.code === 503),
      );
      // Served through express, the server context carries its response (graphql-endpoint.ts).
      const { res } = serverContext as { res?: { setHeader(name: string, value: string): unknown } };
      if (outage) res?.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    },
  };
}

interface GraphQLErrorLike extends Error {
  readonly originalError?: unknown;
  readonly nodes?: GraphQLError['nodes'];
  readonly path?: readonly (string | number)[];
}

function isGraphQLError(error: unknown): error is GraphQLErrorLike {
  return error instanceof Error && error.name === 'GraphQLError';
}
