import { useState } from 'react';
import { Alert, Button, Flex, Form } from 'antd';
// By file, as the other sign-in forms: antd's Input export brings TextArea, Search and OTP onto the sign-in page.
import Input from 'antd/es/input/Input';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { readGlobalQueryParams } from '@tritium/shared/constants/query-params';
import { isApiError } from '../../../lib/api-error.ts';
import { authApi, CHAT_PLATFORMS, NOT_CONFIGURED_CODES, type ChatPlatform } from '../api/auth-api.ts';
import { engineCodeRules } from '../form-rules.ts';
import { useFormError } from '../hooks/use-form-error.ts';
import { FormErrorAlert } from './form-error-alert.tsx';
import { safeRedirectTarget } from '../redirect-target.ts';
import { keepWechatSceneKey } from '../wechat-scene-key.ts';

const FIELDS = ['engineCode'] as const;

/**
 * QR login (issue 25): the organisation's code, then the chat platform to scan with. The platform's own page shows
 * the QR code; after the scan it sends the browser back to /entry/login/<platform>, which completes the sign-in.
 */
export function ScanLoginForm({ platforms = CHAT_PLATFORMS }: { platforms?: ChatPlatform[] }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ engineCode: string }>();
  const { search } = useLocation();
  const { formError, showError, clearError } = useFormError(form, FIELDS);
  const [missing, setMissing] = useState<ChatPlatform | null>(null);
  const start = useMutation({
    mutationFn: ({ platform, engineCode }: { platform: ChatPlatform; engineCode: string }) =>
      authApi.chatScanStart(platform, engineCode, safeRedirectTarget(readGlobalQueryParams(search).redirectUrl)),
    onSuccess: (result) => {
      // WeChat by the organisation's official account: this site's QR page, for this tab only (decision 0097).
      keepWechatSceneKey(result.redirectUrl, result.browserKey);
      window.location.assign(result.redirectUrl);
    },
    onError: (error, { platform }) => {
      if (isApiError(error) && NOT_CONFIGURED_CODES.has(error.errorCode)) setMissing(platform);
      else showError(error);
    },
  });
  const scanWith = async (platform: ChatPlatform) => {
    clearError();
    setMissing(null);
    try {
      const { engineCode } = await form.validateFields();
      start.mutate({ platform, engineCode: engineCode.trim() });
    } catch {
      // The field shows what is wrong.
    }
  };
  return (
    <Form form={form} name="scanLogin" layout="vertical" requiredMark={false} initialValues={{ engineCode: readGlobalQueryParams(search).engineCode ?? '' }} onFinish={() => scanWith(platforms[0]!)}>
      <Form.Item name="engineCode" label={t('fields.engineCode')} rules={engineCodeRules(t)} extra={t('scan.intro')}>
        <Input autoComplete="organization" placeholder={t('placeholders.engineCode')} />
      </Form.Item>
      {missing && <Alert type="warning" showIcon title={t('scan.notConfigured', { name: t(`scan.names.${missing}`) })} style={{ marginBottom: 16 }} />}
      <FormErrorAlert message={formError} />
      <Flex vertical gap="small">
        {platforms.map((platform, i) => (
          <Button key={platform} type={i === 0 ? 'primary' : 'default'} block loading={start.isPending && start.variables?.platform === platform} onClick={() => void scanWith(platform)}>
            {t(`scan.with.${platform}`)}
          </Button>
        ))}
      </Flex>
    </Form>
  );
}
