import { Alert, Button, Form } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { joinApi, type JoinByLinkBody, type JoinByLinkResult } from '../api/join-api.ts';
import { useFormError } from '../hooks/use-form-error.ts';
import { useMobileRegistration } from '../hooks/use-mobile-registration.ts';
import { FormErrorAlert } from './form-error-alert.tsx';
import { MobileField } from './mobile-field.tsx';
import { VerifyCodeField } from './verify-code-field.tsx';
import { NewAccountFields } from './new-account-fields.tsx';

interface JoinValues {
  mobile: string;
  code: string;
  userName?: string;
  password?: string;
}

const FORM_NAME = 'joinByLink';
const FIELDS = ['mobile', 'code', 'userName', 'password'] as const;

/**
 * 手机号 + 验证码 (a 'register' code, which any number may get), and for a number new to Tritium its name and password,
 * as the registration form asks; then POST /v1/org/invitation/link/join.
 */
export function JoinForm({ token, onJoined }: { token: string; onJoined: (result: JoinByLinkResult) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<JoinValues>();
  const { formError, showError, clearError } = useFormError(form, FIELDS);
  const registration = useMobileRegistration(Form.useWatch('mobile', form), true);
  const join = useMutation({ mutationFn: joinApi.join, onSuccess: onJoined, onError: showError });

  const handleFinish = async (values: JoinValues) => {
    clearError();
    const mobile = values.mobile.trim();
    const isRegistered = await registration.resolveOnSubmit(mobile, showError);
    if (isRegistered === null) return;
    const body: JoinByLinkBody = { token, mobile, code: values.code.trim() };
    if (!isRegistered) Object.assign(body, { userName: values.userName!.trim(), password: values.password! });
    join.mutate(body);
  };

  return (
    <Form form={form} name={FORM_NAME} layout="vertical" onFinish={handleFinish}>
      <MobileField />
      {registration.registered === true && <Alert type="info" showIcon title={t('join.registeredHint')} style={{ marginBottom: 16 }} />}
      <VerifyCodeField form={form} formName={FORM_NAME} scene="register" onError={showError} />
      {registration.registered === false && <NewAccountFields />}
      <FormErrorAlert message={formError} />
      <Button type="primary" htmlType="submit" block loading={join.isPending}>
        {t('join.submit')}
      </Button>
    </Form>
  );
}
