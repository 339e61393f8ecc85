import { useState } from 'react';
import { useParams } from 'react-router';
import { Alert, App, Button, Card, Empty, Flex, Form, Input, Result, Skeleton, Table, Typography } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../lib/api-error.ts';
import { PasswordCard, VisitorFrame } from '../../components/visitor-page.tsx';
import { externalFormApi } from './external-form-api.ts';

/**
 * The page an open-query link opens (issue 19, OpenQuery): no account; the password or the visitor's mobile and code
 * as the page asks; every query field's value; then the records found, with the result fields only.
 */
export function OpenQueryPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { engineCode = '', token = '' } = useParams();
  const [password, setPassword] = useState<string | undefined>();
  const [values, setValues] = useState<Record<string, string>>({});
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const page = useQuery({ queryKey: ['open-query', engineCode, token, password], queryFn: () => externalFormApi.queryPage(engineCode, token, password), retry: false });
  const search = useMutation({
    mutationFn: () => externalFormApi.search({ engineCode, token, values, ...(password ? { password } : {}), ...(page.data?.access === 'identity' ? { mobile, code } : {}) }),
    // A code answers one query: the next one needs a new code.
    onSuccess: () => setCode(''),
  });
  const sendCode = useMutation({ mutationFn: () => externalFormApi.queryCode({ engineCode, token, mobile }), onSuccess: () => void message.success(t('externalForm.query.page.codeSent')) });
  if (page.isLoading) return <VisitorFrame><Card><Skeleton active /></Card></VisitorFrame>;
  if (page.isError || !page.data) return <VisitorFrame><Result status="warning" title={t('externalForm.page.notFound')} /></VisitorFrame>;
  const data = page.data;
  if (data.needsPassword) return <VisitorFrame><PasswordCard title={data.displayName} wrong={password !== undefined} onOpen={setPassword} /></VisitorFrame>;
  const identity = data.access === 'identity';
  const complete = data.queryFields.every((f) => values[f.code]?.trim()) && (!identity || (/^1\d{10}$/.test(mobile) && /^\d{6}$/.test(code)));
  const failure = (search.error && isApiError(search.error) ? search.error.errorMessage : null) ?? (sendCode.error && isApiError(sendCode.error) ? sendCode.error.errorMessage : null);
  const found = search.data;
  return (
    <VisitorFrame>
      <Flex vertical gap="middle">
        <Card title={<Typography.Title level={4} style={{ margin: 0 }}>{data.displayName}</Typography.Title>}>
          <Form layout="vertical" aria-label={data.displayName} onFinish={() => complete && search.mutate()}>
            {data.queryFields.map((f) => (
              <Form.Item key={f.code} label={f.displayName} htmlFor={`query-${f.code}`} required>
                <Input id={`query-${f.code}`} maxLength={200} value={values[f.code] ?? ''} onChange={(e) => setValues((v) => ({ ...v, [f.code]: e.target.value }))} />
              </Form.Item>
            ))}
            {identity && (
              <>
                <Form.Item label={t('externalForm.query.page.mobile')} htmlFor="query-mobile" required>
                  <Input id="query-mobile" inputMode="numeric" maxLength={11} value={mobile} onChange={(e) => setMobile(e.target.value.trim())} />
                </Form.Item>
                <Form.Item label={t('externalForm.query.page.code')} htmlFor="query-code" required>
                  <Flex gap="small">
                    <Input id="query-code" inputMode="numeric" maxLength={6} value={code} onChange={(e) => setCode(e.target.value.trim())} />
                    <Button disabled={!/^1\d{10}$/.test(mobile)} loading={sendCode.isPending} onClick={() => sendCode.mutate()}>{t('externalForm.query.page.sendCode')}</Button>
                  </Flex>
                </Form.Item>
              </>
            )}
            {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} />}
            <Button type="primary" htmlType="submit" block disabled={!complete} loading={search.isPending}>{t('externalForm.query.page.search')}</Button>
          </Form>
        </Card>
        {found && (
          <Card size="small" title={found.rows.length ? t('externalForm.query.page.found', { count: found.rows.length }) : undefined}>
            {found.rows.length ? (
              <Table size="small" pagination={false} scroll={{ x: 'max-content' }} rowKey={(_, i) => String(i)} aria-label={t('externalForm.query.page.search')}
                columns={found.columns.map((c, i) => ({ key: c.code, title: c.displayName, render: (_: unknown, row: string[]) => row[i] || '--' }))}
                dataSource={found.rows} />
            ) : (
              <Empty description={t('externalForm.query.page.none')} />
            )}
          </Card>
        )}
      </Flex>
    </VisitorFrame>
  );
}
