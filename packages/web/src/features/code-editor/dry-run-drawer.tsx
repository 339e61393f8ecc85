import { useState } from 'react';
import { Alert, Button, Descriptions, Drawer, Empty, Flex, Form, Input, List, Select, Table, Tag, Typography } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DRYRUN_HANDLERS } from '@tritium/shared/contracts/custom-code/dryrun';
import { isApiError } from '../../lib/api-error.ts';
import { codeEditorApi, type DryRunBody, type DryRunResult } from './code-editor-api.ts';

// 试运行: one handler of the form's server script against a chosen record (or a new one); the server rolls every
// change back and answers what would have changed, the refusal or error, what the script answered and its log lines.

const STATUS_COLORS: Record<DryRunResult['status'], string> = { ok: 'green', refused: 'orange', error: 'red', timeout: 'red', memory: 'red' };
const LEVEL_COLORS = { info: 'blue', warn: 'orange', error: 'red' } as const;

const shown = (value: unknown) => (value === undefined || value === null || value === '' ? '--' : typeof value === 'string' ? value : JSON.stringify(value));

interface Values {
  handler: DryRunBody['handler'];
  actionName?: string;
  objectId?: string;
  params?: string;
}

/** `source` and `language`: the editor's text, tried as it is (saved or not). */
export function DryRunDrawer({ schemaCode, source, language, onClose }: { schemaCode: string; source: string; language: DryRunBody['language']; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [failure, setFailure] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: (body: DryRunBody) => codeEditorApi.dryRun(body),
    onMutate: () => setFailure(null),
    onError: (error) => setFailure(isApiError(error) ? error.errorMessage : t('codeEditor.dryRun.failed')),
  });
  const handleRun = (values: Values) => {
    let params: Record<string, unknown> | undefined;
    if (values.params?.trim()) {
      try {
        params = JSON.parse(values.params) as Record<string, unknown>;
      } catch {
        params = undefined;
      }
      if (!params || typeof params !== 'object' || Array.isArray(params)) return form.setFields([{ name: 'params', errors: [t('codeEditor.dryRun.paramsInvalid')] }]);
    }
    run.mutate({ schemaCode, handler: values.handler, actionName: values.actionName?.trim() || undefined, objectId: values.objectId?.trim() || undefined, params, source, language });
  };
  const recent = useQuery({ queryKey: ['code-editor', 'recent-records', schemaCode], queryFn: () => codeEditorApi.recentRecords(schemaCode) });
  const result = run.data;
  return (
    <Drawer open title={t('codeEditor.dryRun.title')} size={640} onClose={onClose}>
      <Typography.Paragraph type="secondary">{t('codeEditor.dryRun.intro')}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ handler: 'onSubmit', actionName: 'Submit' }} onFinish={handleRun}>
        <Flex gap="small">
          <Form.Item name="handler" label={t('codeEditor.dryRun.handler')} style={{ flex: 1 }}>
            <Select options={DRYRUN_HANDLERS.map((h) => ({ value: h, label: t(`codeEditor.dryRun.handlers.${h}`) }))} />
          </Form.Item>
          <Form.Item name="actionName" label={t('codeEditor.dryRun.actionName')} style={{ flex: 1 }}>
            <Input placeholder={t('codeEditor.dryRun.actionPlaceholder')} />
          </Form.Item>
        </Flex>
        <Form.Item name="objectId" label={t('codeEditor.dryRun.objectId')}>
          <Select allowClear showSearch optionFilterProp="label" placeholder={t('codeEditor.dryRun.objectIdPlaceholder')} loading={recent.isLoading}
            options={(recent.data?.list ?? []).map((r) => ({ value: r.ObjectId, label: r.Name || r.ObjectId }))} />
        </Form.Item>
        <Form.Item name="params" label={t('codeEditor.dryRun.params')}>
          <Input.TextArea rows={3} placeholder='{"amount": 100}' />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={run.isPending}>{t('codeEditor.dryRun.run')}</Button>
      </Form>
      {failure && <Alert type="error" showIcon title={failure} style={{ marginTop: 16 }} />}
      {result && <DryRunOutcome result={result} />}
    </Drawer>
  );
}

function DryRunOutcome({ result }: { result: DryRunResult }) {
  const { t } = useTranslation();
  const changes = Object.entries(result.changes).map(([field, [before, after]]) => ({ field, before, after }));
  return (
    <Flex vertical gap="middle" style={{ marginTop: 16 }} role="region" aria-label={t('codeEditor.dryRun.title')}>
      <Flex gap="small" align="center">
        <Tag color={STATUS_COLORS[result.status]}>{t(`codeEditor.dryRun.status.${result.status}`)}</Tag>
        <Typography.Text type="secondary">{t('codeEditor.dryRun.duration', { ms: Math.round(result.durationMs) })}</Typography.Text>
      </Flex>
      {result.refusal && <Alert type="warning" showIcon title={t('codeEditor.dryRun.refusal', { message: result.refusal })} />}
      {result.error && <Alert type="error" showIcon title={t('codeEditor.dryRun.errorAt', { line: result.error.line ?? '--', message: result.error.message })} />}
      <Typography.Title level={5} style={{ margin: 0 }}>{t('codeEditor.dryRun.changes')}</Typography.Title>
      <Table size="small" rowKey="field" pagination={false} dataSource={changes} locale={{ emptyText: t('codeEditor.dryRun.noChanges') }}
        columns={[
          { title: t('codeEditor.dryRun.field'), dataIndex: 'field', render: (code: string) => result.fieldNames?.[code] ?? code },
          { title: t('codeEditor.dryRun.before'), dataIndex: 'before', render: shown },
          { title: t('codeEditor.dryRun.after'), dataIndex: 'after', render: shown },
        ]} />
      {result.responded !== undefined && (
        <Descriptions size="small" column={1} items={[{ key: 'r', label: t('codeEditor.dryRun.responded'), children: <code>{shown(result.responded)}</code> }]} />
      )}
      <Typography.Title level={5} style={{ margin: 0 }}>{t('codeEditor.dryRun.logs')}</Typography.Title>
      {result.logs.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('codeEditor.dryRun.noLogs')} />
      ) : (
        <List size="small" dataSource={result.logs} renderItem={(line) => (
          <List.Item>
            <Tag color={LEVEL_COLORS[line.level]}>{t(`codeEditor.log.levels.${line.level}`)}</Tag>
            <Typography.Text style={{ flex: 1 }}>{line.message}</Typography.Text>
            {line.line !== null && <Typography.Text type="secondary">{`#${line.line}`}</Typography.Text>}
          </List.Item>
        )} />
      )}
    </Flex>
  );
}
