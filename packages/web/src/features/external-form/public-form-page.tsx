import { useState } from 'react';
import { useParams } from 'react-router';
import { Alert, Button, Card, Checkbox, DatePicker, Flex, Form, Input, InputNumber, Radio, Result, Select, Skeleton, Typography } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import type { contracts } from '@tritium/shared';
import { isApiError } from '../../lib/api-error.ts';
import { externalFormApi } from './external-form-api.ts';

type Field = contracts.PublicField;

/** One field as a visitor fills it: the simple controls a public link offers (Form.Item gives id, value, onChange). */
function FieldInput({ field, ...control }: { field: Field } & Record<string, unknown>) {
  const options = field.items.map((item) => ({ value: item, label: item }));
  switch (field.type) {
    case 'textArea':
      return <Input.TextArea {...control} rows={3} maxLength={2000} />;
    case 'number':
      return <InputNumber {...control} style={{ width: '100%' }} precision={field.decimalPlaces ?? undefined} />;
    case 'dateTime':
      return <DatePicker {...control} style={{ width: '100%' }} />;
    case 'radioList':
      return <Radio.Group {...control} options={options} />;
    case 'checkboxList':
      return <Checkbox.Group {...control} options={options} />;
    case 'dropDown':
      return <Select {...control} options={options} allowClear />;
    case 'checkbox':
      return <Checkbox {...control} />;
    default:
      return <Input {...control} maxLength={200} />;
  }
}

const toValue = (field: Field, value: unknown) => (field.type === 'dateTime' && value ? (value as Dayjs).format('YYYY-MM-DD HH:mm:ss') : value);

/**
 * The page a public link opens (issue 19, ExternalForm): no account, no workbench — the password when one is asked,
 * then the form's simple fields; submitting stores the record as the link's owner.
 */
export function PublicFormPage() {
  const { t } = useTranslation();
  const { engineCode = '', token = '' } = useParams();
  const [password, setPassword] = useState<string | undefined>();
  const [typed, setTyped] = useState('');
  const [done, setDone] = useState(false);
  const [form] = Form.useForm();
  const query = useQuery({ queryKey: ['external-form', engineCode, token, password], queryFn: () => externalFormApi.form(engineCode, token, password), retry: false });
  const submit = useMutation({
    mutationFn: (values: Record<string, unknown>) => externalFormApi.submit({ engineCode, token, password, values }),
    onSuccess: () => setDone(true),
  });
  const page = (children: React.ReactNode) => (
    <Flex justify="center" style={{ minHeight: '100vh', padding: 16, background: 'var(--ant-color-bg-layout, #f5f5f5)' }}>
      <div style={{ width: '100%', maxWidth: 640 }}>{children}</div>
    </Flex>
  );
  if (query.isLoading) return page(<Card><Skeleton active /></Card>);
  if (query.isError || !query.data) {
    const closed = isApiError(query.error) && query.error.errorCode === 330102;
    return page(<Result status={closed ? 'info' : 'warning'} title={t(closed ? 'externalForm.page.closed' : 'externalForm.page.notFound')} />);
  }
  const data = query.data;
  if (data.needsPassword) {
    return page(
      <Card title={data.displayName}>
        <Flex vertical gap="middle">
          <Typography.Text>{t('externalForm.page.passwordTitle')}</Typography.Text>
          {password !== undefined && <Alert type="error" showIcon title={t('externalForm.page.passwordWrong')} />}
          <Input.Password aria-label={t('externalForm.password')} value={typed} onChange={(e) => setTyped(e.target.value)} onPressEnter={() => setPassword(typed)} />
          <Button type="primary" disabled={!typed} onClick={() => setPassword(typed)}>{t('externalForm.page.open')}</Button>
        </Flex>
      </Card>,
    );
  }
  if (done) {
    return page(
      <Result status="success" title={t('externalForm.page.submitted')}
        extra={<Button onClick={() => (form.resetFields(), setDone(false))}>{t('externalForm.page.again')}</Button>} />,
    );
  }
  const failure = submit.error && isApiError(submit.error) ? submit.error.errorMessage : null;
  return page(
    <Card title={<Typography.Title level={4} style={{ margin: 0 }}>{data.displayName}</Typography.Title>}>
      <Form form={form} layout="vertical" aria-label={data.displayName}
        onFinish={(values: Record<string, unknown>) => submit.mutate(Object.fromEntries(data.fields.filter((f) => values[f.code] !== undefined && values[f.code] !== null).map((f) => [f.code, toValue(f, values[f.code])])))}>
        {data.fields.map((field) => (
          <Form.Item key={field.code} name={field.code} label={field.displayName} valuePropName={field.type === 'checkbox' ? 'checked' : 'value'}
            rules={field.required ? [{ required: true, message: t('externalForm.page.required', { name: field.displayName }) }] : []}>
            <FieldInput field={field} />
          </Form.Item>
        ))}
        {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} />}
        <Button type="primary" htmlType="submit" block loading={submit.isPending}>{t('externalForm.page.submit')}</Button>
      </Form>
    </Card>,
  );
}
