import '@fontsource-variable/inter/index.css';
import './design/global.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { UnauthenticatedError } from './api/graphql-client';
import { createAppRouter } from './router';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A lost session is not retried: the page sends the user to sign in instead.
      retry: (count, error) => !(error instanceof UnauthenticatedError) && count < 2,
    },
  },
});
const router = createAppRouter(queryClient);

// A session that ends while the app is open (expired, signed out elsewhere): back to sign in, then here.
queryClient.getQueryCache().subscribe((event) => {
  if (event.type === 'updated' && event.query.state.error instanceof UnauthenticatedError) {
    const here = router.state.location.href;
    if (router.state.location.pathname !== '/login')
      void router.navigate({ to: '/login', search: { redirect: here } });
  }
});

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
