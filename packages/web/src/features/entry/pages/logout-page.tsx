import { useEffect, useRef, useState } from 'react';
import { Result, Spin } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { endSession, hasToken } from '../../../lib/session.ts';
import { authApi } from '../api/auth-api.ts';
import { BackToLoginButton } from '../components/back-to-login.tsx';

/**
 * /entry/logout: revokes the token (GET /Login/Logout), then forgets the cookies and every cached answer.
 * The cookies go even when the call fails: signing out must never leave a session behind on this browser.
 */
export function LogoutPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [isDone, setIsDone] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const revoke = hasToken() ? authApi.logout().catch(() => undefined) : Promise.resolve();
    void revoke.finally(() => {
      endSession();
      queryClient.clear();
      setIsDone(true);
    });
  }, [queryClient]);

  if (!isDone) {
    return (
      <Result icon={<Spin />} title={t('logout.signingOut')} />
    );
  }
  return <Result status="success" title={t('logout.title')} subTitle={t('logout.subtitle')} extra={<BackToLoginButton primary labelKey="common.signInAgain" />} />;
}
