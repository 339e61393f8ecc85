import { useEffect, useRef, useState } from 'react';
import { Button, Result, Spin, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import type { contracts } from '@tritium/shared';
import { apiClient } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { hasToken } from '../../../lib/session.ts';
import { BackToLoginButton } from '../components/back-to-login.tsx';
import { AccountQr, useScenePoll } from '../components/wechat-account-scan.tsx';
import { formatDateTime } from '../../../lib/date-format.ts';

// /entry/register/wechat, "personal WeChat binding" (decision 0090): a signed-in user binds the WeChat they scan with
// to their account, or unbinds it. WeChat's QR page sends the browser back here with a code and the state, which are
// handed to the server once (a state is used only once; React runs effects twice in development). An organisation on
// its official account shows the account's code here instead, until the account's push says it was scanned (0097).

const bindingKey = ['account', 'wechat-binding'] as const;
const wechatApi = {
  load: () => apiClient.get<contracts.WechatBinding>('/v1/account/wechat/binding'),
  start: () => apiClient.post<{ redirectUrl: string }>('/v1/account/wechat/binding/start', {}),
  complete: (body: contracts.WechatBindBody) => apiClient.post<contracts.WechatBinding>('/v1/account/wechat/binding', body),
  remove: () => apiClient.post<contracts.WechatBinding>('/v1/account/wechat/binding/remove', {}),
  scene: (scene: string, wait: number) =>
    apiClient.get<contracts.WechatBindSceneState>('/v1/account/wechat/binding/scene', { query: { scene, wait }, timeoutMs: (wait + 15) * 1000, disableBizError: true }),
};

export function WechatBindingPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  if (!hasToken()) return <Result status="info" title={t('wechatBinding.signInFirst')} extra={<BackToLoginButton primary />} />;
  const code = params.get('code');
  const state = params.get('state');
  const scene = params.get('scene');
  if (scene) return <BindingScene scene={scene} />;
  return code && state ? <BindingCallback code={code} state={state} /> : <BindingStatus />;
}

function BindingCallback({ code, state }: { code: string; state: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sent = useRef(false);
  const complete = useMutation({
    mutationFn: wechatApi.complete,
    onSuccess: (binding) => queryClient.setQueryData(bindingKey, binding),
  });
  const { mutate } = complete;
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    mutate({ code, state });
  }, [code, state, mutate]);
  const again = <Button onClick={() => navigate('/entry/register/wechat', { replace: true })}>{t('wechatBinding.back')}</Button>;
  if (complete.isError) return <Result status="error" title={t('wechatBinding.failed')} subTitle={isApiError(complete.error) ? complete.error.message : t('ssoCallback.unreachable')} extra={again} />;
  if (complete.isSuccess) return <Result status="success" title={t('wechatBinding.bound')} extra={[<Button key="home" type="primary" onClick={() => navigate('/workbench')}>{t('wechatBinding.toWorkbench')}</Button>, again]} />;
  return <Result icon={<Spin size="large" />} title={t('wechatBinding.binding')} />;
}

/** The official account's code for this user's binding; bound once the account's push says it was scanned. */
function BindingScene({ scene }: { scene: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [bound, setBound] = useState(false);
  const poll = useScenePoll(scene, (wait) => wechatApi.scene(scene, wait), (answer) => {
    if (answer.status === 'waiting') return answer;
    queryClient.setQueryData(bindingKey, answer.binding);
    setBound(true);
    return null;
  });
  const again = <Button onClick={() => navigate('/entry/register/wechat', { replace: true })}>{t('wechatBinding.back')}</Button>;
  if (poll.error) return <Result status="error" title={t('wechatBinding.failed')} subTitle={isApiError(poll.error) ? poll.error.message : t('ssoCallback.unreachable')} extra={again} />;
  if (bound) return <Result status="success" title={t('wechatBinding.bound')} extra={[<Button key="home" type="primary" onClick={() => navigate('/workbench')}>{t('wechatBinding.toWorkbench')}</Button>, again]} />;
  return (
    <>
      <AccountQr hint={t('wechatBinding.accountHint')} waiting={poll.waiting} />
      <div style={{ textAlign: 'center', marginTop: 16 }}>{again}</div>
    </>
  );
}

function BindingStatus() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const binding = useQuery({ queryKey: bindingKey, queryFn: wechatApi.load });
  // WeChat's QR page, or (official account) this page with a scene of this user.
  const start = useMutation({ mutationFn: wechatApi.start, onSuccess: ({ redirectUrl }) => (redirectUrl.startsWith('/') ? navigate(redirectUrl) : window.location.assign(redirectUrl)) });
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: wechatApi.remove,
    onSuccess: (result) => {
      setConfirming(false);
      queryClient.setQueryData(bindingKey, result);
    },
  });
  if (binding.isError) return <Result status="error" title={t('wechatBinding.failed')} subTitle={isApiError(binding.error) ? binding.error.message : t('ssoCallback.unreachable')} />;
  if (!binding.data) return <Spin />;
  const error = start.error ?? remove.error;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <Typography.Paragraph type="secondary">{t('wechatBinding.intro')}</Typography.Paragraph>
      <Typography.Text data-testid="wechat-binding-state">
        {binding.data.bound ? t('wechatBinding.boundSince', { time: formatDateTime(binding.data.boundTime) }) : t('wechatBinding.notBound')}
      </Typography.Text>
      {error && <Typography.Text type="danger">{isApiError(error) ? error.message : t('ssoCallback.unreachable')}</Typography.Text>}
      {binding.data.bound && confirming && (
        <>
          <Typography.Text type="warning">{t('wechatBinding.unbindConfirm')}</Typography.Text>
          <Button danger type="primary" loading={remove.isPending} onClick={() => remove.mutate()}>
            {t('wechatBinding.unbindConfirmed')}
          </Button>
          <Button onClick={() => setConfirming(false)}>{t('wechatBinding.keep')}</Button>
        </>
      )}
      {binding.data.bound && !confirming && (
        <Button danger onClick={() => setConfirming(true)}>
          {t('wechatBinding.unbind')}
        </Button>
      )}
      {!binding.data.bound && (
        <Button type="primary" loading={start.isPending} onClick={() => start.mutate()}>
          {t('wechatBinding.scan')}
        </Button>
      )}
      <Button type="link" onClick={() => navigate('/workbench')}>
        {t('wechatBinding.toWorkbench')}
      </Button>
    </div>
  );
}
