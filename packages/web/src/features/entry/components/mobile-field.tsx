import { Form } from 'antd';
// antd's Input from its own file: the package's Input also carries TextArea, Search and OTP (docs/decisions/0036).
import Input from 'antd/es/input/Input';
import { useTranslation } from 'react-i18next';
import { mobileRules } from '../form-rules.ts';

/** The 手机号 field every entry form starts with; focus lands here (ui.md "Keyboard"). */
export function MobileField({ autoFocus = true }: { autoFocus?: boolean }) {
  const { t } = useTranslation();
  return (
    <Form.Item name="mobile" label={t('fields.mobile')} rules={mobileRules(t)}>
      <Input inputMode="tel" maxLength={11} autoComplete="tel" autoFocus={autoFocus} placeholder={t('placeholders.mobile')} />
    </Form.Item>
  );
}
