import { useState } from 'react';
import { Alert, Button, Flex, Input } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { channelsApi, type ChannelTestBody, type ChannelTestResult } from './channels-api.ts';

/**
 * "发送测试": one message through the saved settings, to the administrator or to the recipient typed here; the
 * result (or the provider's reason for refusing) shows below the button.
 */
export function TestSend({ kind, robotId, recipientLabel, disabled }: { kind: ChannelTestBody['kind']; robotId?: string; recipientLabel?: string; disabled?: boolean }) {
  const { t } = useTranslation();
  const [to, setTo] = useState('');
  const [result, setResult] = useState<ChannelTestResult | null>(null);
  const send = useMutation({
    mutationFn: () => channelsApi.test({ kind, ...(robotId ? { robotId } : {}), ...(to.trim() ? { to: to.trim() } : {}) }),
    onMutate: () => setResult(null),
    onSuccess: setResult,
  });
  return (
    <Flex vertical gap="small">
      <Flex gap="small" wrap>
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
    </Flex>
  );
}
