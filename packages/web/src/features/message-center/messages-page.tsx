import { useState } from 'react';
import { Button, Card, Flex, Pagination, Segmented, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MESSAGE_CATEGORIES, type MessageCategory } from '@tritium/shared/constants/messages';
import { useMarkMessagesRead, useMessageCount, useMessages, type MessageState } from './message-api.ts';
import { MessageList } from './message-list.tsx';

const PAGE_SIZE = 20;

/** The message center's page (/workbench/messages): unread, read or all, by category, paged. */
export function MessagesPage() {
  const { t } = useTranslation();
  const [state, setState] = useState<MessageState>('all');
  const [category, setCategory] = useState<MessageCategory | undefined>();
  const [page, setPage] = useState(0);
  const messages = useMessages({ pageIndex: page, pageSize: PAGE_SIZE, state, category });
  const count = useMessageCount().data;
  const markRead = useMarkMessagesRead();
  const unreadOf = (c: MessageCategory) => count?.categories.find((x) => x.category === c)?.unread ?? 0;
  return (
    <Card
      title={<Typography.Title level={4} style={{ margin: 0 }}>{t('messageCenter.title')}</Typography.Title>}
      extra={
        <Button disabled={!count?.unread} loading={markRead.isPending} onClick={() => markRead.mutate({ all: true, ...(category ? { category } : {}) })}>
          {t('messageCenter.markAll')}
        </Button>
      }
    >
      <Flex vertical gap="middle">
        <Flex gap="middle" wrap align="center">
          <Segmented<MessageState>
            value={state}
            onChange={(v) => {
              setState(v);
              setPage(0);
            }}
            options={[
              { value: 'all', label: t('messageCenter.all') },
              { value: 'unread', label: `${t('messageCenter.unread')}${count?.unread ? ` ${count.unread}` : ''}` },
              { value: 'read', label: t('messageCenter.read') },
            ]}
          />
          <Select<MessageCategory | 'all'>
            aria-label={t('messageCenter.allCategories')}
            value={category ?? 'all'}
            style={{ width: 180 }}
            onChange={(v) => {
              setCategory(v === 'all' ? undefined : v);
              setPage(0);
            }}
            options={[
              { value: 'all', label: t('messageCenter.allCategories') },
              ...MESSAGE_CATEGORIES.map((c) => ({ value: c, label: `${t(`messageCenter.categories.${c}`)}${unreadOf(c) ? ` (${unreadOf(c)})` : ''}` })),
            ]}
          />
        </Flex>
        <MessageList messages={messages.data?.list ?? []} loading={messages.isLoading} />
        {(messages.data?.total ?? 0) > PAGE_SIZE && (
          <Pagination align="end" current={page + 1} pageSize={PAGE_SIZE} total={messages.data?.total ?? 0} showSizeChanger={false} onChange={(p) => setPage(p - 1)} />
        )}
      </Flex>
    </Card>
  );
}
