import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { newPasswordRules, userNameRules } from '../form-rules.ts';

/** The name and password a number new to the platform gives when it registers or joins by a link. */
export function NewAccountFields({ nameHint }: { nameHint?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="userName" label={t('fields.userName')} rules={userNameRules(t)} extra={nameHint}>
        <Input autoComplete="name" maxLength={32} placeholder={t('placeholders.userName')} />
      </Form.Item>
      <Form.Item name="password" label={t('fields.password')} rules={newPasswordRules(t)}>
        <Input.Password autoComplete="new-password" maxLength={16} placeholder={t('placeholders.newPassword')} />
      </Form.Item>
    </>
  );
}
