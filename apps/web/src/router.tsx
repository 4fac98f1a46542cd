import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  type RouterHistory,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import { UnauthenticatedError } from './api/graphql-client';
import { meQueryOptions } from './auth/session';
import { AppShell } from './shell/AppShell';
import {
  parseQueryString,
  searchParamsToUrl,
  stringifyQueryString,
  validateSearchParams,
} from './search/search-params';

export interface RouterContext {
  readonly queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({ component: Outlet });

export const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (raw: Record<string, unknown>): { redirect?: string } =>
    typeof raw['redirect'] === 'string' ? { redirect: raw['redirect'] } : {},
  component: lazyRouteComponent(() => import('./auth/LoginPage'), 'LoginPage'),
});

/** Every page but the sign-in page: signed-in users only; anyone else goes to sign in and comes back. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location }) => {
    try {
      await context.queryClient.ensureQueryData(meQueryOptions);
    } catch (error) {
      if (error instanceof UnauthenticatedError)
        throw redirect({ to: '/login', search: { redirect: location.href } });
      throw error;
    }
  },
  component: AppShell,
});

export const homeRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  component: lazyRouteComponent(() => import('./home/HomePage'), 'HomePage'),
});

export const searchRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/search',
  // The URL's own shape, normalized (the page reads its state from it with validateSearchParams).
  validateSearch: (raw: Record<string, unknown>) => searchParamsToUrl(validateSearchParams(raw)),
  component: lazyRouteComponent(() => import('./search/SearchPage'), 'SearchPage'),
});

export const datasetRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/dataset/$urn',
  component: lazyRouteComponent(() => import('./entity/DatasetPage'), 'DatasetPage'),
});

export const entityRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/entity/$urn',
  component: lazyRouteComponent(() => import('./entity/EntityPage'), 'EntityPage'),
});

export const tokensRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/tokens',
  component: lazyRouteComponent(() => import('./settings/TokensPage'), 'TokensPage'),
});

const routeTree = rootRoute.addChildren([
  loginRoute,
  appRoute.addChildren([homeRoute, searchRoute, datasetRoute, entityRoute, tokensRoute]),
]);

/** The app's router; `history` is the browser's unless given (tests give a memory history). */
export function createAppRouter(queryClient: QueryClient, history?: RouterHistory) {
  return createRouter({
    routeTree,
    ...(history === undefined ? {} : { history }),
    context: { queryClient },
    // Plain query strings (`?q=orders&platform=hive&platform=mysql`), not JSON-encoded values.
    parseSearch: parseQueryString,
    stringifySearch: stringifyQueryString,
    defaultPreload: 'intent',
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
