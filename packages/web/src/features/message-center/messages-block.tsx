import { Button, Flex } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMarkMessagesRead, useMessageCount, useMessages } from './message-api.ts';
import { MessageList } from './message-list.tsx';

const LATEST = 8;

/**
 * The workbench's 消息 block and the phone's 消息 tab: the latest messages of the message center, the same source
 * and unread count as the top bar's bell, so the two never disagree.
 */
export function MessagesBlock({ size = LATEST }: { size?: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const unread = useMessageCount().data?.unread ?? 0;
  const messages = useMessages({ pageIndex: 0, pageSize: size, state: 'all' });
  const markRead = useMarkMessagesRead();
  return (
    <Flex vertical style={{ width: '100%' }}>
      <Flex justify="flex-end" gap="small">
        <Button size="small" type="link" disabled={!unread} loading={markRead.isPending} onClick={() => markRead.mutate({ all: true })}>
          {t('messageCenter.markAll')}
        </Button>
        <Button size="small" type="link" onClick={() => navigate('/workbench/messages')}>
          {t('messageCenter.viewAll')}
        </Button>
      </Flex>
      <MessageList messages={messages.data?.list ?? []} loading={messages.isLoading} />
    </Flex>
  );
}
