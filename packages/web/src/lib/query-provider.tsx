import type { ComponentType } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from './query-client.ts';

/**
 * `Page` inside the app's query cache. Pages past sign-in and the entry pages that query get it with their module
 * (app/routes.tsx, features/entry/entry-routes.tsx); the login home does without (docs/decisions/0084).
 */
export function withQueries<P extends object>(Page: ComponentType<P>): ComponentType<P> {
  return function WithQueries(props: P) {
    return (
      <QueryClientProvider client={queryClient}>
        <Page {...props} />
      </QueryClientProvider>
    );
  };
}
