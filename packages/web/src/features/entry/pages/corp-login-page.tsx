import { useState } from 'react';
import { Alert, Button, Flex, Form, Input, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { isApiError } from '../../../lib/api-error.ts';
import { readGlobalQueryParams } from '@tritium/shared/constants/query-params';
import { authApi, NOT_CONFIGURED_CODES } from '../api/auth-api.ts';
import { FormErrorAlert } from '../components/form-error-alert.tsx';
import { engineCodeRules } from '../form-rules.ts';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in.ts';
import { useFormError } from '../hooks/use-form-error.ts';
import { BackToLoginLink } from '../components/back-to-login.tsx';
import { safeRedirectTarget } from '../redirect-target.ts';
import { keepSsoBrowserKey } from '../sso-browser-key.ts';

interface CorpLoginValues {
  engineCode: string;
}

const FIELDS = ['engineCode'] as const;

/** /entry/login/corp: an organisation code, then its single sign-on or a guest session. */
export function CorpLoginPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<CorpLoginValues>();
  const { search } = useLocation();
  const completeSignIn = useCompleteSignIn();
  const { formError, showError, clearError } = useFormError(form, FIELDS);
  const [ssoMissing, setSsoMissing] = useState(false);

  const sso = useMutation({
    mutationFn: ({ engineCode, redirectUrl }: { engineCode: string; redirectUrl?: string }) => authApi.ssoLogin(engineCode, redirectUrl),
    onSuccess: (result) => {
      // Once configured, the server names the identity provider's page; only then does the browser leave.
      keepSsoBrowserKey(result.browserKey);
      if (result.redirectUrl) window.location.assign(result.redirectUrl);
    },
    onError: (error) => {
      if (isApiError(error) && NOT_CONFIGURED_CODES.has(error.errorCode)) setSsoMissing(true);
      else showError(error);
    },
  });
  const guest = useMutation({ mutationFn: authApi.guestLogin, onSuccess: completeSignIn, onError: showError });

  const handleSso = (values: CorpLoginValues) => {
    clearError();
    setSsoMissing(false);
    // Where the person was heading comes back with the session; the server keeps it only when it is on this site.
    sso.mutate({ engineCode: values.engineCode.trim(), redirectUrl: safeRedirectTarget(readGlobalQueryParams(search).redirectUrl) });
  };
  const handleGuest = async () => {
    clearError();
    setSsoMissing(false);
    try {
      const values = await form.validateFields();
      guest.mutate({ engineCode: values.engineCode.trim() });
    } catch {
      // The field shows what is wrong.
    }
  };

  return (
    <>
      <Typography.Paragraph type="secondary">{t('corp.intro')}</Typography.Paragraph>
      <Form
        form={form}
        name="corpLogin"
        layout="vertical"
        requiredMark={false}
        initialValues={{ engineCode: readGlobalQueryParams(search).engineCode ?? '' }}
        onFinish={handleSso}
      >
        <Form.Item name="engineCode" label={t('fields.engineCode')} rules={engineCodeRules(t)}>
          <Input autoFocus autoComplete="organization" placeholder={t('placeholders.engineCode')} />
        </Form.Item>
        {ssoMissing && (
          <Alert type="warning" showIcon title={t('corp.ssoNotConfigured')} description={t('corp.ssoNotConfiguredHint')} style={{ marginBottom: 16 }} />
        )}
        <FormErrorAlert message={formError} />
        <Flex vertical gap="small">
          <Button type="primary" htmlType="submit" block loading={sso.isPending}>
            {t('corp.sso')}
          </Button>
          <Button block onClick={handleGuest} loading={guest.isPending}>
            {t('corp.guest')}
          </Button>
        </Flex>
      </Form>
      <BackToLoginLink search={search} />
    </>
  );
}
