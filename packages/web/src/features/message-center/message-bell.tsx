import { useState } from 'react';
import { Badge, Button, Drawer, Flex, Segmented } from 'antd';
import { BellOutlined, SettingOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { badgeText, useMarkMessagesRead, useMessageCount, useMessages, type MessageState } from './message-api.ts';
import { MessageList } from './message-list.tsx';
import { PreferencesForm } from './preferences-form.tsx';

/** The top bar's bell: unread messages as a badge (at most "99+"), the latest in a drawer, the full page behind it. */
export function MessageBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<MessageState>('unread');
  const [settings, setSettings] = useState(false);
  const count = useMessageCount().data?.unread ?? 0;
  const messages = useMessages({ pageIndex: 0, pageSize: 20, state }, open);
  const markRead = useMarkMessagesRead();
  return (
    <>
      <Badge count={badgeText(count)} size="small" offset={[-4, 4]}>
        <Button type="text" icon={<BellOutlined />} aria-label={count ? `${t('messageCenter.bell')} ${count}` : t('messageCenter.bell')} onClick={() => setOpen(true)} />
      </Badge>
      <Drawer
        title={t('messageCenter.title')}
        open={open}
        onClose={() => setOpen(false)}
        size={400}
        extra={
          <Flex gap="small">
            <Button size="small" type="link" disabled={!count} loading={markRead.isPending} onClick={() => markRead.mutate({ all: true })}>
              {t('messageCenter.markAll')}
            </Button>
            <Button size="small" type="text" icon={<SettingOutlined />} aria-label={t('messageCenter.preferences.open')} onClick={() => setSettings(true)} />
          </Flex>
        }
        footer={
          <Button
            type="link"
            block
            onClick={() => {
              setOpen(false);
              navigate('/workbench/messages');
            }}
          >
            {t('messageCenter.viewAll')}
          </Button>
        }
      >
        <Flex vertical gap="small">
          <Segmented<MessageState>
            value={state}
            onChange={setState}
            options={[
              { value: 'unread', label: t('messageCenter.unread') },
              { value: 'all', label: t('messageCenter.all') },
            ]}
          />
          <MessageList messages={messages.data?.list ?? []} loading={messages.isLoading} onOpen={() => setOpen(false)} />
        </Flex>
        <Drawer title={t('messageCenter.preferences.title')} open={settings} onClose={() => setSettings(false)} size={480}>
          {settings && <PreferencesForm />}
        </Drawer>
      </Drawer>
    </>
  );
}
