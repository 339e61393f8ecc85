import { lazy, Suspense, useState } from 'react';
import { Layout, Skeleton, theme } from 'antd';
import { Route, Routes, useNavigate } from 'react-router';
import { UserAuthType } from '@tritium/shared/constants/org';
import { AppList } from '../../apps/components/app-list.tsx';
import { useAdminAppCodes, useAppList } from '../../apps/hooks/use-apps.ts';
import { useAppActions } from '../../apps/hooks/use-app-actions.tsx';
import { AppPermissionDrawer } from '../../apps/components/app-permission-drawer.tsx';
import type { AppDto } from '../../apps/api/apps-api.ts';
import type { UserInfoResult } from '../api/workbench-api.ts';
import { PaneFoldsProvider, paneFoldsStorageKey, usePaneFolds } from '../../../lib/pane-folds.tsx';
import { TopBar } from './top-bar.tsx';
import { WorkbenchHome } from './workbench-home.tsx';
import { useTemplateAppActions } from '../../template/use-template-app-actions.tsx';
import { usePackageAppActions } from '../../app-package/use-package-app-actions.tsx';

// The home loads with the frame; an app's views (lists, forms and their controls: most of the workbench's code), the
// flow center, the task history and the messages load when they are opened.
const pages = {
  app: () => import('../../apps/pages/app-page.tsx').then((m) => ({ default: m.AppPage })),
  flow: () => import('../../flow-center/flow-center-page.tsx').then((m) => ({ default: m.FlowCenterPage })),
  dataPort: () => import('../../data-port/components/task-history.tsx').then((m) => ({ default: m.DataPortTasksPage })),
  messages: () => import('../../message-center/messages-page.tsx').then((m) => ({ default: m.MessagesPage })),
};
const AppPage = lazy(pages.app);
const FlowCenterPage = lazy(pages.flow);
const DataPortTasksPage = lazy(pages.dataPort);
const MessagesPage = lazy(pages.messages);

/** Loads the workbench's pages ahead (the web tests, whose first load of a page's modules is slow). */
export const preloadWorkbenchPages = () => Promise.all(Object.values(pages).map((load) => load()));

/** The workbench on PC (ui.md "Frames"): top bar, the app list at the left, the home or the open app. */
export function PcWorkbench({ info }: { info: UserInfoResult }) {
  const storageKey = paneFoldsStorageKey(info.currentEngine.engineCode, info.user.userId);
  return (
    <PaneFoldsProvider key={storageKey} storageKey={storageKey}>
      <PcWorkbenchFrame info={info} />
    </PaneFoldsProvider>
  );
}

function PcWorkbenchFrame({ info }: { info: UserInfoResult }) {
  const { token } = theme.useToken();
  const { folds, toggle } = usePaneFolds();
  const navigate = useNavigate();
  const apps = useAppList();
  const { isAdministrator, administers } = useAdminAppCodes();
  const [permissionsOf, setPermissionsOf] = useState<AppDto | null>(null);
  const actions = useAppActions({
    onCreated: (app) => navigate(`/workbench/app/${app.code}`),
    onRemoved: () => navigate('/workbench'),
  });
  const templateActions = useTemplateAppActions();
  const packageActions = usePackageAppActions();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <TopBar info={info} />
      <Layout hasSider>
        <Layout.Sider
          width={240}
          collapsible
          collapsed={folds.appList}
          collapsedWidth={56}
          trigger={null}
          theme="light"
          style={{ padding: folds.appList ? token.paddingXS : token.paddingSM, borderRight: `1px solid ${token.colorBorderSecondary}` }}
        >
          <AppList
            folded={folds.appList}
            onToggleFold={() => toggle('appList')}
            apps={apps.data?.list}
            isAdministrator={isAdministrator}
            canCreate={isAdministrator || info.user.authType === UserAuthType.AppCreator}
            administers={administers}
            onCreate={actions.createApp}
            onEdit={actions.edit}
            onCopy={(app) => void actions.copy(app)}
            onRemove={actions.remove}
            onSort={(code, preCode) => void actions.sortApp(code, preCode)}
            onPermissions={setPermissionsOf}
            moreActions={(app) => [...templateActions.moreActions(app), ...packageActions.moreActions(app)]}
            createExtra={packageActions.importButton}
          />
        </Layout.Sider>
        <Layout.Content style={{ padding: token.padding, minWidth: 0 }}>
          <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} />}>
            <Routes>
              <Route index element={<WorkbenchHome info={info} />} />
              <Route path="app/:appCode/:nodeCode?" element={<AppPage />} />
              <Route path="flow" element={<FlowCenterPage />} />
              <Route path="data-port" element={<DataPortTasksPage />} />
              <Route path="messages" element={<MessagesPage />} />
              <Route path="*" element={<WorkbenchHome info={info} />} />
            </Routes>
          </Suspense>
        </Layout.Content>
      </Layout>
      {actions.dialogs}
      {templateActions.dialogs}
      {packageActions.dialogs}
      {permissionsOf && <AppPermissionDrawer app={permissionsOf} onClose={() => setPermissionsOf(null)} />}
    </Layout>
  );
}
