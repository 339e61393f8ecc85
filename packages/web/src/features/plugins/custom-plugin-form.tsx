import { Alert, Form, Input, Modal, Select } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { applyServerError } from '../../lib/apply-server-error.ts';
import { pluginKeys, pluginsApi, type CustomPluginDto } from './plugins-api.ts';

interface Values {
  name: string;
  code: string;
  description: string;
  connectorCode: string;
  buttonText: string;
  outputs: string[];
}

/** Adds or edits a plugin of the engine's own: a button that calls one connector and shows some of its outputs. */
export function CustomPluginForm({ plugin, onClose, onSaved }: { plugin: CustomPluginDto | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  // The connector plugin not installed answers 430001: the list stays empty and the note says why.
  const choices = useQuery({ queryKey: pluginKeys.connectorChoices, queryFn: pluginsApi.connectorChoices, retry: false });
  const connectorCode = Form.useWatch('connectorCode', form) ?? plugin?.definition.connectorCode;
  const outputs = choices.data?.items.find((c) => c.code === connectorCode)?.outputs ?? [];
  const save = useMutation({
    mutationFn: (v: Values) =>
      pluginsApi.saveCustom({
        ...(plugin ? { originalCode: plugin.code } : {}),
        code: v.code,
        name: v.name,
        description: v.description ?? '',
        definition: { connectorCode: v.connectorCode, buttonText: v.buttonText, outputs: v.outputs ?? [] },
      }),
    onSuccess: onSaved,
    onError: (error) => void applyServerError(form, error, ['name', 'code', 'description']),
  });
  const initial: Partial<Values> = plugin
    ? { name: plugin.name, code: plugin.code, description: plugin.description, connectorCode: plugin.definition.connectorCode, buttonText: plugin.definition.buttonText, outputs: plugin.definition.outputs }
    : { outputs: [] };
  const f = (key: string) => t(`plugins.custom.form.${key}` as 'plugins.custom.form.name');
  return (
    <Modal open title={plugin ? f('editTitle') : f('addTitle')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending} okText={t('common.save')} cancelText={t('common.cancel')} destroyOnHidden>
      {plugin?.publication === 'published' && <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={f('backToPrePublish')} />}
      {choices.isFetched && !choices.data?.items.length && <Alert type="info" showIcon style={{ marginBottom: 16 }} message={f('noConnectors')} />}
      <Form form={form} layout="vertical" initialValues={initial} onFinish={(v) => save.mutate(v)}>
        <Form.Item name="name" label={f('name')} rules={[{ required: true }]}><Input maxLength={50} /></Form.Item>
        <Form.Item name="code" label={f('code')} rules={[{ required: true }]}><Input maxLength={64} /></Form.Item>
        <Form.Item name="description" label={f('description')}><Input.TextArea rows={2} maxLength={500} /></Form.Item>
        <Form.Item name="connectorCode" label={f('connector')} rules={[{ required: true }]}>
          <Select
            placeholder={f('connectorPlaceholder')}
            loading={choices.isLoading}
            options={(choices.data?.items ?? []).map((c) => ({ value: c.code, label: `${c.connectionName} / ${c.name}` }))}
            onChange={() => form.setFieldValue('outputs', [])}
          />
        </Form.Item>
        <Form.Item name="buttonText" label={f('buttonText')} rules={[{ required: true }]}><Input maxLength={20} /></Form.Item>
        <Form.Item name="outputs" label={f('outputs')} extra={f('outputsHelp')}>
          <Select mode="multiple" options={outputs.map((o) => ({ value: o, label: o }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
