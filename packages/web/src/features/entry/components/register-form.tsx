import { useState } from 'react';
import { Alert, Button, Form, Input, Select } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../../lib/api-error.ts';
import { hasToken } from '../../../lib/session.ts';
import { authApi, type RegisterEngineBody } from '../api/auth-api.ts';
import { engineNameRules } from '../form-rules.ts';
import { useStartSession } from '../hooks/use-complete-sign-in.ts';
import { useFormError } from '../hooks/use-form-error.ts';
import { useMobileRegistration } from '../hooks/use-mobile-registration.ts';
import { FormErrorAlert } from './form-error-alert.tsx';
import { MobileField } from './mobile-field.tsx';
import { VerifyCodeField } from './verify-code-field.tsx';
import { NewAccountFields } from './new-account-fields.tsx';

interface RegisterValues {
  mobile?: string;
  code?: string;
  userName?: string;
  password?: string;
  engineName: string;
  scale?: string;
}

const FORM_NAME = 'register';
const FIELDS = ['mobile', 'code', 'userName', 'password', 'engineName', 'scale'] as const;

/**
 * Registers an organisation (POST /v1/register/engine). Signed out: the mobile number is proven by a code and
 * a new number also sets a name and password. Signed in (allowSignedIn): only the organisation is asked for.
 */
export function RegisterForm({ allowSignedIn }: { allowSignedIn: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<RegisterValues>();
  const [isSignedIn, setIsSignedIn] = useState(() => allowSignedIn && hasToken());
  const { formError, showError, clearError } = useFormError(form, FIELDS);
  const beginSession = useStartSession();
  const registration = useMobileRegistration(Form.useWatch('mobile', form), !isSignedIn);
  const scales = useQuery({ queryKey: ['register', 'scales'], queryFn: authApi.getScaleList, staleTime: Infinity });

  const register = useMutation({
    mutationFn: authApi.registerEngine,
    onSuccess: (result, body) => {
      beginSession(result);
      navigate('/entry/register/success', { replace: true, state: { engineName: body.engineName } });
    },
    onError: (error) => {
      // The session behind "signed in" has expired: fall back to the full form.
      if (isApiError(error) && error.status === 401) setIsSignedIn(false);
      showError(error);
    },
  });

  const handleFinish = async (values: RegisterValues) => {
    clearError();
    const organisation = { engineName: values.engineName.trim(), ...(values.scale ? { scale: values.scale } : {}) };
    if (isSignedIn) {
      register.mutate(organisation);
      return;
    }
    const mobile = values.mobile!.trim();
    const isRegistered = await registration.resolveOnSubmit(mobile, showError);
    if (isRegistered === null) return;
    const body: RegisterEngineBody = { mobile, code: values.code!.trim(), ...organisation };
    if (!isRegistered) Object.assign(body, { userName: values.userName!.trim(), password: values.password! });
    register.mutate(body);
  };

  return (
    <Form form={form} name={FORM_NAME} layout="vertical" onFinish={handleFinish}>
      {!isSignedIn && (
        <>
          <MobileField />
          {registration.registered === true && (
            <Alert type="info" showIcon title={t('register.registeredHint')} style={{ marginBottom: 16 }} />
          )}
          <VerifyCodeField form={form} formName={FORM_NAME} scene="register" onError={showError} />
          {registration.registered === false && <NewAccountFields nameHint={t('register.newAccountHint')} />}
        </>
      )}
      <Form.Item name="engineName" label={t('fields.engineName')} rules={engineNameRules(t)}>
        <Input autoComplete="organization" maxLength={32} autoFocus={isSignedIn} placeholder={t('placeholders.engineName')} />
      </Form.Item>
      <Form.Item name="scale" label={t('fields.scale')}>
        <Select
          allowClear
          loading={scales.isLoading}
          placeholder={t('placeholders.scale')}
          options={(scales.data?.list ?? []).map((scale) => ({ value: scale.code, label: scale.name }))}
        />
      </Form.Item>
      <FormErrorAlert message={formError} />
      <Button type="primary" htmlType="submit" block loading={register.isPending}>
        {t('register.submit')}
      </Button>
    </Form>
  );
}
