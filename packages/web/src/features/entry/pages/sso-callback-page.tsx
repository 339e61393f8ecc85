import { Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { authApi } from '../api/auth-api.ts';
import { BackToLoginButton } from '../components/back-to-login.tsx';
import { useProviderCallback } from '../hooks/use-provider-callback.ts';
import { withSsoBrowserKey } from '../sso-browser-key.ts';

// The identity provider's answer (code, state, iss — or error; for SAML the one-use code the assertion consumer
// handed over) is handed to the server once: a state can be used only once, so the page must not send it twice
// (React runs effects twice in development).
const FORWARDED = ['code', 'state', 'iss', 'error', 'error_description', 'saml'] as const;

/** /entry/login/sso/callback: where the organisation's identity provider sends the browser back after sign-in. */
export function SsoCallbackPage() {
  const { t } = useTranslation();
  const complete = useProviderCallback(FORWARDED, (query) => authApi.ssoComplete(withSsoBrowserKey(query)));

  if (complete.isError) {
    const error = complete.error;
    return (
      <Result
        status="error"
        title={t('ssoCallback.failed')}
        subTitle={isApiError(error) ? error.message : t('ssoCallback.unreachable')}
        extra={<BackToLoginButton primary labelKey="common.signInAgain" />}
      />
    );
  }
  return (
    <Result icon={<Spin size="large" />} title={t('ssoCallback.signingIn')} />
  );
}
