import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from '../context.js';

/**
 * Runs each execution on its request's budget: the clock starts with execution and the executor gets the
 * budget's signal, so that once it runs out no further resolver starts and the response carries the
 * error naming the limit (@graphql-tools/executor checks the signal between fields and list items).
 */
export function useTimeBudget(): Plugin<GraphQLContext> {
  return {
    onExecute: ({ args }) => {
      const { budget } = args.contextValue as GraphQLContext;
      budget.start();
      // The executor reads `signal` from its arguments, as yoga's own useExecutionCancellation sets it.
      (args as { signal?: AbortSignal }).signal = budget.signal;
      return { onExecuteDone: () => budget.stop() };
    },
  };
}
