import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { isApiError } from '../../../lib/api-error.ts';
import { readGlobalQueryParams } from '@tritium/shared/constants/query-params';
import { authApi, NOT_CONFIGURED_CODES } from '../api/auth-api.ts';
import { FormErrorAlert } from '../components/form-error-alert.tsx';
import { engineCodeRules, isValidEngineCode } from '../form-rules.ts';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in.ts';
import { useFormError } from '../hooks/use-form-error.ts';
import { BackToLoginLink } from '../components/back-to-login.tsx';

interface ExternalLoginValues {
  code: string;
  engineCode: string;
}

const FIELDS = ['code', 'engineCode'] as const;

/** /entry/login/ext: identity check with an external login code (POST /v1/external/login). */
export function ExternalLoginPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<ExternalLoginValues>();
  const { search } = useLocation();
  const query = readGlobalQueryParams(search);
  const completeSignIn = useCompleteSignIn();
  const { formError, showError, clearError } = useFormError(form, FIELDS);
  const [notConfigured, setNotConfigured] = useState(false);
  const verify = useMutation({
    mutationFn: authApi.externalLogin,
    onSuccess: completeSignIn,
    onError: (error) => {
      if (isApiError(error) && NOT_CONFIGURED_CODES.has(error.errorCode)) setNotConfigured(true);
      else showError(error);
    },
  });

  // A link from a trusted system carries both: sign in at once, as the person expects after following it.
  const linked = useRef(false);
  useEffect(() => {
    const code = (query.externalCode ?? '').trim();
    if (linked.current || !code || !isValidEngineCode(query.engineCode)) return;
    linked.current = true;
    verify.mutate({ code, engineCode: query.engineCode!.trim() });
  }, [query.externalCode, query.engineCode, verify]);

  const handleFinish = (values: ExternalLoginValues) => {
    clearError();
    setNotConfigured(false);
    verify.mutate({ code: values.code.trim(), engineCode: values.engineCode.trim() });
  };

  return (
    <>
      <Typography.Paragraph type="secondary">{t('externalLogin.intro')}</Typography.Paragraph>
      <Form
        form={form}
        name="externalLogin"
        layout="vertical"
        requiredMark={false}
        initialValues={{ code: query.externalCode ?? query.code ?? '', engineCode: query.engineCode ?? '' }}
        onFinish={handleFinish}
      >
        <Form.Item name="code" label={t('fields.externalCode')} rules={[{ required: true, whitespace: true, message: t('validation.externalCodeRequired') }]}>
          <Input autoFocus autoComplete="off" placeholder={t('placeholders.externalCode')} />
        </Form.Item>
        {/* A link from an engine names it; otherwise the visitor types the code they were given. */}
        <Form.Item name="engineCode" label={t('fields.engineCode')} rules={engineCodeRules(t)} hidden={isValidEngineCode(query.engineCode)}>
          <Input autoComplete="organization" placeholder={t('placeholders.engineCode')} />
        </Form.Item>
        {notConfigured && (
          <Alert type="warning" showIcon title={t('externalLogin.notConfigured')} description={t('externalLogin.notConfiguredHint')} style={{ marginBottom: 16 }} />
        )}
        <FormErrorAlert message={formError} />
        <Button type="primary" htmlType="submit" block loading={verify.isPending}>
          {t('externalLogin.submit')}
        </Button>
      </Form>
      <BackToLoginLink />
    </>
  );
}
