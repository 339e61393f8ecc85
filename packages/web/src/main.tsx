import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { currentLocale, localeReady } from './lib/i18n.ts';
import { installGlobalErrorHandlers } from './lib/error-log.ts';
import { reloadOnStaleRelease } from './lib/stale-release.ts';

installGlobalErrorHandlers();
reloadOnStaleRelease();
document.documentElement.lang = currentLocale();

// At once in zh-CN; a stored English choice first fetches its catalogue, so no page shows Chinese for a moment.
void localeReady.finally(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
