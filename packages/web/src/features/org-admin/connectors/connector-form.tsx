import { Button, Flex, Form, Input, Modal, Select, Typography } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { applyServerError } from '../../../lib/apply-server-error.ts';
import { connectorsApi, type ConnectorDto, type ConnectorSaveBody } from '../../connectors/connectors-api.ts';
import type { zhCNConnectors } from '../../../locales/zh-CN-connectors.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const PLACE = '{{Field}}';

type Values = Omit<ConnectorSaveBody, 'connectionCode' | 'originalCode'>;

/** Adds or edits a connector: method and path, parameters filled from `{{Field}}` places, outputs read by JSON path. */
export function ConnectorForm({ connectionCode, connector, onClose, onSaved }: { connectionCode: string; connector: ConnectorDto | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useMutation({
    mutationFn: (values: Values) => connectorsApi.saveConnector({ ...values, params: values.params ?? [], outputs: values.outputs ?? [], connectionCode, ...(connector ? { originalCode: connector.code } : {}) }),
    onSuccess: onSaved,
    onError: (error) => void applyServerError(form, error, ['name', 'code', 'path', 'params', 'outputs']),
  });
  const c = (key: keyof typeof zhCNConnectors.connector) => t(`connectors.connector.${key}` as const);
  const initial: Values = connector
    ? { name: connector.name, code: connector.code, method: connector.method, path: connector.path, params: connector.params, outputs: connector.outputs }
    : { name: '', code: '', method: 'GET', path: '', params: [], outputs: [] };
  return (
    <Modal open width={720} title={connector ? c('editTitle') : c('addTitle')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending} okText={t('common.save')} cancelText={t('common.cancel')} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={initial} onFinish={(values) => save.mutate(values)}>
        <Flex gap="small">
          <Form.Item name="name" label={c('name')} rules={[{ required: true }]} style={{ flex: 1 }}><Input maxLength={100} /></Form.Item>
          <Form.Item name="code" label={c('code')} rules={[{ required: true }]} style={{ flex: 1 }}><Input maxLength={64} /></Form.Item>
        </Flex>
        <Flex gap="small">
          <Form.Item name="method" label={c('method')} style={{ width: 120 }}><Select options={METHODS.map((m) => ({ value: m, label: m }))} /></Form.Item>
          <Form.Item name="path" label={c('path')} extra={t('connectors.connector.pathHelp', { place: PLACE })} style={{ flex: 1 }}><Input placeholder="/customers/{{CustomerNo}}" /></Form.Item>
        </Flex>
        <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>{c('params')}</Typography.Text>
        <Form.List name="params">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Flex key={field.key} gap="small" align="baseline">
                  <Form.Item name={[field.name, 'name']} rules={[{ required: true }]} style={{ flex: 1 }}><Input placeholder={c('paramName')} aria-label={c('paramName')} /></Form.Item>
                  <Form.Item name={[field.name, 'in']} initialValue="query" style={{ width: 110 }}>
                    <Select aria-label={c('paramIn')} options={[{ value: 'query', label: c('inQuery') }, { value: 'body', label: c('inBody') }, { value: 'header', label: c('inHeader') }]} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'value']} initialValue="" style={{ flex: 2 }}><Input placeholder={t('connectors.connector.paramValue', { place: PLACE })} aria-label={c('paramValue')} /></Form.Item>
                  <MinusCircleOutlined onClick={() => remove(field.name)} />
                </Flex>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add()} style={{ marginBottom: 16 }}>{c('addParam')}</Button>
            </>
          )}
        </Form.List>
        <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>{c('outputs')}</Typography.Text>
        <Form.List name="outputs">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Flex key={field.key} gap="small" align="baseline">
                  <Form.Item name={[field.name, 'name']} rules={[{ required: true }]} style={{ flex: 1 }}><Input placeholder={c('outputName')} aria-label={c('outputName')} /></Form.Item>
                  <Form.Item name={[field.name, 'path']} initialValue="" style={{ flex: 2 }}><Input placeholder={c('outputPath')} aria-label={c('outputPath')} /></Form.Item>
                  <MinusCircleOutlined onClick={() => remove(field.name)} />
                </Flex>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add()}>{c('addOutput')}</Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
