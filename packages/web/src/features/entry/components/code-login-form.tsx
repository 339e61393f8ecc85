import { Button, Space } from 'antd';
// antd's Input from its own file: the package's Input also carries TextArea, Search and OTP (docs/decisions/0036).
import Input from 'antd/es/input/Input';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { readGlobalQueryParams } from '@tritium/shared/constants/query-params';
import { authApi } from '../api/auth-api.ts';
import { mobileRules, verifyCodeRules } from '../form-rules.ts';
import { useAction } from '../hooks/use-action.ts';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in.ts';
import { useFormError } from '../hooks/use-form-error.ts';
import { FormErrorAlert } from './form-error-alert.tsx';
import { inputProps, LightField, useLightForm } from './light-form.tsx';
import { SendCodeButton } from './send-code-button.tsx';
import { SignInMobileField } from './sign-in-mobile-field.tsx';

const FIELDS = ['mobile', 'code'] as const;

/** 手机号 + 验证码 → GET /v1/login/mobile/verifycode. Used in the login tabs, on its own page and on phones. */
export function CodeLoginForm({ formName = 'codeLogin' }: { formName?: string }) {
  const { t } = useTranslation();
  const form = useLightForm(formName, { mobile: mobileRules(t), code: verifyCodeRules(t) });
  const { search } = useLocation();
  const completeSignIn = useCompleteSignIn();
  const { formError, showError, clearError } = useFormError(form, FIELDS);
  const signIn = useAction({ run: authApi.verifyCodeLogin, onSuccess: completeSignIn, onError: showError });

  const handleFinish = (values: Record<(typeof FIELDS)[number], string>) => {
    clearError();
    const { engineCode } = readGlobalQueryParams(search);
    signIn.mutate({ mobile: values.mobile.trim(), code: values.code.trim(), ...(engineCode ? { engineCode } : {}) });
  };
  // The button checks the mobile field first; a wrong one shows why there.
  const mobile = async () => (await form.validateFields(['mobile']))?.mobile.trim();

  return (
    <form id={formName} onSubmit={form.onSubmit(handleFinish)} noValidate>
      <SignInMobileField form={form} />
      <LightField form={form} name="code" label={t('fields.verifyCode')}>
        <Space.Compact style={{ width: '100%' }}>
          <Input {...inputProps(form, 'code')} inputMode="numeric" maxLength={6} autoComplete="one-time-code" placeholder={t('placeholders.verifyCode')} />
          <SendCodeButton scene="login" onError={showError} mobile={mobile} />
        </Space.Compact>
      </LightField>
      <FormErrorAlert message={formError} />
      <Button type="primary" htmlType="submit" block loading={signIn.isPending}>
        {t('login.submit')}
      </Button>
    </form>
  );
}
