import { useEffect, useRef } from 'react';
import { Result, Spin } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/api-error.ts';
import { authApi } from '../api/auth-api.ts';
import { BackToLoginButton } from '../components/back-to-login.tsx';
import { useStartSession } from '../hooks/use-complete-sign-in.ts';
import { DEFAULT_AFTER_SIGN_IN, safeRedirectTarget } from '../redirect-target.ts';

// The identity provider's answer (code, state, iss — or error) is handed to the server once: a state can be used
// only once, so the page must not send it twice (React runs effects twice in development).
const FORWARDED = ['code', 'state', 'iss', 'error', 'error_description'] as const;

/** /entry/login/sso/callback: where the organisation's identity provider sends the browser back after sign-in. */
export function SsoCallbackPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const beginSession = useStartSession();
  const sent = useRef(false);
  const complete = useMutation({
    mutationFn: authApi.ssoComplete,
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
