import { useState } from 'react';
import { Badge, Button, Empty, Flex, List, Typography, theme } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMarkRead, useReminders, type RemindTaskDto } from './flow-center-api.ts';
import { formatTime, recordPath } from './flow-cells.tsx';

const PAGE = 20;

/** My reminders, newest first: a tap marks one read and opens its record; "全部已读" marks them all. */
export function ReminderList({ onOpen }: { onOpen?: () => void }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [size, setSize] = useState(PAGE);
  const reminders = useReminders(0, size);
  const markRead = useMarkRead();
  const rows = reminders.data?.list ?? [];
  const hasUnread = rows.some((r) => r.taskState === 'unread');

  const open = (r: RemindTaskDto) => {
    if (r.taskState === 'unread') markRead.mutate({ taskIds: [r.taskId] });
    if (r.schemaCode && r.objectId) {
      onOpen?.();
      navigate(recordPath({ schemaCode: r.schemaCode, objectId: r.objectId }));
    }
  };

  return (
    <Flex vertical style={{ width: '100%' }}>
      <Flex justify="space-between" align="center" style={{ padding: `${token.paddingXS}px 0` }}>
        <Typography.Text strong>{t('flowCenter.reminders.title')}</Typography.Text>
        <Button size="small" type="link" disabled={!hasUnread} loading={markRead.isPending} onClick={() => markRead.mutate({ all: true })}>
          {t('flowCenter.reminders.markAll')}
        </Button>
      </Flex>
      {!reminders.isLoading && !rows.length ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('flowCenter.reminders.empty')} />
      ) : (
        <List<RemindTaskDto>
          loading={reminders.isLoading}
          dataSource={rows}
          rowKey="taskId"
          loadMore={
            reminders.data?.hasMore ? (
              <Flex justify="center" style={{ padding: token.paddingXS }}>
                <Button size="small" onClick={() => setSize((s) => Math.min(100, s + PAGE))}>
                  {t('flowCenter.loadMore')}
                </Button>
              </Flex>
            ) : null
          }
          renderItem={(r) => (
            <List.Item
              role="button"
              aria-label={`${t(`flowCenter.reminders.kinds.${r.kind}`)} ${r.instanceName}`}
              onClick={() => open(r)}
              style={{ cursor: 'pointer', paddingInline: token.paddingXS, background: r.taskState === 'unread' ? token.colorPrimaryBg : undefined }}
            >
              <Flex vertical gap={2} style={{ width: '100%', minWidth: 0 }}>
                <Flex justify="space-between" gap="small">
                  <Typography.Text strong ellipsis>
                    {r.taskState === 'unread' && <Badge status="processing" style={{ marginInlineEnd: 6 }} />}
                    {t(`flowCenter.reminders.kinds.${r.kind}`)}：{r.instanceName}
                  </Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM, flex: 'none' }}>
                    {formatTime(r.createdTime, i18n.language)}
                  </Typography.Text>
                </Flex>
                {r.content && <Typography.Text>{r.content}</Typography.Text>}
                {r.senderName && (
                  <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                    {t('flowCenter.reminders.from', { name: r.senderName })}
                  </Typography.Text>
                )}
              </Flex>
            </List.Item>
          )}
        />
      )}
    </Flex>
  );
}
