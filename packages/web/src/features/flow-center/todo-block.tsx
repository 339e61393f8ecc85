import { Empty, Flex, List, Skeleton, Typography, theme } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useFlowList } from './flow-center-api.ts';
import { FlowName } from './flow-cells.tsx';
import { formatDateTime } from '../../lib/date-format.ts';

/** The workbench home's 待办 block: my five newest todos and the way to the flow center. */
export function TodoBlock() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const list = useFlowList({ tab: 'todo', pageIndex: 0, pageSize: 5 }, { quiet: true });
  if (list.isLoading) return <Skeleton active paragraph={{ rows: 2 }} title={false} />;
  const rows = list.data?.list ?? [];
  return (
    <Flex vertical>
      {rows.length ? (
        <List
          size="small"
          dataSource={rows}
          rowKey={(r) => r.workItemId ?? r.instanceId}
          renderItem={(r) => (
            <List.Item extra={<Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>{formatDateTime(r.receivedTime)}</Typography.Text>}>
              <Flex gap="small" align="center" style={{ minWidth: 0 }}>
                <FlowName row={r} />
                <Typography.Text type="secondary">{r.formName}</Typography.Text>
              </Flex>
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('flowCenter.empty.todo')} />
      )}
      <Link to="/workbench/flow?tab=todo" style={{ alignSelf: 'flex-end', marginTop: token.marginXS }}>
        {t('flowCenter.viewAll', { count: list.data?.total ?? 0 })}
      </Link>
    </Flex>
  );
}
