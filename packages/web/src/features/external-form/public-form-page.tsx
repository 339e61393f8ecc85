import { useState } from 'react';
import { useParams } from 'react-router';
import { Alert, Button, Card, Flex, Form, Input, Result, Skeleton, Typography } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { controlTypeByKey } from '@tritium/shared/controls/index';
import { fieldKindFor } from '../form-runtime/fields/field-registry.ts';
import type { contracts } from '@tritium/shared';
import { isApiError } from '../../lib/api-error.ts';
import { externalFormApi } from './external-form-api.ts';
import { PasswordCard, VisitorFrame } from '../../components/visitor-page.tsx';

type Field = contracts.PublicField;

/** One field as a visitor fills it, with the form runtime's own editor for its control type (one per type). */
function FieldInput({ field, value, invalid, onChange }: { field: Field; value: unknown; invalid: boolean; onChange: (value: unknown) => void }) {
  const type = controlTypeByKey(field.type);
  const kind = fieldKindFor(type);
  if (!kind) return null;
  return (
    <kind.Edit control={{ code: field.code, type, options: field.options, label: field.displayName }} value={value ?? null} onChange={onChange}
      id={`public-${field.code}`} invalid={invalid} device={window.innerWidth < 768 ? 'phone' : 'pc'} schemaCode="" />
  );
}

const isBlank = (value: unknown) => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * The page a public link opens (issue 19, ExternalForm): no account, no workbench — the password when one is asked,
 * then the form's simple fields; submitting stores the record as the link's owner.
 */
export function PublicFormPage() {
  const { t } = useTranslation();
  const { engineCode = '', token = '' } = useParams();
  const [password, setPassword] = useState<string | undefined>();
  const [done, setDone] = useState(false);
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [tried, setTried] = useState(false);
  const query = useQuery({ queryKey: ['external-form', engineCode, token, password], queryFn: () => externalFormApi.form(engineCode, token, password), retry: false });
  const submit = useMutation({
    mutationFn: (values: Record<string, unknown>) => externalFormApi.submit({ engineCode, token, password, values }),
    onSuccess: () => setDone(true),
  });
  const page = (children: React.ReactNode) => <VisitorFrame>{children}</VisitorFrame>;
  if (query.isLoading) return page(<Card><Skeleton active /></Card>);
  if (query.isError || !query.data) {
    const closed = isApiError(query.error) && query.error.errorCode === 330102;
    return page(<Result status={closed ? 'info' : 'warning'} title={t(closed ? 'externalForm.page.closed' : 'externalForm.page.notFound')} />);
  }
  const data = query.data;
  if (data.needsPassword) return page(<PasswordCard title={data.displayName} wrong={password !== undefined} onOpen={setPassword} />);
  if (done) {
    return page(
      <Result status="success" title={t('externalForm.page.submitted')}
        extra={<Button onClick={() => (setValues({}), setTried(false), setDone(false))}>{t('externalForm.page.again')}</Button>} />,
    );
  }
  const failure = submit.error && isApiError(submit.error) ? submit.error.errorMessage : null;
  const missing = tried ? data.fields.filter((f) => f.required && isBlank(values[f.code])) : [];
  const send = () => {
    setTried(true);
    if (data.fields.some((f) => f.required && isBlank(values[f.code]))) return;
    submit.mutate(Object.fromEntries(Object.entries(values).filter(([, v]) => !isBlank(v))));
  };
  return page(
    <Card title={<Typography.Title level={4} style={{ margin: 0 }}>{data.displayName}</Typography.Title>}>
      <Form layout="vertical" aria-label={data.displayName} onFinish={send}>
        {data.fields.map((field) => {
          const invalid = missing.includes(field);
          return (
            <Form.Item key={field.code} label={field.displayName} htmlFor={`public-${field.code}`} required={field.required}
              validateStatus={invalid ? 'error' : undefined} help={invalid ? t('externalForm.page.required', { name: field.displayName }) : undefined}>
              <FieldInput field={field} value={values[field.code]} invalid={invalid} onChange={(v) => setValues((current) => ({ ...current, [field.code]: v }))} />
            </Form.Item>
          );
        })}
        {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} />}
        <Button type="primary" htmlType="submit" block loading={submit.isPending}>{t('externalForm.page.submit')}</Button>
      </Form>
    </Card>,
  );
}
