import { lazy, Suspense, type ReactNode } from 'react';
import { Button, Empty, Skeleton } from 'antd';
import { ExportOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { contracts } from '@tritium/shared';
import { useTranslation } from 'react-i18next';
import { appKeys, appsApi, type WorkbenchComponent } from '../../apps/api/apps-api.ts';
import { AppGrid } from '../../apps/components/app-grid.tsx';
import { useAdminAppCodes, useAppList } from '../../apps/hooks/use-apps.ts';
import type { zhCN } from '../../../locales/zh-CN.ts';
import { RecentActivity } from './recent-activity.tsx';
import { TodoBlock } from '../../flow-center/todo-block.tsx';
import { MessagesBlock } from '../../message-center/messages-block.tsx';

// A dashboard block loads the board's code (charts, the drill-down list) only where a home has one.
const BoardView = lazy(() => import('../../dashboard/board-view.tsx').then((m) => ({ default: m.BoardView })));

type ComponentType = (typeof contracts.WORKBENCH_COMPONENT_TYPES)[number];
type TitleKey = keyof typeof zhCN.workbench.components;

/** How each kind of workbench block is titled and drawn; the one place a new kind is added. */
export const HOME_COMPONENTS: Record<ComponentType, { title: TitleKey; render: (component: WorkbenchComponent) => ReactNode }> = {
  appList: { title: 'appList', render: () => <AppsBlock /> },
  recentActivity: { title: 'recentActivity', render: () => <RecentActivity /> },
  shortcuts: { title: 'shortcuts', render: () => <RecentActivity order="frequent" limit={6} /> },
  todo: { title: 'todo', render: () => <TodoBlock /> },
  messages: { title: 'messages', render: () => <MessagesBlock /> },
  dashboard: { title: 'dashboard', render: (component) => (component.nodeCode ? <Suspense fallback={<Skeleton active />}><BoardView code={component.nodeCode} compact /></Suspense> : <Pending text="dashboard" />) },
  customLink: { title: 'customLink', render: (component) => <LinkBlock code={component.nodeCode} /> },
};

function AppsBlock() {
  const apps = useAppList();
  const { isAdministrator } = useAdminAppCodes();
  return apps.data ? <AppGrid apps={apps.data.list} columns={8} isAdministrator={isAdministrator} /> : <Skeleton active paragraph={{ rows: 2 }} title={false} />;
}

/** A block whose feature has not landed says what will appear in it. */
function Pending({ text }: { text: keyof typeof zhCN.workbench.pending }) {
  const { t } = useTranslation();
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(`workbench.pending.${text}`)} />;
}

function LinkBlock({ code }: { code: string | undefined }) {
  const { t } = useTranslation();
  const node = useQuery({
    queryKey: [...appKeys.all, 'bycodes', code],
    queryFn: () => appsApi.nodesByCodes([code!]),
    enabled: !!code,
    select: (result) => result.list[0],
  });
  if (!code || (node.isSuccess && !node.data?.url)) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workbench.home.linkMissing')} />;
  if (!node.data) return <Skeleton active paragraph={{ rows: 1 }} title={false} />;
  return (
    <Button type="link" icon={<ExportOutlined />} href={node.data.url!} target="_blank" rel="noopener noreferrer">
      {node.data.displayName}
    </Button>
  );
}
