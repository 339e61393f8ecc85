import { Alert, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PluginTemplate } from '@tritium/shared/plugins/catalogue';
import { pluginKeys, pluginsApi, type PluginCatalogueItem } from './plugins-api.ts';
import { textOf } from './plugin-text.ts';

/**
 * Installs a template, or changes an installed one's settings: one input per field of the template (a select's
 * choices, a number, a password input for a secret that never shows the stored one).
 */
export function PluginSettingsDialog({ template, item, onClose, onDone }: { template: PluginTemplate; item: PluginCatalogueItem; onClose: () => void; onDone: (installed: boolean) => void }) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<Record<string, string | number | null>>();
  const queryClient = useQueryClient();
  const installing = item.status !== 'installed';
  const name = textOf(template.name, i18n.language);
  const save = useMutation({
    mutationFn: (values: Record<string, string | number | null | undefined>) => {
      const settings: Record<string, unknown> = {};
      const secrets: Record<string, string> = {};
      for (const field of template.settings) {
        const value = values[field.key];
        if (field.kind === 'secret') {
          if (typeof value === 'string' && value.trim()) secrets[field.key] = value;
        } else if (value !== undefined && value !== null && value !== '') settings[field.key] = value;
      }
      const body = { code: template.code, settings, secrets };
      return installing ? pluginsApi.install(body) : pluginsApi.saveSettings(body);
    },
    // The client has shown the server's message (which field, or the provider's refusal).
    onSuccess: () => onDone(installing),
    // A failed install check leaves its reason on the card.
    onError: () => void queryClient.invalidateQueries({ queryKey: pluginKeys.all }),
  });
  const initial = Object.fromEntries(template.settings.filter((f) => f.kind !== 'secret').map((f) => [f.key, (item.settings[f.key] as string | number | undefined) ?? undefined]));
  const isChannel = template.offers.settingsPage === '/admin/notification-channels';
  return (
    <Modal
      open
      title={t(installing ? 'plugins.dialog.installTitle' : 'plugins.dialog.settingsTitle', { name })}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      okText={installing ? t('plugins.dialog.installOk') : t('common.save')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      {template.settings.length === 0 && <Alert type="info" showIcon style={{ marginBottom: 16 }} message={isChannel ? t('plugins.dialog.channelNote') : t('plugins.dialog.noSettings')} />}
      <Form form={form} layout="vertical" initialValues={initial} onFinish={(values) => save.mutate(values)}>
        {template.settings.map((field) => {
          const label = textOf(field.label, i18n.language);
          const kept = field.kind === 'secret' && item.secretsSet.includes(field.key);
          const required = field.required && !kept;
          const rules = required ? [{ required: true }] : [];
          return (
            <Form.Item key={field.key} name={field.key} label={label} rules={rules}>
              {field.kind === 'secret' ? (
                <Input.Password autoComplete="new-password" placeholder={kept ? t('plugins.dialog.secretKept') : field.placeholder} />
              ) : field.kind === 'select' ? (
                <Select options={(field.choices ?? []).map((c) => ({ value: c.value, label: textOf(c.label, i18n.language) }))} />
              ) : field.kind === 'number' ? (
                <InputNumber style={{ width: '100%' }} placeholder={field.placeholder} />
              ) : field.kind === 'textarea' ? (
                <Input.TextArea rows={4} placeholder={field.placeholder} />
              ) : (
                <Input placeholder={field.placeholder} />
              )}
            </Form.Item>
          );
        })}
      </Form>
    </Modal>
  );
}
