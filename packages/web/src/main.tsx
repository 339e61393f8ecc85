import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { currentLocale } from './lib/i18n.ts';
import { installGlobalErrorHandlers } from './lib/error-log.ts';

installGlobalErrorHandlers();
document.documentElement.lang = currentLocale();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
