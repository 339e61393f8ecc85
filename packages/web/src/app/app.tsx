import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { configureApiClient } from '../lib/api-client.ts';
import { AppProviders } from './app-providers.tsx';
import { routes } from './routes.tsx';

const router = createBrowserRouter(routes);

// A 401 moves to the expiry page inside the app instead of reloading it.
configureApiClient({ navigate: (to) => void router.navigate(to) });

export function App() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
