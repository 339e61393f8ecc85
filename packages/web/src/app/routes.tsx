import type { ComponentType } from 'react';
import { Navigate, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { APP_CODE_PATH, FORM_AUTOMATION_PATH, FORM_CODE_PATH, FORM_DESIGNER_PATH, FORM_PRINT_PATH, FORM_PRINT_TEMPLATES_PATH, FORM_RUNTIME_PATH, OPEN_QUERY_PATH, PUBLIC_FORM_PATH, SHARED_RECORD_PATH, WORKFLOW_DESIGNER_PATH } from '@tritium/shared/constants/entry-routes';
import { entryRoutes } from '../features/entry/entry-routes.tsx';
import { hasToken } from '../lib/session.ts';
import { loadWorkbenchCatalogue } from '../lib/i18n.ts';
import { RootShell } from './root-shell.tsx';
import { PageLoading } from './page-loading.tsx';
import { RouteErrorPage } from './route-error-page.tsx';
import { titled } from '../lib/route-handle.ts';

/** Signed-out visitors of app pages go to the login home and come back afterwards. */
export function requireSessionLoader({ request }: LoaderFunctionArgs) {
  if (hasToken()) return null;
  const url = new URL(request.url);
  throw redirect(`/entry/?redirectUrl=${encodeURIComponent(`${url.pathname}${url.search}${url.hash}`)}`);
}

/**
 * A page past sign-in: its module, antd's whole App around it, the query cache (docs/decisions/0084) and the
 * workbench part of the catalogue, fetched side by side (docs/decisions/0036); `framed` false for a child route whose parent already has the App. The sign-in
 * pages need none of them.
 */
function workbenchPage<M>(load: () => Promise<M>, component: (module: M) => ComponentType, framed = true): RouteObject['lazy'] {
  return () =>
    Promise.all([load(), import('./workbench-frame.tsx'), import('../lib/query-provider.tsx'), loadWorkbenchCatalogue()]).then(([module, frame, queries]) => ({
      Component: queries.withQueries(framed ? frame.inWorkbenchFrame(component(module)) : component(module)),
    }));
}

/**
 * Every page is a lazy module (stack.md: split routes with import()), so the sign-in pages never load the
 * workbench and the workbench never loads the sign-in forms.
 */
export const routes: RouteObject[] = [
  {
    element: <RootShell />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <PageLoading />,
    children: [
      { path: '/', element: <Navigate to="/entry/" replace /> },
      entryRoutes,
      {
        path: '/mobile/code',
        handle: titled('verifyCodeLogin'),
        // Its code form calls the API directly: no query cache here, as on the login home (docs/decisions/0084).
        lazy: () => import('../features/entry/pages/mobile-code-page.tsx').then((m) => ({ Component: m.MobileCodePage })),
      },
      {
        path: '/workbench/*',
        handle: titled('workbench'),
        loader: requireSessionLoader,
        lazy: workbenchPage(() => import('../features/workbench/workbench-page.tsx'), (m) => m.WorkbenchPage),
      },
      {
        // The admin console: its frame checks that the user is an Administrator (403 page otherwise).
        path: '/admin',
        loader: requireSessionLoader,
        lazy: workbenchPage(() => import('../features/org-admin/admin-frame.tsx'), (m) => m.AdminFrame),
        children: [
          { index: true, element: <Navigate to="/admin/org" replace /> },
          {
            path: 'org',
            handle: titled('orgAdmin'),
            lazy: workbenchPage(() => import('../features/org-admin/org-admin-page.tsx'), (m) => m.OrgAdminPage, false),
          },
          {
            path: 'associated-org',
            lazy: workbenchPage(() => import('../features/org-admin/associated-org/associated-org-page.tsx'), (m) => m.AssociatedOrgPage, false),
          },
          { path: 'open-api', lazy: workbenchPage(() => import('../features/org-admin/open-api/open-api-page.tsx'), (m) => m.OpenApiPage, false) },
          {
            path: 'notification-channels',
            lazy: workbenchPage(() => import('../features/org-admin/notification-channels/notification-channels-page.tsx'), (m) => m.NotificationChannelsPage, false),
          },
          { path: 'plugins', lazy: workbenchPage(() => import('../features/plugins/plugins-page.tsx'), (m) => m.PluginsPage, false) },
          // The connectors page asks for the connector plugin first (docs/decisions/0123).
          { path: 'connectors', lazy: workbenchPage(() => import('../features/org-admin/connectors/connector-plugin-gate.tsx'), (m) => m.GatedConnectorsPage, false) },
          { path: 'ai', lazy: workbenchPage(() => import('../features/org-admin/ai/ai-settings-page.tsx'), (m) => m.AiSettingsPage, false) },
          { path: 'ocr-templates', lazy: workbenchPage(() => import('../features/ocr/recognition-templates-page.tsx'), (m) => m.RecognitionTemplatesPage, false) },
          {
            path: 'sign-in',
            lazy: workbenchPage(() => import('../features/org-admin/sign-in-settings/sign-in-settings-page.tsx'), (m) => m.SignInSettingsPage, false),
          },
          { path: 'oplog', lazy: workbenchPage(() => import('../features/org-admin/oplog/oplog-page.tsx'), (m) => m.OplogPage, false) },
          {
            path: 'feature-switches',
            lazy: workbenchPage(() => import('../features/org-admin/feature-switches/feature-switches-page.tsx'), (m) => m.FeatureSwitchesPage, false),
          },
        ],
      },
      {
        // 模板中心 (issue 46, docs/decisions/0131).
        path: '/templates',
        handle: titled('templates'),
        loader: requireSessionLoader,
        lazy: workbenchPage(() => import('../features/template/template-market-page.tsx'), (m) => m.TemplateMarketPage),
      },
      {
        path: FORM_DESIGNER_PATH,
        handle: titled('formDesigner'),
        loader: requireSessionLoader,
        lazy: workbenchPage(() => import('../features/form-designer/form-designer-page.tsx'), (m) => m.FormDesignerPage),
      },
      {
        path: WORKFLOW_DESIGNER_PATH,
        handle: titled('workflowDesigner'),
        loader: requireSessionLoader,
        lazy: workbenchPage(() => import('../features/workflow-designer/workflow-designer-page.tsx'), (m) => m.WorkflowDesignerPage),
      },
      {
        path: `${FORM_AUTOMATION_PATH}/:schemaCode`,
        handle: titled('automation'),
        loader: requireSessionLoader,
        lazy: workbenchPage(() => import('../features/automation/automation-page.tsx'), (m) => m.AutomationPage),
      },
      {
        path: `${FORM_CODE_PATH}/:schemaCode`,
        handle: titled('code'),
        loader: requireSessionLoader,
        lazy: workbenchPage(() => import('../features/code-editor/code-editor-page.tsx'), (m) => m.FormCodePage),
      },
      {
        path: `${APP_CODE_PATH}/:appCode`,
        handle: titled('code'),
        loader: requireSessionLoader,
        lazy: workbenchPage(() => import('../features/code-editor/code-editor-page.tsx'), (m) => m.AppCodePage),
      },
      {
        path: `${FORM_PRINT_TEMPLATES_PATH}/:schemaCode`,
        handle: titled('printTemplates'),
        loader: requireSessionLoader,
        lazy: workbenchPage(() => import('../features/print/templates-page.tsx'), (m) => m.PrintTemplatesPage),
      },
      {
        path: `${FORM_PRINT_PATH}/:schemaCode`,
        handle: titled('print'),
        loader: requireSessionLoader,
        lazy: workbenchPage(() => import('../features/print/print-page.tsx'), (m) => m.PrintPage),
      },
      {
        path: `${FORM_RUNTIME_PATH}/:schemaCode/:objectId?`,
        handle: titled('form'),
        loader: requireSessionLoader,
        lazy: workbenchPage(() => import('../features/form-runtime/pages/form-page.tsx'), (m) => m.FormPage),
      },
      {
        // A public fill-in link: no session, no workbench frame (issue 19, ExternalForm).
        path: `${PUBLIC_FORM_PATH}/:engineCode/:token`,
        handle: titled('form'),
        lazy: workbenchPage(() => import('../features/external-form/public-form-page.tsx'), (m) => m.PublicFormPage, false),
      },
      {
        // A form's open-query page: no session, no workbench frame (issue 19, OpenQuery).
        path: `${OPEN_QUERY_PATH}/:engineCode/:token`,
        handle: titled('form'),
        lazy: workbenchPage(() => import('../features/external-form/open-query-page.tsx'), (m) => m.OpenQueryPage, false),
      },
      {
        // A record shared read-only by link: no session, no workbench frame (issue 19, ExternalShare).
        path: `${SHARED_RECORD_PATH}/:engineCode/:token`,
        handle: titled('form'),
        lazy: workbenchPage(() => import('../features/record-share/shared-record-page.tsx'), (m) => m.SharedRecordPage, false),
      },
      {
        path: '*',
        handle: titled('notFound'),
        lazy: () => import('../components/not-found-page.tsx').then((m) => ({ Component: m.NotFoundPage })),
      },
    ],
  },
];
