import { App, Button, Flex, Popconfirm, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dataSourceApi, dataSourceKeys } from './connector-ends-api.ts';

/**
 * The inbound connector trigger's card body (docs/decisions/0123): once saved, the delivery URL and the signing secret
 * (both copyable), how a sender signs, and a new secret on demand.
 */
export function InboundSettings({ saved }: { saved: { id: string } | undefined }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const id = saved?.id ?? '';
  const secret = useQuery({ queryKey: dataSourceKeys.inbound(id), queryFn: () => dataSourceApi.inboundSecret(id), enabled: !!saved });
  const reset = useMutation({
    mutationFn: () => dataSourceApi.resetInboundSecret(id),
    onSuccess: (answer) => {
      client.setQueryData(dataSourceKeys.inbound(id), answer);
      void message.success(t('connectors.inbound.resetDone'));
    },
  });
  if (!saved) return <Typography.Text type="secondary">{t('connectors.inbound.unsaved')}</Typography.Text>;
  const data = secret.data;
  const url = data ? new URL(data.url, window.location.origin).href : '';
  return (
    <Flex vertical gap="small">
      <Typography.Text strong>{t('connectors.inbound.url')}</Typography.Text>
      <Typography.Text code copyable={url ? { text: url } : false} style={{ wordBreak: 'break-all' }} aria-label={t('connectors.inbound.url')}>{url || '…'}</Typography.Text>
      <Typography.Text strong>{t('connectors.inbound.secret')}</Typography.Text>
      <Typography.Text code copyable={data ? { text: data.secret } : false} style={{ wordBreak: 'break-all' }} aria-label={t('connectors.inbound.secret')}>{data?.secret ?? '…'}</Typography.Text>
      {data && (
        <Typography.Text type="secondary">
          {t('connectors.inbound.hint', { timestamp: data.headers.timestamp, delivery: data.headers.delivery, signature: data.headers.signature })}
        </Typography.Text>
      )}
      <Typography.Text type="secondary">{t('connectors.inbound.bodyHint')}</Typography.Text>
      <Popconfirm title={t('connectors.inbound.resetConfirm')} onConfirm={() => reset.mutate()}>
        <Button size="small" loading={reset.isPending} style={{ alignSelf: 'flex-start' }}>{t('connectors.inbound.reset')}</Button>
      </Popconfirm>
    </Flex>
  );
}
