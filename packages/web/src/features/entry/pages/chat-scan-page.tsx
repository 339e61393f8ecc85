import { useEffect, useRef } from 'react';
import { Result, Spin, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/api-error.ts';
import { authApi, type ChatPlatform } from '../api/auth-api.ts';
import { BackToLoginButton, BackToLoginLink } from '../components/back-to-login.tsx';
import { ScanLoginForm } from '../components/scan-login-form.tsx';
import { useStartSession } from '../hooks/use-complete-sign-in.ts';
import { DEFAULT_AFTER_SIGN_IN, safeRedirectTarget } from '../redirect-target.ts';

// The platform's answer (code — DingTalk: authCode — and state) is handed to the server once: a state can be used
// only once, so the page must not send it twice (React runs effects twice in development).
const FORWARDED = ['code', 'authCode', 'state'] as const;

/**
 * /entry/login/dingtalk, /wxwork, /feishu: where the platform's QR page sends the browser back after the scan; opened
 * without its answer, the page offers the QR login of that platform.
 */
export function ChatScanPage({ platform }: { platform: ChatPlatform }) {
  const [params] = useSearchParams();
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
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const beginSession = useStartSession();
  const sent = useRef(false);
  const complete = useMutation({
    mutationFn: (query: Record<string, string>) => authApi.chatScanComplete(platform, query),
    onSuccess: (result) => {
      beginSession(result);
      navigate(safeRedirectTarget(result.returnTo) ?? DEFAULT_AFTER_SIGN_IN, { replace: true });
    },
  });
  const { mutate } = complete;
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const query: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = params.get(name);
      if (value !== null) query[name] = value;
    }
    mutate(query);
  }, [params, mutate]);

  if (complete.isError) {
    const error = complete.error;
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
