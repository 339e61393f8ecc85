import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import type { QueryClient as QueryClientType } from '@tanstack/react-query';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '../app/app-providers.tsx';
import { clearOnSessionStart } from '../lib/query-client.ts';

/**
 * The app's providers and antd's whole App: pages past sign-in run inside it in the app (app/workbench-frame.tsx),
 * and screens rendered here without their route need it too (App.useApp().modal).
 */
export function WorkbenchProviders({ queryClient, children }: { queryClient: QueryClientType; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AppProviders>
        <AntApp>{children}</AntApp>
      </AppProviders>
    </QueryClientProvider>
  );
}

/** Renders routes inside the app's providers, as the app does, with a memory router and a fresh cache. */
export function renderRoutes(routes: RouteObject[], initialPath: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  // As the app's one cache does (lib/query-client.ts): a new session forgets the answers of the last.
  clearOnSessionStart(queryClient);
  const result = render(
    <WorkbenchProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </WorkbenchProviders>,
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
