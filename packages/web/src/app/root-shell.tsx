import { useEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import { addBreadcrumb } from '../lib/breadcrumbs.ts';
import { recordNavigation } from '../lib/global-config.ts';
import type { RouteHandle } from '../lib/route-handle.ts';

/** Sets the Chinese (or English) page title of the deepest route that names one (calls.md §2). */
function useDocumentTitle(): void {
  const matches = useMatches();
  const { t } = useTranslation();
  const titleKey = [...matches].reverse().map((match) => (match.handle as RouteHandle | undefined)?.titleKey).find(Boolean);
  useEffect(() => {
    document.title = titleKey ? t('app.pageTitle', { title: t(titleKey) }) : t('app.name');
  }, [titleKey, t]);
}

/** The root of every route: records navigation for global config and the error-log breadcrumbs. */
export function RootShell() {
  const location = useLocation();
  useEffect(() => {
    recordNavigation(location);
    addBreadcrumb(`route ${location.pathname}${location.search}`);
  }, [location]);
  useDocumentTitle();
  return <Outlet />;
}
