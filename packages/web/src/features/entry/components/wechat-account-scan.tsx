import { useEffect, useRef, useState } from 'react';
import { Button, Flex, Result, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../../lib/api-error.ts';
import { authApi } from '../api/auth-api.ts';
import { useStartSession } from '../hooks/use-complete-sign-in.ts';
import { DEFAULT_AFTER_SIGN_IN, safeRedirectTarget } from '../redirect-target.ts';
import { keepWechatSceneKey, wechatSceneKey } from '../wechat-scene-key.ts';
import { BackToLoginButton, BackToLoginLink } from './back-to-login.tsx';
import { BindMobileForm } from './bind-mobile-form.tsx';

/** Seconds each ask waits for the scan before it is asked again. */
const LONG_POLL_SECONDS = 20;
const SCENE_EXPIRED = 200703;
const BIND_NEEDED = 200504;

type View = { kind: 'loading' } | { kind: 'waiting'; qrUrl: string; expiresAt: string } | { kind: 'expired' } | { kind: 'bind'; securityToken: string } | { kind: 'failed'; message: string };

/**
 * The organisation's official-account QR code (decision 0097): shown until WeChat pushes the scan, asking the server
 * for the scene's state (each ask waits up to 20 seconds); then the session, or the number proof of a WeChat not
 * bound yet. Only this tab holds the scene's key.
 */
export function WechatAccountScan({ scene, engineCode }: { scene: string; engineCode: string }) {
  const { t } = useTranslation();
  const view = useSceneState(scene);
  if (view.kind === 'bind') return <BindMobileForm securityToken={view.securityToken} />;
  if (view.kind === 'expired') return <Result status="warning" title={t('scan.account.expired')} subTitle={t('scan.account.expiredHint')} extra={<RefreshButton engineCode={engineCode} />} />;
  if (view.kind === 'failed') return <Result status="error" title={t('scan.failed')} subTitle={view.message} extra={<BackToLoginButton primary labelKey="common.signInAgain" />} />;
  return (
    <Flex vertical align="center" gap="small">
      <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
        {t('scan.account.hint')}
      </Typography.Paragraph>
      <div style={{ width: 220, height: 220, display: 'flex', alignItems: 'center', justifyContent: 'center', border: '1px solid #f0f0f0', borderRadius: 8 }}>
        {view.kind === 'waiting' ? <img data-testid="wechat-account-qr" src={view.qrUrl} alt={t('scan.account.qrAlt')} width={200} height={200} /> : <Spin />}
      </div>
      {view.kind === 'waiting' && (
        <Typography.Text type="secondary">{t('scan.account.expiresAt', { time: new Date(view.expiresAt).toLocaleTimeString() })}</Typography.Text>
      )}
      <BackToLoginLink />
    </Flex>
  );
}

/**
 * Asks for the scene's state until it is signed in or fails. One loop per page: a second effect run (React's
 * development double run) finds it started and keeps it, since a scene's session can be taken once.
 */
function useSceneState(scene: string): View {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const beginSession = useStartSession();
  const [view, setView] = useState<View>({ kind: 'loading' });
  const started = useRef<string | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    if (started.current !== scene) {
      started.current = scene;
      setView({ kind: 'loading' });
      void (async () => {
        const key = wechatSceneKey(scene) ?? '-';
        let wait = 0;
        while (mounted.current && started.current === scene) {
          try {
            const state = await authApi.wechatScene(scene, key, wait);
            // A newer scene (refreshed code) has its own loop.
            if (started.current !== scene) return;
            if (state.status === 'signedIn') {
              beginSession(state.login);
              navigate(safeRedirectTarget(state.login.returnTo) ?? DEFAULT_AFTER_SIGN_IN, { replace: true });
              return;
            }
            setView({ kind: 'waiting', qrUrl: state.qrUrl, expiresAt: state.expiresAt });
            wait = LONG_POLL_SECONDS;
          } catch (error) {
            if (!isApiError(error)) {
              // The network dropped: ask again shortly.
              await new Promise((resolve) => setTimeout(resolve, 2000));
              continue;
            }
            if (error.errorCode === SCENE_EXPIRED) setView({ kind: 'expired' });
            else if (error.errorCode === BIND_NEEDED) setView({ kind: 'bind', securityToken: String((error.detail as { securityToken?: string } | undefined)?.securityToken ?? '') });
            else setView({ kind: 'failed', message: error.message || t('scan.failed') });
            return;
          }
        }
      })();
    }
    return () => {
      mounted.current = false;
    };
  }, [scene, navigate, beginSession, t]);
  return view;
}

/** A new code for the organisation, on this page. */
function RefreshButton({ engineCode }: { engineCode: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const refresh = async () => {
    setBusy(true);
    try {
      const result = await authApi.chatScanStart('wechat', engineCode);
      keepWechatSceneKey(result.redirectUrl, result.browserKey);
      navigate(result.redirectUrl, { replace: true });
    } catch {
      navigate('/entry/login/wechat', { replace: true });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button type="primary" loading={busy} onClick={() => void refresh()}>
      {t('scan.account.refresh')}
    </Button>
  );
}
