import { Flex, Skeleton, Tabs, Typography } from 'antd';
import { NotificationOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { channelKeys, channelsApi } from './channels-api.ts';
import { EmailChannelForm } from './email-channel-form.tsx';
import { SmsChannelForm } from './sms-channel-form.tsx';
import { RobotList } from './robot-list.tsx';
import { ChatAppChannelForm } from './chat-app-channel-form.tsx';
import { PreferencesForm } from '../../message-center/preferences-form.tsx';
import { DeliveryLog } from '../../message-center/delivery-log.tsx';

/**
 * /admin/notification-channels: how notifications leave the app — e-mail, SMS and chat robots —, the organisation's
 * default channels per category, and the delivery log (issue 20).
 */
export function NotificationChannelsPage() {
  const { t } = useTranslation();
  const channels = useQuery({ queryKey: channelKeys.list, queryFn: channelsApi.list });
  return (
    <Flex vertical gap="middle">
      <Typography.Title level={4} style={{ margin: 0 }}>
        <NotificationOutlined /> {t('notificationChannels.title')}
      </Typography.Title>
      {channels.data ? (
        <Tabs
          items={[
            { key: 'email', label: t('notificationChannels.tabs.email'), children: <EmailChannelForm email={channels.data.email} /> },
            { key: 'sms', label: t('notificationChannels.tabs.sms'), children: <SmsChannelForm sms={channels.data.sms} /> },
            { key: 'robot', label: t('notificationChannels.tabs.robot'), children: <RobotList robots={channels.data.robots} /> },
            { key: 'chatApp', label: t('chatApps.tab'), children: <ChatAppChannelForm /> },
            { key: 'defaults', label: t('messageCenter.deliveries.defaultsTab'), children: <PreferencesForm engine /> },
            { key: 'deliveries', label: t('messageCenter.deliveries.tab'), children: <DeliveryLog /> },
          ]}
        />
      ) : (
        <Skeleton active paragraph={{ rows: 8 }} />
      )}
    </Flex>
  );
}
