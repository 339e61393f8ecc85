import { Button, Form, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { authApi } from '../api/auth-api.ts';
import { MobileField } from './mobile-field.tsx';
import { VerifyCodeField } from './verify-code-field.tsx';
import { FormErrorAlert } from './form-error-alert.tsx';
import { useFormError } from '../hooks/use-form-error.ts';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in.ts';

interface BindValues {
  mobile: string;
  code: string;
}
const BIND_FIELDS = ['mobile', 'code'] as const;

/** The platform gave no mobile number: the person proves the number their organisation knows, once (200504). */
export function BindMobileForm({ securityToken }: { securityToken: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<BindValues>();
  const completeSignIn = useCompleteSignIn();
  const { formError, showError, clearError } = useFormError(form, BIND_FIELDS);
  const bind = useMutation({ mutationFn: authApi.bindMobile, onSuccess: completeSignIn, onError: showError });
  return (
    <>
      <Typography.Paragraph type="secondary">{t('scan.bindIntro')}</Typography.Paragraph>
      <Form form={form} name="bindMobile" layout="vertical" requiredMark={false} onFinish={(v) => { clearError(); bind.mutate({ securityToken, mobile: v.mobile.trim(), code: v.code.trim() }); }}>
        <MobileField />
        <VerifyCodeField form={form} formName="bindMobile" scene="bind" onError={showError} sendCode={(mobile) => authApi.bindMobileCode(securityToken, mobile)} />
        <FormErrorAlert message={formError} />
        <Button type="primary" htmlType="submit" block loading={bind.isPending}>
          {t('scan.bindSubmit')}
        </Button>
      </Form>
    </>
  );
}
