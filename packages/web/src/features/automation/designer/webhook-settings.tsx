import { App, Button, Flex, Popconfirm, Typography } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { automationApi, automationKeys, type AutomationDto } from '../automation-api.ts';

/** The webhook's URL with a copy button once saved, and a new secret on demand. */
export function WebhookSettings({ saved }: { saved: AutomationDto | undefined }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const reset = useMutation({
    mutationFn: () => automationApi.resetSecret(saved!.id),
    onSuccess: () => {
      void message.success(t('automation.trigger.resetDone'));
      void client.invalidateQueries({ queryKey: automationKeys.list(saved!.schemaCode) });
    },
  });
  if (!saved?.webhookUrl) return <Typography.Text type="secondary">{t('automation.trigger.webhookUnsaved')}</Typography.Text>;
  const url = new URL(saved.webhookUrl, window.location.origin).href;
  return (
    <Flex vertical gap="small">
      <Typography.Text strong>{t('automation.trigger.webhookUrl')}</Typography.Text>
      <Typography.Text code copyable={{ text: url }} style={{ wordBreak: 'break-all' }} aria-label={t('automation.trigger.webhookUrl')}>{url}</Typography.Text>
      <Typography.Text type="secondary">{t('automation.trigger.webhookHint')}</Typography.Text>
      <Popconfirm title={t('automation.trigger.resetConfirm')} onConfirm={() => reset.mutate()}>
        <Button size="small" loading={reset.isPending} style={{ alignSelf: 'flex-start' }}>{t('automation.trigger.resetSecret')}</Button>
      </Popconfirm>
    </Flex>
  );
}
