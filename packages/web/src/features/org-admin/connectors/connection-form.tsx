import { Form, Input, Modal, Select } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { applyServerError } from '../../../lib/apply-server-error.ts';
import { connectorsApi, type ConnectionDto, type ConnectionSaveBody } from '../../connectors/connectors-api.ts';
import type { zhCNConnectors } from '../../../locales/zh-CN-connectors.ts';

const AUTH_KINDS = ['none', 'basic', 'bearer', 'apiKey', 'oauth2', 'hmac'] as const;
type AuthKind = (typeof AUTH_KINDS)[number];

// The secret's label per kind; 'none' has none.
const SECRET_LABEL: Record<Exclude<AuthKind, 'none'>, keyof typeof zhCNConnectors.form> = { basic: 'password', bearer: 'token', apiKey: 'apiKey', oauth2: 'clientSecret', hmac: 'hmacKey' };

interface Values {
  name: string;
  code: string;
  baseUrl: string;
  authKind: AuthKind;
  auth: ConnectionSaveBody['auth'];
  secret?: string;
  healthPath: string;
}

/** Adds or edits a connection: the kind's own fields, the secret as a password input that never shows the stored one. */
export function ConnectionForm({ connection, onClose, onSaved }: { connection: ConnectionDto | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('authKind', form) ?? connection?.authKind ?? 'none';
  const save = useMutation({
    mutationFn: (values: Values) =>
      connectorsApi.saveConnection({ ...values, ...(connection ? { originalCode: connection.code } : {}), secret: values.secret || undefined, auth: { ...connection?.auth, ...values.auth } as ConnectionSaveBody['auth'] }),
    onSuccess: onSaved,
    // The client has shown the message; a 777's issues go on their fields too.
    onError: (error) => void applyServerError(form, error, ['name', 'code', 'baseUrl', 'secret', 'healthPath', 'auth']),
  });
  const initial: Partial<Values> = connection
    ? { name: connection.name, code: connection.code, baseUrl: connection.baseUrl, authKind: connection.authKind, auth: connection.auth, healthPath: connection.healthPath }
    : { authKind: 'none', healthPath: '', auth: { apiKeyIn: 'header' } as ConnectionSaveBody['auth'] };
  const keepsSecret = !!connection?.hasSecret && connection.authKind === kind;
  const f = (key: keyof typeof zhCNConnectors.form) => t(`connectors.form.${key}` as const);
  return (
    <Modal open title={connection ? f('editTitle') : f('addTitle')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending} okText={t('common.save')} cancelText={t('common.cancel')} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={initial} onFinish={(values) => save.mutate(values)}>
        <Form.Item name="name" label={f('name')} rules={[{ required: true }]}><Input maxLength={100} /></Form.Item>
        <Form.Item name="code" label={f('code')} rules={[{ required: true }]}><Input maxLength={64} /></Form.Item>
        <Form.Item name="baseUrl" label={f('baseUrl')} rules={[{ required: true }]}><Input placeholder="https://erp.example.com/api" /></Form.Item>
        <Form.Item name="authKind" label={f('authKind')}>
          <Select options={AUTH_KINDS.map((k) => ({ value: k, label: t(`connectors.authKinds.${k}`) }))} />
        </Form.Item>
        {kind === 'basic' && <Form.Item name={['auth', 'username']} label={f('username')} rules={[{ required: true }]}><Input /></Form.Item>}
        {kind === 'apiKey' && (
          <>
            <Form.Item name={['auth', 'apiKeyName']} label={f('apiKeyName')} rules={[{ required: true }]}><Input placeholder="X-Api-Key" /></Form.Item>
            <Form.Item name={['auth', 'apiKeyIn']} label={f('apiKeyIn')}>
              <Select options={[{ value: 'header', label: f('apiKeyInHeader') }, { value: 'query', label: f('apiKeyInQuery') }]} />
            </Form.Item>
          </>
        )}
        {kind === 'oauth2' && (
          <>
            <Form.Item name={['auth', 'tokenUrl']} label={f('tokenUrl')} rules={[{ required: true }]}><Input /></Form.Item>
            <Form.Item name={['auth', 'clientId']} label={f('clientId')} rules={[{ required: true }]}><Input /></Form.Item>
            <Form.Item name={['auth', 'scope']} label={f('scope')}><Input /></Form.Item>
          </>
        )}
        {kind === 'hmac' && <Form.Item name={['auth', 'signatureHeader']} label={f('signatureHeader')}><Input placeholder="X-Signature" /></Form.Item>}
        {kind !== 'none' && (
          <Form.Item name="secret" label={f(SECRET_LABEL[kind])} rules={keepsSecret ? [] : [{ required: true }]}>
            <Input.Password autoComplete="new-password" placeholder={keepsSecret ? f('secretKept') : undefined} />
          </Form.Item>
        )}
        <Form.Item name="healthPath" label={f('healthPath')} extra={f('healthPathHelp')}><Input placeholder="/health" /></Form.Item>
      </Form>
    </Modal>
  );
}
