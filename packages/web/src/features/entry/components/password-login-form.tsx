import { Button } from 'antd';
// antd's Input from its own file: the package's Input also carries TextArea, Search and OTP (docs/decisions/0036).
import Password from 'antd/es/input/Password';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { readGlobalQueryParams } from '@tritium/shared/constants/query-params';
import { authApi } from '../api/auth-api.ts';
import { mobileRules, signInPasswordRules } from '../form-rules.ts';
import { useAction } from '../hooks/use-action.ts';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in.ts';
import { useFormError } from '../hooks/use-form-error.ts';
import { FormErrorAlert } from './form-error-alert.tsx';
import { inputProps, LightField, useLightForm } from './light-form.tsx';
import { SignInMobileField } from './sign-in-mobile-field.tsx';

const FIELDS = ['mobile', 'password'] as const;

/** 手机号 + 密码 → POST /v1/login/mobile/password. */
export function PasswordLoginForm() {
  const { t } = useTranslation();
  const form = useLightForm('passwordLogin', { mobile: mobileRules(t), password: signInPasswordRules(t) });
  const { search } = useLocation();
  const completeSignIn = useCompleteSignIn();
  const { formError, showError, clearError } = useFormError(form, FIELDS);
  const signIn = useAction({ run: authApi.passwordLogin, onSuccess: completeSignIn, onError: showError });

  const handleFinish = (values: Record<(typeof FIELDS)[number], string>) => {
    clearError();
    // A link into a given engine (?engineCode=) signs in there.
    const { engineCode } = readGlobalQueryParams(search);
    signIn.mutate({ mobile: values.mobile.trim(), password: values.password, ...(engineCode ? { engineCode } : {}) });
  };

  return (
    <form id="passwordLogin" onSubmit={form.onSubmit(handleFinish)} noValidate>
      <SignInMobileField form={form} />
      <LightField form={form} name="password" label={t('fields.password')}>
        <Password {...inputProps(form, 'password')} autoComplete="current-password" placeholder={t('placeholders.password')} />
      </LightField>
      <FormErrorAlert message={formError} />
      <Button type="primary" htmlType="submit" block loading={signIn.isPending}>
        {t('login.submit')}
      </Button>
    </form>
  );
}
