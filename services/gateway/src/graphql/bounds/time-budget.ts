import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from '../context.js';

/**
 * Runs each execution on its request's budget: the clock starts with execution, and once it runs out
 * the request is answered with the error naming the limit while its resolvers still to run stop at their
 * next check (the loaders and searches check the budget before each read). The budget's signal is not
 * handed to the executor: @graphql-tools/executor then races every object with pending fields against
 * it (a promise and a reaction per object), which cost entity-heavy queries a tenth of their throughput;
 * one race per execution does the same for the answer.
 */
export function useTimeBudget(): Plugin<GraphQLContext> {
  return {
    onExecute: ({ args, executeFn, setExecuteFn }) => {
      const { budget } = args.contextValue as GraphQLContext;
      budget.start();
      setExecuteFn((executionArgs) => {
        const result = executeFn(executionArgs) as Promise<ExecutionResult> | ExecutionResult;
        if (!(result instanceof Promise)) return result;
        return Promise.race([result, budget.expiry()]);
      });
      return { onExecuteDone: () => budget.stop() };
    },
  };
}
