import { Button, Form, Space, type FormInstance } from 'antd';
// antd's Input from its own file: the package's Input also carries TextArea, Search and OTP (docs/decisions/0036).
import Input from 'antd/es/input/Input';
import { useTranslation } from 'react-i18next';
import { useAppPopups } from '../../../lib/use-app-popups.ts';
import { authApi, type SendVerifyCodeResult, type VerifyCodeScene } from '../api/auth-api.ts';
import { verifyCodeRules } from '../form-rules.ts';
import { useAction } from '../hooks/use-action.ts';
import { useCountdown } from '../hooks/use-countdown.ts';

// A code cannot be asked for again within a minute; the server may ask for longer (resendAfter).
export const RESEND_SECONDS = 60;

interface VerifyCodeFieldProps {
  form: FormInstance;
  /** The Form's `name`, so the label points at the input's generated id. */
  formName: string;
  scene: VerifyCodeScene;
  onError: (error: unknown) => void;
  mobileField?: string;
  /** How the code is asked for; by default the sign-in code of `scene` (binding a number asks with its ticket). */
  sendCode?: (mobile: string) => Promise<SendVerifyCodeResult>;
}

/** The 验证码 input with its 获取验证码 button, which checks the mobile field first and then counts down. */
export function VerifyCodeField({ form, formName, scene, onError, mobileField = 'mobile', sendCode }: VerifyCodeFieldProps) {
  const { t } = useTranslation();
  const { message } = useAppPopups();
  const countdown = useCountdown();
  const send = useAction({
    run: (mobile: string) => (sendCode ? sendCode(mobile) : authApi.sendVerifyCode({ mobile, scene })),
    onSuccess: (result) => {
      countdown.start(Math.max(RESEND_SECONDS, result.resendAfter || 0));
      void message.success(t('verifyCode.sent', { minutes: Math.max(1, Math.round(result.expiresIn / 60)) }));
    },
    onError,
  });

  const handleSend = async () => {
    let mobile: string;
    try {
      mobile = String((await form.validateFields([mobileField]))[mobileField]).trim();
    } catch {
      return; // the mobile field now shows why
    }
    send.mutate(mobile);
  };

  return (
    <Form.Item label={t('fields.verifyCode')} htmlFor={`${formName}_code`} required>
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item name="code" noStyle rules={verifyCodeRules(t)}>
          <Input inputMode="numeric" maxLength={6} autoComplete="one-time-code" placeholder={t('placeholders.verifyCode')} />
        </Form.Item>
        <Button onClick={handleSend} disabled={countdown.isRunning} loading={send.isPending} style={{ minWidth: 120 }}>
          {countdown.isRunning ? t('verifyCode.resend', { seconds: countdown.remaining }) : t('verifyCode.send')}
        </Button>
      </Space.Compact>
    </Form.Item>
  );
}
