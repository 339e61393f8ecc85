import { Flex, Skeleton, Tabs, Typography } from 'antd';
import { NotificationOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { channelKeys, channelsApi } from './channels-api.ts';
import { EmailChannelForm } from './email-channel-form.tsx';
import { SmsChannelForm } from './sms-channel-form.tsx';
import { RobotList } from './robot-list.tsx';

/** /admin/notification-channels: how notifications leave the app — e-mail, SMS and chat robots (issue 20). */
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
          ]}
        />
      ) : (
        <Skeleton active paragraph={{ rows: 8 }} />
      )}
    </Flex>
  );
}
