import { Button, Form, Result, Spin, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/api-error.ts';
import { authApi, type ChatPlatform } from '../api/auth-api.ts';
import { BackToLoginButton, BackToLoginLink } from '../components/back-to-login.tsx';
import { ScanLoginForm } from '../components/scan-login-form.tsx';
import { MobileField } from '../components/mobile-field.tsx';
import { VerifyCodeField } from '../components/verify-code-field.tsx';
import { FormErrorAlert } from '../components/form-error-alert.tsx';
import { useFormError } from '../hooks/use-form-error.ts';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in.ts';
import { useProviderCallback } from '../hooks/use-provider-callback.ts';

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

interface BindValues {
  mobile: string;
  code: string;
}
const BIND_FIELDS = ['mobile', 'code'] as const;

/** The platform gave no mobile number: the person proves the number their organisation knows, once (200504). */
function BindMobileForm({ securityToken }: { securityToken: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<BindValues>();
  const completeSignIn = useCompleteSignIn();
  const { formError, showError, clearError } = useFormError(form, BIND_FIELDS);
  const bind = useMutation({ mutationFn: authApi.bindMobile, onSuccess: completeSignIn, onError: showError });
  return (
    <>
      <Typography.Paragraph type="secondary">{t('scan.bindIntro')}</Typography.Paragraph>
      <Form form={form} name="bindMobile" layout="vertical" requiredMark={false} onFinish={(v) => { clearError(); bind.mutate({ securityToken, mobile: v.mobile.trim(), code: v.code.trim() }); }}>
        <MobileField />
        <VerifyCodeField form={form} formName="bindMobile" scene="bind" onError={showError} sendCode={(mobile) => authApi.bindMobileCode(securityToken, mobile)} />
        <FormErrorAlert message={formError} />
        <Button type="primary" htmlType="submit" block loading={bind.isPending}>
          {t('scan.bindSubmit')}
        </Button>
      </Form>
    </>
  );
}
