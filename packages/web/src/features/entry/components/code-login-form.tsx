import { Button, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { readGlobalQueryParams } from '@tritium/shared/constants/query-params';
import { authApi } from '../api/auth-api.ts';
import { useAction } from '../hooks/use-action.ts';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in.ts';
import { useFormError } from '../hooks/use-form-error.ts';
import { FormErrorAlert } from './form-error-alert.tsx';
import { MobileField } from './mobile-field.tsx';
import { VerifyCodeField } from './verify-code-field.tsx';

interface CodeLoginValues {
  mobile: string;
  code: string;
}

const FIELDS = ['mobile', 'code'] as const;

/** 手机号 + 验证码 → GET /v1/login/mobile/verifycode. Used in the login tabs, on its own page and on phones. */
export function CodeLoginForm({ formName = 'codeLogin' }: { formName?: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CodeLoginValues>();
  const { search } = useLocation();
  const completeSignIn = useCompleteSignIn();
  const { formError, showError, clearError } = useFormError(form, FIELDS);
  const signIn = useAction({ run: authApi.verifyCodeLogin, onSuccess: completeSignIn, onError: showError });

  const handleFinish = (values: CodeLoginValues) => {
    clearError();
    const { engineCode } = readGlobalQueryParams(search);
    signIn.mutate({ mobile: values.mobile.trim(), code: values.code.trim(), ...(engineCode ? { engineCode } : {}) });
  };

  return (
    <Form form={form} name={formName} layout="vertical" requiredMark={false} onFinish={handleFinish}>
      <MobileField />
      <VerifyCodeField form={form} formName={formName} scene="login" onError={showError} />
      <FormErrorAlert message={formError} />
      <Button type="primary" htmlType="submit" block loading={signIn.isPending}>
        {t('login.submit')}
      </Button>
    </Form>
  );
}
