import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppPopups } from '../../../lib/use-app-popups.ts';
import { authApi, type SendVerifyCodeResult, type VerifyCodeScene } from '../api/auth-api.ts';
import { useAction } from '../hooks/use-action.ts';
import { useCountdown } from '../hooks/use-countdown.ts';

// A code cannot be asked for again within a minute; the server may ask for longer (resendAfter).
export const RESEND_SECONDS = 60;

export interface SendCodeOptions {
  scene: VerifyCodeScene;
  onError: (error: unknown) => void;
  /** How the code is asked for; by default the sign-in code of `scene` (binding a number asks with its ticket). */
  sendCode?: (mobile: string) => Promise<SendVerifyCodeResult>;
}

/**
 * The 获取验证码 button of every code field (antd Form's VerifyCodeField and the login home's light form): it asks for
 * the mobile number (checked by the field's form first), sends the code, says so, then counts down.
 */
export function SendCodeButton({ scene, onError, sendCode, mobile }: SendCodeOptions & { mobile: () => Promise<string | undefined> }) {
  const { t } = useTranslation();
  const { message } = useAppPopups();
  const countdown = useCountdown();
  const send = useAction({
    run: (number: string) => (sendCode ? sendCode(number) : authApi.sendVerifyCode({ mobile: number, scene })),
    onSuccess: (result: SendVerifyCodeResult) => {
      countdown.start(Math.max(RESEND_SECONDS, result.resendAfter || 0));
      void message.success(t('verifyCode.sent', { minutes: Math.max(1, Math.round(result.expiresIn / 60)) }));
    },
    onError,
  });

  const handleSend = async () => {
    const number = await mobile();
    if (number !== undefined) send.mutate(number); // otherwise the mobile field now shows why
  };

  return (
    <Button onClick={handleSend} disabled={countdown.isRunning} loading={send.isPending} style={{ minWidth: 120 }}>
      {countdown.isRunning ? t('verifyCode.resend', { seconds: countdown.remaining }) : t('verifyCode.send')}
    </Button>
  );
}
