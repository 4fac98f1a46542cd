import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { cleanup, configure, render } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { createAppRouter } from '../router';

// A loaded machine may take seconds to import a lazy route: wait on conditions, with room.
configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A GraphQL answer for one operation: its data, a function of the variables, or a 401. */
export type Answer =
  | Record<string, unknown>
  | ((variables: Record<string, unknown>) => Record<string, unknown> | 'unauthenticated')
  | 'unauthenticated';

export interface Call {
  readonly url: string;
  readonly operation?: string;
  readonly variables?: Record<string, unknown>;
  readonly body?: unknown;
}

/** The signed-in root user, as `getMe` answers for it. */
export const ME = {
  me: {
    corpUser: {
      urn: 'urn:li:corpuser:datahub',
      username: 'datahub',
      properties: { displayName: 'DataHub', fullName: null },
      editableProperties: null,
    },
    platformPrivileges: {
      viewAnalytics: false,
      generatePersonalAccessTokens: true,
      manageTags: true,
      createTags: true,
    },
  },
};

/**
 * Stubs `fetch`: a GraphQL request is answered by the entry named after its operation (an operation
 * without one fails the test), any other URL by `others`; every request is recorded in `calls`.
 */
export function stubFetch(
  answers: Record<string, Answer>,
  others: Record<string, (body: unknown) => Response> = {},
): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const body: unknown = init?.body === undefined ? undefined : JSON.parse(String(init.body));
      if (url !== '/api/graphql') {
        calls.push({ url, body });
        const other = others[url.split('?')[0] ?? url];
        if (other === undefined) throw new Error(`unexpected request to ${url}`);
        return other(body);
      }
      const { query, variables } = body as { query: string; variables: Record<string, unknown> };
      const operation = /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? '';
      calls.push({ url, operation, variables });
      const answer = answers[operation];
      if (answer === undefined) throw new Error(`unexpected GraphQL operation ${operation}`);
      const data = typeof answer === 'function' ? answer(variables) : answer;
      if (data === 'unauthenticated') return new Response('{"status":401}', { status: 401 });
      return new Response(JSON.stringify({ data }), { headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

/** Renders the whole app (its router and routes) at `path`, in memory. */
export async function renderApp(path: string) {
  // jsdom has no scrolling; the router restores scroll positions on navigation.
  vi.stubGlobal('scrollTo', () => undefined);
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: { retry: false },
    },
  });
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }));
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, router };
}
