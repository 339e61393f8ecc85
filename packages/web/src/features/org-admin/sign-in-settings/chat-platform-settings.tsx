import { useEffect } from 'react';
import { App, Button, Descriptions, Divider, Flex, Form, Input, Skeleton, Switch, Table, Typography } from 'antd';
import { contracts } from '@tritium/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SecretInput } from '../notification-channels/secret-input.tsx';
import { secretOrUndefined } from '../notification-channels/channels-api.ts';
import { chatApi, chatKeys, type ChatSettingDto, type ChatSettingSaveBody, type DirectorySyncSummary } from './sso-api.ts';
import { DingtalkShortcuts } from './dingtalk-shortcuts.tsx';
import { WechatAccountFields, WechatMethodField } from './wechat-account-fields.tsx';
import { formatDateTimeSeconds } from '../../../lib/date-format.ts';

type Provider = contracts.ChatProviderName;
const { DIRECTORY_PROVIDERS } = contracts;

/**
 * How each platform names the app's credentials (its console's words): WeCom's key is the CorpID with the app's
 * Secret and AgentId; Feishu's the App ID and App Secret. Fields a platform does not use are not shown.
 */
const LABELS: Record<Provider, { appKey: string; appSecret: string; corpId?: string; agentId?: string }> = {
  dingtalk: { appKey: 'AppKey', appSecret: 'AppSecret', corpId: 'CorpId', agentId: 'AgentId' },
  wxwork: { appKey: 'CorpID', appSecret: 'Secret', agentId: 'AgentId' },
  feishu: { appKey: 'App ID', appSecret: 'App Secret' },
  wechat: { appKey: 'AppID', appSecret: 'AppSecret' },
};

/** A chat platform: the app's credentials, address and callback, then the directory sync with its preview and log. */
export function ChatPlatformSettings({ provider }: { provider: Provider }) {
  const setting = useQuery({ queryKey: chatKeys.setting(provider), queryFn: () => chatApi.load(provider) });
  if (!setting.data) return <Skeleton active paragraph={{ rows: 6 }} />;
  const usable = setting.data.enabled && setting.data.hasAppSecret;
  return (
    <Flex vertical gap="middle" style={{ maxWidth: 720 }}>
      <PlatformForm provider={provider} setting={setting.data} />
      {(DIRECTORY_PROVIDERS as readonly Provider[]).includes(provider) && (
        <>
          <Divider style={{ margin: 0 }} />
          <DirectorySync provider={provider} enabled={usable} pending={setting.data.callbackUrl ? setting.data.pendingEvents : undefined} />
        </>
      )}
      {provider === 'dingtalk' && (
        <>
          <Divider style={{ margin: 0 }} />
          <DingtalkShortcuts />
        </>
      )}
    </Flex>
  );
}

function PlatformForm({ provider, setting }: { provider: Provider; setting: ChatSettingDto }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Omit<ChatSettingSaveBody, 'provider'>>();
  const initial = { ...setting, appSecret: '', callbackToken: '', callbackAesKey: '' };
  const labels = LABELS[provider];
  // The page of this site the platform sends the browser back to after a QR scan: registered with the platform.
  const callbackUrl = `${window.location.origin}/entry/login/${provider}`;
  // WeChat by its official account: no redirect to register; the account pushes its scans instead (decision 0097).
  const method = Form.useWatch('wechatMethod', form) ?? setting.wechatMethod;
  const isOfficialAccount = provider === 'wechat' && method === 'officialAccount';
  useEffect(() => form.setFieldsValue({ ...setting, appSecret: '', callbackToken: '', callbackAesKey: '' }), [setting, form]);
  const save = useMutation({
    mutationFn: (values: Omit<ChatSettingSaveBody, 'provider'>) =>
      chatApi.save({
        provider,
        enabled: values.enabled,
        baseUrl: values.baseUrl ?? '',
        appKey: values.appKey,
        appSecret: secretOrUndefined(values.appSecret),
        corpId: values.corpId ?? '',
        agentId: values.agentId ?? '',
        ...(provider === 'wechat' ? { wechatMethod: values.wechatMethod ?? setting.wechatMethod } : {}),
        ...(setting.callbackUrl ? { callbackToken: secretOrUndefined(values.callbackToken), callbackAesKey: secretOrUndefined(values.callbackAesKey) } : {}),
      }),
    onSuccess: (result) => {
      queryClient.setQueryData(chatKeys.setting(provider), result);
      void message.success(t('signInSettings.saved'));
    },
  });
  return (
    <Form form={form} name={provider} layout="vertical" initialValues={initial} onFinish={(values) => save.mutate(values)}>
      <Typography.Paragraph type="secondary">{t(isOfficialAccount ? 'signInSettings.wechat.officialAccountIntro' : `signInSettings.${provider}.intro`)}</Typography.Paragraph>
      <Form.Item name="enabled" label={t(`signInSettings.${provider}.enabled`)} valuePropName="checked">
        <Switch />
      </Form.Item>
      {provider === 'wechat' && <WechatMethodField />}
      <Form.Item name="appKey" label={labels.appKey} rules={[{ required: true, whitespace: true, message: t('signInSettings.credentialRequired', { label: labels.appKey }) }]}>
        <Input maxLength={255} autoComplete="off" />
      </Form.Item>
      <Form.Item name="appSecret" label={labels.appSecret} extra={setting.hasAppSecret ? t('notificationChannels.keepHint') : undefined}>
        <SecretInput isSet={setting.hasAppSecret} />
      </Form.Item>
      <Flex gap="middle">
        {labels.corpId && (
          <Form.Item name="corpId" label={labels.corpId} style={{ flex: 1 }}>
            <Input maxLength={255} />
          </Form.Item>
        )}
        {labels.agentId && (
          <Form.Item name="agentId" label={labels.agentId} style={{ flex: 1 }}>
            <Input maxLength={64} />
          </Form.Item>
        )}
      </Flex>
      <Form.Item name="baseUrl" label={t('signInSettings.baseUrl')} extra={t('signInSettings.baseUrlHint', { url: setting.defaultBaseUrl })} rules={[{ type: 'url', message: t('signInSettings.sso.urlInvalid') }]}>
        <Input placeholder={setting.defaultBaseUrl} maxLength={2000} />
      </Form.Item>
      {isOfficialAccount ? (
        <WechatAccountFields setting={setting} />
      ) : (
        <Form.Item label={t('signInSettings.scanCallback')} extra={t('signInSettings.scanCallbackHint')}>
          <Typography.Text copyable code>
            {callbackUrl}
          </Typography.Text>
        </Form.Item>
      )}
      {setting.callbackUrl && provider !== 'wechat' && <ChangeEventFields provider={provider} setting={setting} />}
      <Button type="primary" htmlType="submit" loading={save.isPending}>
        {t('signInSettings.save')}
      </Button>
    </Form>
  );
}

/**
 * The platform's change pushes: the request URL to give it, and the keys it signs and encrypts them with, named as the
 * platform's console names them (DingTalk's token and aes_key, WeCom's Token and EncodingAESKey, Feishu's
 * Verification Token and Encrypt Key).
 */
function ChangeEventFields({ provider, setting }: { provider: (typeof DIRECTORY_PROVIDERS)[number]; setting: ChatSettingDto }) {
  const { t } = useTranslation();
  const keepHint = setting.hasCallbackKeys ? t('notificationChannels.keepHint') : undefined;
  return (
    <>
      <Typography.Title level={5}>{t('signInSettings.events.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t(`signInSettings.events.intro.${provider}`)}</Typography.Paragraph>
      <Form.Item label={t('signInSettings.events.callbackUrl')}>
        <Typography.Text copyable code data-testid="directory-callback-url">
          {setting.callbackUrl}
        </Typography.Text>
      </Form.Item>
      <Flex gap="middle">
        <Form.Item name="callbackToken" label={t(`signInSettings.events.token.${provider}`)} extra={keepHint} style={{ flex: 1 }}>
          <SecretInput isSet={setting.hasCallbackKeys} />
        </Form.Item>
        <Form.Item
          name="callbackAesKey"
          label={t(`signInSettings.events.aesKey.${provider}`)}
          extra={keepHint}
          style={{ flex: 1 }}
          rules={[{ pattern: contracts.CALLBACK_KEY_PATTERNS[provider], message: t(`signInSettings.events.aesKeyInvalid.${provider}`) }]}
        >
          <SecretInput isSet={setting.hasCallbackKeys} />
        </Form.Item>
      </Flex>
    </>
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

/** `pending`: change events waiting, where the platform pushes them (absent otherwise). */
function DirectorySync({ provider, enabled, pending }: { provider: Provider; enabled: boolean; pending?: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const preview = useMutation({ mutationFn: () => chatApi.preview(provider) });
  const log = useQuery({
    queryKey: chatKeys.log(provider),
    queryFn: () => chatApi.log(provider),
    // While a sync waits or runs, its row is read again every two seconds.
    refetchInterval: (query) => (query.state.data?.list.some((r) => r.state === 'Waiting' || r.state === 'Running') ? 2000 : false),
  });
  const sync = useMutation({
    mutationFn: (mode: contracts.DirectorySyncMode) => chatApi.sync(provider, mode),
    onSuccess: () => {
      void message.success(t('signInSettings.sync.started'));
      preview.reset();
      void queryClient.invalidateQueries({ queryKey: chatKeys.log(provider) });
    },
  });
  // A finished run changes the count of events waiting.
  const finished = log.data?.list.filter((r) => r.state === 'Finished').length ?? 0;
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: chatKeys.setting(provider) });
  }, [finished, provider, queryClient]);
  return (
    <Flex vertical gap="middle">
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('signInSettings.sync.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('signInSettings.sync.intro', { name: t(`signInSettings.tabs.${provider}`) })}
      </Typography.Paragraph>
      <Flex gap="small">
        <Button disabled={!enabled} loading={preview.isPending} onClick={() => preview.mutate()}>
          {t('signInSettings.sync.preview')}
        </Button>
        <Button type="primary" disabled={!enabled} loading={sync.isPending && sync.variables === 'full'} onClick={() => sync.mutate('full')}>
          {t('signInSettings.sync.run')}
        </Button>
        {pending !== undefined && (
          <Button disabled={!enabled || !pending} loading={sync.isPending && sync.variables === 'events'} onClick={() => sync.mutate('events')}>
            {t('signInSettings.sync.runEvents')}
          </Button>
        )}
      </Flex>
      {pending !== undefined && (
        <Typography.Text type="secondary" data-testid="pending-events">
          {t('signInSettings.events.pending', { count: pending })}
        </Typography.Text>
      )}
      {preview.data && <SummaryView summary={preview.data} />}
      <Table
        size="small"
        rowKey="jobId"
        pagination={false}
        loading={log.isLoading}
        dataSource={log.data?.list ?? []}
        locale={{ emptyText: t('signInSettings.sync.noRuns') }}
        columns={[
          { title: t('signInSettings.sync.time'), dataIndex: 'createdTime', render: (v: string) => formatDateTimeSeconds(v) },
          { title: t('signInSettings.sync.mode'), dataIndex: 'mode', render: (v: contracts.DirectorySyncMode) => t(`signInSettings.sync.modes.${v}`) },
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
