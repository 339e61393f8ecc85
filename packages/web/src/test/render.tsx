import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '../app/app-providers.tsx';

/** Renders routes inside the app's providers, as the app does, with a memory router and a fresh cache. */
export function renderRoutes(routes: RouteObject[], initialPath: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const result = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, queryClient, ...result };
}

/** One page at a path, with a stub at every place it may navigate to. */
export function renderPage(path: string, page: ReactElement, initialPath = path, extra: RouteObject[] = []) {
  const stub = (label: string) => <div>{label}</div>;
  return renderRoutes(
    [
      { path, element: page },
      ...extra,
      { path: '/workbench/*', element: stub('workbench-stub') },
      { path: '*', element: stub('elsewhere-stub') },
    ],
    initialPath,
  );
}
