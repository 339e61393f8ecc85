import { Flex, Skeleton, Tabs, Typography } from 'antd';
import { LoginOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ssoApi, ssoKeys } from './sso-api.ts';
import { SsoSettingsForm } from './sso-settings-form.tsx';
import { ChatPlatformSettings } from './chat-platform-settings.tsx';

/**
 * /admin/sign-in: how people of the organisation may sign in besides their mobile number — the enterprise identity
 * provider (OpenID Connect) first; the chat platforms join as tabs of their own (issue 25).
 */
export function SignInSettingsPage() {
  const { t } = useTranslation();
  const sso = useQuery({ queryKey: ssoKeys.setting, queryFn: ssoApi.load });
  return (
    <Flex vertical gap="middle">
      <Typography.Title level={4} style={{ margin: 0 }}>
        <LoginOutlined /> {t('signInSettings.title')}
      </Typography.Title>
      {sso.data ? (
        <Tabs
          items={[
            { key: 'sso', label: t('signInSettings.tabs.sso'), children: <SsoSettingsForm setting={sso.data} /> },
            ...(['dingtalk', 'wxwork', 'feishu', 'wechat'] as const).map((provider) => ({ key: provider, label: t(`signInSettings.tabs.${provider}`), children: <ChatPlatformSettings provider={provider} /> })),
          ]}
        />
      ) : (
        <Skeleton active paragraph={{ rows: 8 }} />
      )}
    </Flex>
  );
}
