import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error.ts';
import { onSessionStart } from './session.ts';

/** Only faults that may pass (network, 5xx) are worth one more try; a refusal stays a refusal. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  return failureCount < 1 && isApiError(error) && (error.status === 0 || error.status >= 500);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

/**
 * The app's one query cache. It loads with the first page that queries (lib/query-provider.tsx), not with the
 * login home, whose forms call the API directly (docs/decisions/0084).
 */
export const queryClient = createQueryClient();

/**
 * A new session forgets every cached answer, which belonged to the previous session or engine (a user info cached
 * before registering another engine would show the old one). Sessions start on pages with or without the cache.
 */
export function clearOnSessionStart(client: QueryClient): () => void {
  return onSessionStart(() => client.clear());
}
clearOnSessionStart(queryClient);
