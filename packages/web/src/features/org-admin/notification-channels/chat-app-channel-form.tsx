import { useEffect, useState } from 'react';
import { Alert, App, Button, Checkbox, Flex, Select, Skeleton, Space, Switch, Table, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { contracts } from '@tritium/shared';
import { apiClient } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { TestSend } from './test-send.tsx';

// Work notifications in DingTalk, WeCom and Feishu (docs/decisions/0123 "Chat apps"): the administrator switches the
// channel on and picks which of the engine's sign-in apps carry personal work messages; people then choose it per
// category of message like e-mail and SMS.

type Platform = contracts.ChatAppPlatform;
type ChatAppChannel = contracts.ChatAppChannelDto;

const PLATFORMS: Platform[] = ['dingtalk', 'wxwork', 'feishu'];
const key = ['notification-channels', 'chat-app'] as const;

export const chatAppApi = {
  load: () => apiClient.get<ChatAppChannel>('/v1/notification/channel/chat-app'),
  save: (body: contracts.ChatAppChannelSaveBody) => apiClient.post<ChatAppChannel>('/v1/notification/channel/chat-app/save', body),
  test: (body: contracts.ChatAppTestBody) => apiClient.post<contracts.ChannelTestResult>('/v1/notification/channel/chat-app/test', body),
};

export function ChatAppChannelForm() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const channel = useQuery({ queryKey: key, queryFn: chatAppApi.load });
  const [enabled, setEnabled] = useState(false);
  const [platforms, setPlatforms] = useState<Platform[]>([]);
  const [testPlatform, setTestPlatform] = useState<Platform | undefined>();
  useEffect(() => {
    if (!channel.data) return;
    setEnabled(channel.data.enabled);
    setPlatforms(channel.data.platforms);
  }, [channel.data]);
  const save = useMutation({
    mutationFn: chatAppApi.save,
    onSuccess: (result) => {
      queryClient.setQueryData(key, result);
      void message.success(t('notificationChannels.saved'));
    },
  });
  if (!channel.data) return <Skeleton active paragraph={{ rows: 5 }} />;
  const apps = channel.data.apps;
  const ready = (app: ChatAppChannel['apps'][number]) => app.configured && app.enabled && app.hasAgentId;
  const toggle = (platform: Platform, on: boolean) => setPlatforms(on ? PLATFORMS.filter((p) => p === platform || platforms.includes(p)) : platforms.filter((p) => p !== platform));
  return (
    <Flex vertical gap="middle" style={{ maxWidth: 720 }}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('chatApps.channel.intro')}
      </Typography.Paragraph>
      <Space>
        <Switch checked={enabled} onChange={setEnabled} aria-label={t('chatApps.channel.enabled')} />
        <Typography.Text>{t('chatApps.channel.enabled')}</Typography.Text>
      </Space>
      <Table<ChatAppChannel['apps'][number]>
        size="small"
        pagination={false}
        rowKey="platform"
        dataSource={apps}
        columns={[
          {
            title: t('chatApps.channel.use'),
            key: 'use',
            width: 64,
            align: 'center',
            render: (_, app) => (
              <Checkbox
                aria-label={t(`chatApps.platforms.${app.platform}`)}
                checked={platforms.includes(app.platform)}
                disabled={!ready(app) && !platforms.includes(app.platform)}
                onChange={(e) => toggle(app.platform, e.target.checked)}
              />
            ),
          },
          { title: t('chatApps.channel.platform'), dataIndex: 'platform', render: (p: Platform) => t(`chatApps.platforms.${p}`) },
          {
            title: t('chatApps.channel.app'),
            key: 'app',
            render: (_, app) =>
              ready(app) ? (
                <Tag color="success">{t('chatApps.channel.ready')}</Tag>
              ) : (
                <Tag color="warning">{!app.configured ? t('chatApps.channel.notConfigured') : !app.enabled ? t('chatApps.channel.disabled') : t('chatApps.channel.noAgentId')}</Tag>
              ),
          },
          { title: t('chatApps.channel.people'), dataIndex: 'people', align: 'right', render: (n: number) => t('chatApps.channel.peopleCount', { count: n }) },
        ]}
      />
      <Typography.Text type="secondary">
        {t('chatApps.channel.appsHint')} <Link to="/admin/sign-in">{t('chatApps.channel.toSignIn')}</Link>
      </Typography.Text>
      <Flex vertical gap="small">
        <Typography.Text type="secondary">{t('chatApps.channel.testHint')}</Typography.Text>
        <TestSend
          disabled={!testPlatform}
          sendWith={() => chatAppApi.test({ platform: testPlatform! })}
          before={
            <Select<Platform>
              aria-label={t('chatApps.channel.testPlatform')}
              placeholder={t('chatApps.channel.testPlatform')}
              style={{ width: 180 }}
              value={testPlatform}
              onChange={setTestPlatform}
              options={apps.filter(ready).map((app) => ({ value: app.platform, label: t(`chatApps.platforms.${app.platform}`) }))}
            />
          }
        />
      </Flex>
      {save.isError && <Alert type="error" showIcon title={isApiError(save.error) ? save.error.message : t('chatApps.channel.saveFailed')} />}
      <div>
        <Button type="primary" loading={save.isPending} onClick={() => save.mutate({ enabled, platforms })}>
          {t('notificationChannels.save')}
        </Button>
      </div>
    </Flex>
  );
}
