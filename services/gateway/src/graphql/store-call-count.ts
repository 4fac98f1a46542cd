import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from './context.js';

/** The request header that asks for the store round trips of a request in `extensions.storeCalls`. */
export const STORE_CALLS_HEADER = 'x-catalog-store-calls';

/**
 * Reports how many times a request read the aspect store (its batched entity loads), for the GraphQL
 * benchmark; only when the request asks, so the ecosystem's clients see the usual `extensions`.
 */
export function useStoreCallCount(): Plugin<GraphQLContext> {
  return {
    onExecute: ({ args }) => ({
      onExecuteDone: ({ result, setResult }) => {
        const context = args.contextValue as GraphQLContext & { request?: Request };
        if (context.request?.headers.get(STORE_CALLS_HEADER) !== 'true' || Symbol.asyncIterator in result)
          return;
        setResult({
          ...result,
          extensions: { ...result.extensions, storeCalls: context.entities.storeCalls },
        });
      },
    }),
  };
}
