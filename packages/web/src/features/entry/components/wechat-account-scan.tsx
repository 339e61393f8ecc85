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
import { formatTime } from '../../../lib/date-format.ts';

/** Seconds each ask waits for the scan before it is asked again. */
const LONG_POLL_SECONDS = 20;
const SCENE_EXPIRED = 200703;
const BIND_NEEDED = 200504;

/**
 * The organisation's official-account QR code (decision 0097): shown until WeChat pushes the scan, asking the server
 * for the scene's state (each ask waits up to 20 seconds); then the session, or the number proof of a WeChat not
 * bound yet. Only this tab holds the scene's key.
 */
export function WechatAccountScan({ scene, engineCode }: { scene: string; engineCode: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const beginSession = useStartSession();
  const poll = useScenePoll(scene, (wait) => authApi.wechatScene(scene, wechatSceneKey(scene) ?? '-', wait), (state) => {
    if (state.status === 'waiting') return state;
    beginSession(state.login);
    navigate(safeRedirectTarget(state.login.returnTo) ?? DEFAULT_AFTER_SIGN_IN, { replace: true });
    return null;
  });
  const error = poll.error;
  if (isApiError(error) && error.errorCode === BIND_NEEDED) return <BindMobileForm securityToken={String((error.detail as { securityToken?: string } | undefined)?.securityToken ?? '')} />;
  if (isApiError(error) && error.errorCode === SCENE_EXPIRED) return <Result status="warning" title={t('scan.account.expired')} subTitle={t('scan.account.expiredHint')} extra={<RefreshButton engineCode={engineCode} />} />;
  if (error) return <Result status="error" title={t('scan.failed')} subTitle={isApiError(error) ? error.message : t('ssoCallback.unreachable')} extra={<BackToLoginButton primary labelKey="common.signInAgain" />} />;
  return (
    <>
      <AccountQr hint={t('scan.account.hint')} waiting={poll.waiting} />
      <BackToLoginLink />
    </>
  );
}

interface Waiting {
  qrUrl: string;
  expiresAt: string;
}

/** The account's code (WeChat's showqrcode image) while it waits for the scan, and until when it works. */
export function AccountQr({ hint, waiting }: { hint: string; waiting: Waiting | null }) {
  const { t } = useTranslation();
  return (
    <Flex vertical align="center" gap="small">
      <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
        {hint}
      </Typography.Paragraph>
      <div style={{ width: 220, height: 220, display: 'flex', alignItems: 'center', justifyContent: 'center', border: '1px solid #f0f0f0', borderRadius: 8 }}>
        {waiting ? <img data-testid="wechat-account-qr" src={waiting.qrUrl} alt={t('scan.account.qrAlt')} width={200} height={200} /> : <Spin />}
      </div>
      {waiting && <Typography.Text type="secondary">{t('scan.account.expiresAt', { time: formatTime(waiting.expiresAt) })}</Typography.Text>}
    </Flex>
  );
}

/**
 * Asks for a scene's state until `settle` takes an answer (answers null rather than the code still waiting) or the server refuses: the first ask answers
 * at once (the code to show), the next ones wait for the scan. One loop per scene: a second effect run (React's
 * development double run) finds it started and keeps it, since a scene can be used once.
 */
export function useScenePoll<T>(scene: string, ask: (wait: number) => Promise<T>, settle: (answer: T) => Waiting | null): { waiting: Waiting | null; error: unknown } {
  const [state, setState] = useState<{ waiting: Waiting | null; error: unknown }>({ waiting: null, error: null });
  const started = useRef<string | null>(null);
  const mounted = useRef(true);
  const latest = useRef({ ask, settle });
  latest.current = { ask, settle };
  useEffect(() => {
    mounted.current = true;
    if (started.current !== scene) {
      started.current = scene;
      setState({ waiting: null, error: null });
      void (async () => {
        let wait = 0;
        while (mounted.current && started.current === scene) {
          try {
            const answer = await latest.current.ask(wait);
            // A newer scene (a refreshed code) has its own loop.
            if (started.current !== scene) return;
            const waiting = latest.current.settle(answer);
            if (!waiting) return;
            setState({ waiting, error: null });
            wait = LONG_POLL_SECONDS;
          } catch (error) {
            if (!isApiError(error)) {
              // The network dropped: ask again shortly.
              await new Promise((resolve) => setTimeout(resolve, 2000));
              continue;
            }
            if (started.current === scene) setState({ waiting: null, error });
            return;
          }
        }
      })();
    }
    return () => {
      mounted.current = false;
    };
  }, [scene]);
  return state;
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
