import { useState, type ReactNode } from 'react';
import { Alert, Button, Flex, Input } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { channelsApi, type ChannelTestBody, type ChannelTestResult } from './channels-api.ts';

/**
 * "发送测试": one message through the saved settings, to the administrator or to the recipient typed here; the
 * result (or the provider's reason for refusing) shows below the button, and so does a refusal of the request itself
 * (a channel not set up, no account to send to). The chat-app tab sends through its own route (`sendWith`) and puts
 * its platform choice before the button (`before`).
 */
export function TestSend({
  kind,
  robotId,
  recipientLabel,
  disabled,
  sendWith,
  before,
}: {
  kind?: ChannelTestBody['kind'];
  robotId?: string;
  recipientLabel?: string;
  disabled?: boolean;
  sendWith?: () => Promise<ChannelTestResult>;
  before?: ReactNode;
}) {
  const { t } = useTranslation();
  const [to, setTo] = useState('');
  const [result, setResult] = useState<ChannelTestResult | null>(null);
  const send = useMutation({
    mutationFn: () => sendWith?.() ?? channelsApi.test({ kind: kind ?? 'email', ...(robotId ? { robotId } : {}), ...(to.trim() ? { to: to.trim() } : {}) }),
    onMutate: () => setResult(null),
    onSuccess: setResult,
  });
  return (
    <Flex vertical gap="small">
      <Flex gap="small" wrap>
        {before}
        {recipientLabel ? <Input aria-label={recipientLabel} placeholder={recipientLabel} value={to} onChange={(e) => setTo(e.target.value)} style={{ width: 260 }} /> : null}
        <Button icon={<SendOutlined />} loading={send.isPending} disabled={disabled} onClick={() => send.mutate()}>
          {t('notificationChannels.test')}
        </Button>
      </Flex>
      {result ? (
        <Alert
          role="status"
          type={result.sent ? 'success' : 'error'}
          showIcon
          title={result.sent ? t('notificationChannels.testSent') : t('notificationChannels.testFailed')}
          description={result.detail}
        />
      ) : null}
      {send.isError ? <Alert role="alert" type="error" showIcon title={isApiError(send.error) ? send.error.message : t('notificationChannels.testFailed')} /> : null}
    </Flex>
  );
}
