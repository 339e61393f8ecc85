import { Button, Form, Input, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAppPopups } from '../../../lib/use-app-popups.ts';
import { useNavigate } from 'react-router';
import { authApi } from '../api/auth-api.ts';
import { FormErrorAlert } from '../components/form-error-alert.tsx';
import { MobileField } from '../components/mobile-field.tsx';
import { VerifyCodeField } from '../components/verify-code-field.tsx';
import { confirmPasswordRules, newPasswordRules } from '../form-rules.ts';
import { useFormError } from '../hooks/use-form-error.ts';
import { BackToLoginLink } from '../components/back-to-login.tsx';

interface ResetValues {
  mobile: string;
  code: string;
  password: string;
  confirmPassword: string;
}

const FORM_NAME = 'resetPassword';
const FIELDS = ['mobile', 'code', 'password'] as const;

/** /entry/login/reset: prove the mobile number with a code, set a new password, go back to sign in. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const { message } = useAppPopups();
  const navigate = useNavigate();
  const [form] = Form.useForm<ResetValues>();
  const { formError, showError, clearError } = useFormError(form, FIELDS);
  const reset = useMutation({
    mutationFn: authApi.resetPassword,
    onSuccess: () => {
      void message.success(t('reset.success'));
      navigate('/entry/', { replace: true });
    },
    onError: showError,
  });

  const handleFinish = (values: ResetValues) => {
    clearError();
    reset.mutate({ mobile: values.mobile.trim(), code: values.code.trim(), password: values.password });
  };

  return (
    <>
      <Typography.Paragraph type="secondary">{t('reset.intro')}</Typography.Paragraph>
      <Form form={form} name={FORM_NAME} layout="vertical" requiredMark={false} onFinish={handleFinish}>
        <MobileField />
        <VerifyCodeField form={form} formName={FORM_NAME} scene="reset" onError={showError} />
        <Form.Item name="password" label={t('fields.newPassword')} rules={newPasswordRules(t)}>
          <Input.Password autoComplete="new-password" maxLength={16} placeholder={t('placeholders.newPassword')} />
        </Form.Item>
        <Form.Item name="confirmPassword" label={t('fields.confirmPassword')} dependencies={['password']} rules={confirmPasswordRules(t)}>
          <Input.Password autoComplete="new-password" maxLength={16} placeholder={t('placeholders.confirmPassword')} />
        </Form.Item>
        <FormErrorAlert message={formError} />
        <Button type="primary" htmlType="submit" block loading={reset.isPending}>
          {t('reset.submit')}
        </Button>
      </Form>
      <BackToLoginLink />
    </>
  );
}
