import { Form, Space, type FormInstance } from 'antd';
// antd's Input from its own file: the package's Input also carries TextArea, Search and OTP (docs/decisions/0036).
import Input from 'antd/es/input/Input';
import { useTranslation } from 'react-i18next';
import { verifyCodeRules } from '../form-rules.ts';
import { SendCodeButton, type SendCodeOptions } from './send-code-button.tsx';

interface VerifyCodeFieldProps extends SendCodeOptions {
  form: FormInstance;
  /** The Form's `name`, so the label points at the input's generated id. */
  formName: string;
  mobileField?: string;
}

/** The 验证码 input with its 获取验证码 button, which checks the mobile field first and then counts down. */
export function VerifyCodeField({ form, formName, scene, onError, mobileField = 'mobile', sendCode }: VerifyCodeFieldProps) {
  const { t } = useTranslation();
  const mobile = async () => {
    try {
      return String((await form.validateFields([mobileField]))[mobileField]).trim();
    } catch {
      return undefined;
    }
  };

  return (
    <Form.Item label={t('fields.verifyCode')} htmlFor={`${formName}_code`} required>
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item name="code" noStyle rules={verifyCodeRules(t)}>
          <Input inputMode="numeric" maxLength={6} autoComplete="one-time-code" placeholder={t('placeholders.verifyCode')} />
        </Form.Item>
        <SendCodeButton scene={scene} onError={onError} sendCode={sendCode} mobile={mobile} />
      </Space.Compact>
    </Form.Item>
  );
}
