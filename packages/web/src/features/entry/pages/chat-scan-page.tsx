import { Result, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/api-error.ts';
import { authApi, type ChatPlatform } from '../api/auth-api.ts';
import { BackToLoginButton, BackToLoginLink } from '../components/back-to-login.tsx';
import { ScanLoginForm } from '../components/scan-login-form.tsx';
import { BindMobileForm } from '../components/bind-mobile-form.tsx';
import { WechatAccountScan } from '../components/wechat-account-scan.tsx';
import { useProviderCallback } from '../hooks/use-provider-callback.ts';

// The platform's answer (code — DingTalk: authCode — and state) is handed to the server once: a state can be used
// only once, so the page must not send it twice (React runs effects twice in development).
const FORWARDED = ['code', 'authCode', 'state'] as const;

/**
 * /entry/login/dingtalk, /wxwork, /feishu, /wechat: where the platform's QR page sends the browser back after the scan; opened
 * without its answer, the page offers the QR login of that platform.
 */
export function ChatScanPage({ platform }: { platform: ChatPlatform }) {
  const [params] = useSearchParams();
  // WeChat by the organisation's official account: the QR code is shown here (decision 0097).
  const scene = params.get('scene');
  if (platform === 'wechat' && scene) return <WechatAccountScan scene={scene} engineCode={params.get('engineCode') ?? ''} />;
  if (!params.get('state')) return <ScanStart platform={platform} />;
  return <ScanCallback platform={platform} />;
}

function ScanStart({ platform }: { platform: ChatPlatform }) {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Paragraph type="secondary">{t('scan.pageIntro', { name: t(`scan.names.${platform}`) })}</Typography.Paragraph>
      <ScanLoginForm platforms={[platform]} />
      <BackToLoginLink />
    </>
  );
}

function ScanCallback({ platform }: { platform: ChatPlatform }) {
  const { t } = useTranslation();
  const complete = useProviderCallback(FORWARDED, (query) => authApi.chatScanComplete(platform, query));

  if (complete.isError) {
    const error = complete.error;
    const ticket = isApiError(error) && error.errorCode === 200504 ? (error.detail as { securityToken?: string } | undefined)?.securityToken : undefined;
    if (ticket) return <BindMobileForm securityToken={ticket} />;
    return (
      <Result
        status="error"
        title={t('scan.failed')}
        subTitle={isApiError(error) ? error.message : t('ssoCallback.unreachable')}
        extra={<BackToLoginButton primary labelKey="common.signInAgain" />}
      />
    );
  }
  return <Result icon={<Spin size="large" />} title={t('scan.signingIn')} />;
}
