import { Navigate, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { Spin } from 'antd';
import { FORM_DESIGNER_PATH, FORM_RUNTIME_PATH, WORKFLOW_DESIGNER_PATH } from '@tritium/shared/constants/entry-routes';
import { entryRoutes } from '../features/entry/entry-routes.tsx';
import { hasToken } from '../lib/session.ts';
import { RootShell } from './root-shell.tsx';
import { RouteErrorPage } from './route-error-page.tsx';
import { titled } from '../lib/route-handle.ts';

/** Signed-out visitors of app pages go to the login home and come back afterwards. */
export function requireSessionLoader({ request }: LoaderFunctionArgs) {
  if (hasToken()) return null;
  const url = new URL(request.url);
  throw redirect(`/entry/?redirectUrl=${encodeURIComponent(`${url.pathname}${url.search}${url.hash}`)}`);
}

const pageFallback = (
  <div style={{ display: 'flex', minHeight: '100vh', alignItems: 'center', justifyContent: 'center' }}>
    <Spin />
  </div>
);

/**
 * Every page is a lazy module (stack.md: split routes with import()), so the sign-in pages never load the
 * workbench and the workbench never loads the sign-in forms.
 */
export const routes: RouteObject[] = [
  {
    element: <RootShell />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: pageFallback,
    children: [
      { path: '/', element: <Navigate to="/entry/" replace /> },
      entryRoutes,
      {
        path: '/mobile/code',
        handle: titled('verifyCodeLogin'),
        lazy: () => import('../features/entry/pages/mobile-code-page.tsx').then((m) => ({ Component: m.MobileCodePage })),
      },
      {
        path: '/workbench/*',
        handle: titled('workbench'),
        loader: requireSessionLoader,
        lazy: () => import('../features/workbench/workbench-page.tsx').then((m) => ({ Component: m.WorkbenchPage })),
      },
      {
        // The admin console: its frame checks that the user is an Administrator (403 page otherwise).
        path: '/admin',
        loader: requireSessionLoader,
        lazy: () => import('../features/org-admin/admin-frame.tsx').then((m) => ({ Component: m.AdminFrame })),
        children: [
          { index: true, element: <Navigate to="/admin/org" replace /> },
          {
            path: 'org',
            handle: titled('orgAdmin'),
            lazy: () => import('../features/org-admin/org-admin-page.tsx').then((m) => ({ Component: m.OrgAdminPage })),
          },
          { path: 'open-api', lazy: () => import('../features/org-admin/open-api/open-api-page.tsx').then((m) => ({ Component: m.OpenApiPage })) },
        ],
      },
      {
        path: FORM_DESIGNER_PATH,
        handle: titled('formDesigner'),
        loader: requireSessionLoader,
        lazy: () => import('../features/form-designer/form-designer-page.tsx').then((m) => ({ Component: m.FormDesignerPage })),
      },
      {
        path: WORKFLOW_DESIGNER_PATH,
        handle: titled('workflowDesigner'),
        loader: requireSessionLoader,
        lazy: () => import('../features/workflow-designer/workflow-designer-page.tsx').then((m) => ({ Component: m.WorkflowDesignerPage })),
      },
      {
        path: `${FORM_RUNTIME_PATH}/:schemaCode/:objectId?`,
        handle: titled('form'),
        loader: requireSessionLoader,
        lazy: () => import('../features/form-runtime/pages/form-page.tsx').then((m) => ({ Component: m.FormPage })),
      },
      {
        path: '*',
        handle: titled('notFound'),
        lazy: () => import('../components/not-found-page.tsx').then((m) => ({ Component: m.NotFoundPage })),
      },
    ],
  },
];
