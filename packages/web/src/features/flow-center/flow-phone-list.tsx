import { Button, Empty, Flex, List, Typography, theme } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { FlowCenterRow, FlowCenterTab } from './flow-center-api.ts';
import { CurrentActivities, Deadline, FlowName, FlowState, recordPath } from './flow-cells.tsx';
import { formatDateTime } from '../../lib/date-format.ts';

interface Props {
  tab: FlowCenterTab;
  rows: FlowCenterRow[];
  loading: boolean;
  hasMore: boolean;
  onMore: () => void;
}

/** A flow-center tab on a phone: a list of cards; a tap opens the record; more rows load at the bottom. */
export function FlowPhoneList({ tab, rows, loading, hasMore, onMore }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  if (!loading && !rows.length) return <Empty style={{ paddingTop: 64 }} description={t(`flowCenter.empty.${tab}`)} />;
  return (
    <List<FlowCenterRow>
      loading={loading && !rows.length}
      dataSource={rows}
      rowKey={(row) => row.workItemId ?? row.instanceId}
      loadMore={
        hasMore ? (
          <Flex justify="center" style={{ padding: token.paddingSM }}>
            <Button onClick={onMore} loading={loading}>
              {t('flowCenter.loadMore')}
            </Button>
          </Flex>
        ) : null
      }
      renderItem={(row) => (
        <List.Item
          onClick={() => navigate(recordPath(row))}
          style={{ background: token.colorBgContainer, padding: `${token.paddingSM}px ${token.padding}px`, cursor: 'pointer' }}
        >
          <Flex vertical gap={4} style={{ width: '100%', minWidth: 0 }}>
            <Flex justify="space-between" align="center" gap="small">
              <FlowName row={row} />
              <FlowState row={row} />
            </Flex>
            <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
              {row.formName} · {row.originatorName} · <CurrentActivities row={row} />
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
              {formatDateTime(tab === 'done' ? row.itemFinishedTime : row.receivedTime)}
            </Typography.Text>
            {tab === 'todo' && row.dueTime && (
              <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                {t('flowCenter.columns.deadline')}：<Deadline row={row} />
              </Typography.Text>
            )}
          </Flex>
        </List.Item>
      )}
    />
  );
}
