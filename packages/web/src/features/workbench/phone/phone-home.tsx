import { Card, Skeleton, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { AppGrid } from '../../apps/components/app-grid.tsx';
import { useAppList } from '../../apps/hooks/use-apps.ts';
import type { UserInfoResult } from '../api/workbench-api.ts';
import { SearchBox } from '../../search/search-box.tsx';
import { RecentActivity } from '../home/recent-activity.tsx';

/** 工作台 on a phone: search (nodes and records, as on a computer), the apps as an icon grid, what was opened lately. */
export function PhoneHome({ info }: { info: UserInfoResult }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const apps = useAppList();
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: token.paddingSM, padding: token.paddingSM }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {info.currentEngine.engineName}
      </Typography.Title>
      <SearchBox width="100%" />
      <Card size="small" title={t('workbench.components.appList')}>
        {apps.data ? <AppGrid apps={apps.data.list} /> : <Skeleton active paragraph={{ rows: 3 }} title={false} />}
      </Card>
      <Card size="small" title={t('workbench.components.recentActivity')}>
        <RecentActivity limit={5} />
      </Card>
    </div>
  );
}
