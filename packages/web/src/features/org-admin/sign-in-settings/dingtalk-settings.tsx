import { useEffect } from 'react';
import { App, Button, Descriptions, Divider, Flex, Form, Input, Skeleton, Switch, Table, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SecretInput } from '../notification-channels/secret-input.tsx';
import { secretOrUndefined } from '../notification-channels/channels-api.ts';
import { chatApi, chatKeys, type ChatSettingDto, type ChatSettingSaveBody, type DirectorySyncSummary } from './sso-api.ts';

const PROVIDER = 'dingtalk' as const;

/** DingTalk: the app's credentials and address, then the directory sync with its preview and log. */
export function DingtalkSettings() {
  const setting = useQuery({ queryKey: chatKeys.setting(PROVIDER), queryFn: () => chatApi.load(PROVIDER) });
  if (!setting.data) return <Skeleton active paragraph={{ rows: 6 }} />;
  return (
    <Flex vertical gap="middle" style={{ maxWidth: 720 }}>
      <DingtalkForm setting={setting.data} />
      <Divider style={{ margin: 0 }} />
      <DirectorySync enabled={setting.data.enabled && setting.data.hasAppSecret} />
    </Flex>
  );
}

function DingtalkForm({ setting }: { setting: ChatSettingDto }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Omit<ChatSettingSaveBody, 'provider'>>();
  const initial = { ...setting, appSecret: '' };
  useEffect(() => form.setFieldsValue({ ...setting, appSecret: '' }), [setting, form]);
  const save = useMutation({
    mutationFn: (values: Omit<ChatSettingSaveBody, 'provider'>) =>
      chatApi.save({ provider: PROVIDER, enabled: values.enabled, baseUrl: values.baseUrl ?? '', appKey: values.appKey, appSecret: secretOrUndefined(values.appSecret), corpId: values.corpId ?? '', agentId: values.agentId ?? '' }),
    onSuccess: (result) => {
      queryClient.setQueryData(chatKeys.setting(PROVIDER), result);
      void message.success(t('signInSettings.saved'));
    },
  });
  return (
    <Form form={form} name="dingtalk" layout="vertical" initialValues={initial} onFinish={(values) => save.mutate(values)}>
      <Typography.Paragraph type="secondary">{t('signInSettings.dingtalk.intro')}</Typography.Paragraph>
      <Form.Item name="enabled" label={t('signInSettings.dingtalk.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="appKey" label="AppKey" rules={[{ required: true, whitespace: true, message: t('signInSettings.dingtalk.appKeyRequired') }]}>
        <Input maxLength={255} autoComplete="off" />
      </Form.Item>
      <Form.Item name="appSecret" label="AppSecret" extra={setting.hasAppSecret ? t('notificationChannels.keepHint') : undefined}>
        <SecretInput isSet={setting.hasAppSecret} />
      </Form.Item>
      <Flex gap="middle">
        <Form.Item name="corpId" label="CorpId" style={{ flex: 1 }}>
          <Input maxLength={255} />
        </Form.Item>
        <Form.Item name="agentId" label="AgentId" style={{ flex: 1 }}>
          <Input maxLength={64} />
        </Form.Item>
      </Flex>
      <Form.Item name="baseUrl" label={t('signInSettings.dingtalk.baseUrl')} extra={t('signInSettings.dingtalk.baseUrlHint', { url: setting.defaultBaseUrl })} rules={[{ type: 'url', message: t('signInSettings.sso.urlInvalid') }]}>
        <Input placeholder={setting.defaultBaseUrl} maxLength={2000} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.isPending}>
        {t('signInSettings.save')}
      </Button>
    </Form>
  );
}

function SummaryView({ summary }: { summary: DirectorySyncSummary }) {
  const { t } = useTranslation();
  const { departments: d, users: u, managers: m } = summary;
  return (
    <Descriptions size="small" column={1} bordered>
      <Descriptions.Item label={t('signInSettings.sync.departments')}>{t('signInSettings.sync.departmentCounts', d)}</Descriptions.Item>
      <Descriptions.Item label={t('signInSettings.sync.users')}>{t('signInSettings.sync.userCounts', u)}</Descriptions.Item>
      <Descriptions.Item label={t('signInSettings.sync.managers')}>{m.updated}</Descriptions.Item>
    </Descriptions>
  );
}

function DirectorySync({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const preview = useMutation({ mutationFn: () => chatApi.preview(PROVIDER) });
  const log = useQuery({
    queryKey: chatKeys.log(PROVIDER),
    queryFn: () => chatApi.log(PROVIDER),
    // While a sync waits or runs, its row is read again every two seconds.
    refetchInterval: (query) => (query.state.data?.list.some((r) => r.state === 'Waiting' || r.state === 'Running') ? 2000 : false),
  });
  const sync = useMutation({
    mutationFn: () => chatApi.sync(PROVIDER),
    onSuccess: () => {
      void message.success(t('signInSettings.sync.started'));
      preview.reset();
      void queryClient.invalidateQueries({ queryKey: chatKeys.log(PROVIDER) });
    },
  });
  return (
    <Flex vertical gap="middle">
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('signInSettings.sync.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('signInSettings.sync.intro')}
      </Typography.Paragraph>
      <Flex gap="small">
        <Button disabled={!enabled} loading={preview.isPending} onClick={() => preview.mutate()}>
          {t('signInSettings.sync.preview')}
        </Button>
        <Button type="primary" disabled={!enabled} loading={sync.isPending} onClick={() => sync.mutate()}>
          {t('signInSettings.sync.run')}
        </Button>
      </Flex>
      {preview.data && <SummaryView summary={preview.data} />}
      <Table
        size="small"
        rowKey="jobId"
        pagination={false}
        loading={log.isLoading}
        dataSource={log.data?.list ?? []}
        locale={{ emptyText: t('signInSettings.sync.noRuns') }}
        columns={[
          { title: t('signInSettings.sync.time'), dataIndex: 'createdTime', render: (v: string) => new Date(v).toLocaleString() },
          { title: t('signInSettings.sync.state'), dataIndex: 'state', render: (v: string) => t(`signInSettings.sync.states.${v}`, { defaultValue: v }) },
          {
            title: t('signInSettings.sync.result'),
            key: 'result',
            render: (_: unknown, r) => (r.result ? t('signInSettings.sync.resultLine', { ...r.result.users, departments: r.result.departments.created + r.result.departments.updated, seconds: (r.result.durationMs / 1000).toFixed(1) }) : (r.message ?? '')),
          },
        ]}
      />
    </Flex>
  );
}
