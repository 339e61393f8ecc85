import { Badge, Empty, Flex, List, Tag, Typography, theme } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FORM_RUNTIME_PATH } from '@tritium/shared/constants/entry-routes';
import { useMarkMessagesRead, type MessageDto } from './message-api.ts';
import { formatRecent } from '../../lib/date-format.ts';

const CATEGORY_COLORS: Record<string, string> = { workflow: 'blue', comment: 'green', tasktip: 'gold', dataport: 'purple', automation: 'cyan', system: 'default' };

/** Where a message leads in the web app: its record (the form opens on the work item's record), or nowhere. */
export function messagePath(m: Pick<MessageDto, 'link' | 'category'>): string | null {
  if (m.link.schemaCode && m.link.objectId) return `${FORM_RUNTIME_PATH}/${encodeURIComponent(m.link.schemaCode)}/${encodeURIComponent(m.link.objectId)}`;
  if (m.category === 'dataport') return '/workbench/data-port';
  return null;
}

/** Messages newest first: a click marks one read and opens what it is about. */
export function MessageList({ messages, loading, onOpen, footer }: { messages: MessageDto[]; loading?: boolean; onOpen?: () => void; footer?: React.ReactNode }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const markRead = useMarkMessagesRead();
  const open = (m: MessageDto) => {
    if (m.state === 'unread') markRead.mutate({ messageIds: [m.messageId] });
    const path = messagePath(m);
    if (path) {
      onOpen?.();
      navigate(path);
    }
  };
  if (!loading && !messages.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('messageCenter.empty')} />;
  return (
    <List<MessageDto>
      aria-label={t('messageCenter.title')}
      loading={loading}
      dataSource={messages}
      rowKey="messageId"
      loadMore={footer}
      renderItem={(m) => (
        <List.Item
          role="button"
          aria-label={m.title}
          onClick={() => open(m)}
          style={{ cursor: 'pointer', paddingInline: token.paddingXS, background: m.state === 'unread' ? token.colorPrimaryBg : undefined }}
        >
          <Flex vertical gap={2} style={{ width: '100%', minWidth: 0 }}>
            <Flex justify="space-between" gap="small" align="center">
              <Typography.Text strong ellipsis style={{ minWidth: 0 }}>
                {m.state === 'unread' && <Badge status="processing" style={{ marginInlineEnd: 6 }} />}
                {m.title}
              </Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM, flex: 'none' }}>
                {formatRecent(m.createdTime)}
              </Typography.Text>
            </Flex>
            {m.content && (
              <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ marginBottom: 0 }}>
                {m.content}
              </Typography.Paragraph>
            )}
            <Flex gap="small" align="center">
              <Tag color={CATEGORY_COLORS[m.category]} style={{ marginInlineEnd: 0 }}>
                {t(`messageCenter.categories.${m.category}`)}
              </Tag>
              {m.senderName && (
                <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                  {t('messageCenter.from', { name: m.senderName })}
                </Typography.Text>
              )}
            </Flex>
          </Flex>
        </List.Item>
      )}
    />
  );
}
