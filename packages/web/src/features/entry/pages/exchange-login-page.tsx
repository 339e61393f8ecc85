import { Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { authApi } from '../api/auth-api.ts';
import { BackToLoginButton } from '../components/back-to-login.tsx';
import { useProviderCallback } from '../hooks/use-provider-callback.ts';

// The code is good once: the page hands it over once (React runs effects twice in development).
const FORWARDED = ['code', 'redirectUrl'] as const;

/**
 * /entry/login/exchange?code=&redirectUrl=: the browser opened from a chat client carries on the session there
 * (GET /v1/token/exchange, decision 0079), then goes where the person was.
 */
export function ExchangeLoginPage() {
  const { t } = useTranslation();
  // Where to go afterwards is this site's own path only (the hook checks it as for every provider's answer).
  const exchange = useProviderCallback(FORWARDED, async (query) => ({ ...(await authApi.tokenExchange(query.code ?? '')), returnTo: query.redirectUrl ?? null }));
  if (exchange.isError) {
    return (
      <Result
        status="error"
        title={t('exchangeLogin.failed')}
        subTitle={isApiError(exchange.error) ? exchange.error.message : t('ssoCallback.unreachable')}
        extra={<BackToLoginButton primary labelKey="common.signInAgain" />}
      />
    );
  }
  return <Result icon={<Spin size="large" />} title={t('exchangeLogin.signingIn')} />;
}
