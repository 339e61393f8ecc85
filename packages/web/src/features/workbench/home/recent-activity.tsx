import { Empty, List, Skeleton, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../../apps/components/app-icon.tsx';
import type { FunctionNodeDto } from '../../apps/api/apps-api.ts';
import { isApp, nodeTypeKey } from '../../apps/node-types.ts';
import { useRecentActivity } from './use-workbench-config.ts';
import { formatRecent } from '../../../lib/date-format.ts';

export const nodePath = (node: FunctionNodeDto) => (isApp(node) ? `/workbench/app/${node.code}` : `/workbench/app/${node.appCode}/${node.code}`);

/** 最近访问: the apps and nodes the person opened, newest first (or, as shortcuts, most often first). */
export function RecentActivity({ order = 'recent', limit = 8 }: { order?: 'recent' | 'frequent'; limit?: number }) {
  const { t } = useTranslation();
  const recent = useRecentActivity();
  if (!recent.data) return <Skeleton active paragraph={{ rows: 3 }} title={false} />;
  const items = [...recent.data.list].sort((a, b) => (order === 'frequent' ? b.visitCount - a.visitCount : 0)).slice(0, limit);
  if (items.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workbench.home.recentEmpty')} />;
  return (
    <List
      size="small"
      dataSource={items}
      renderItem={({ node, lastVisitTime, visitCount }) => (
        <List.Item extra={<Typography.Text type="secondary">{order === 'frequent' ? t('workbench.home.visits', { count: visitCount }) : formatRecent(lastVisitTime)}</Typography.Text>}>
          <Link to={nodePath(node)} style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
            <AppIcon node={node} size={22} />
            <Typography.Text ellipsis>{node.displayName}</Typography.Text>
            <Typography.Text type="secondary">{t(nodeTypeKey(node.nodeType))}</Typography.Text>
          </Link>
        </List.Item>
      )}
    />
  );
}
