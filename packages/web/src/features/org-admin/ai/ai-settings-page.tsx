import { useEffect, useState } from 'react';
import { App, Button, Card, Descriptions, Flex, Form, Input, InputNumber, Skeleton, Space, Switch, Table, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { contracts } from '@tritium/shared';
import { aiApi, aiKeys } from '../../ai/ai-api.ts';

type Values = Omit<contracts.AiSettingsSaveBody, 'quotaTokens'> & { quotaTokens?: number | null };

/**
 * /admin/ai: the engine's AI provider (an OpenAI-compatible address, key, models), the credit with what is left, each
 * person's rate, a test call, and the log of calls (issue 45, docs/decisions/0124).
 */
export function AiSettingsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [page, setPage] = useState(0);
  const settings = useQuery({ queryKey: aiKeys.settings, queryFn: aiApi.settings });
  const usage = useQuery({ queryKey: aiKeys.usage(page), queryFn: () => aiApi.usage(page) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['ai'] });
  const save = useMutation({
    mutationFn: (values: Values) => aiApi.save({ ...values, apiKey: values.apiKey || undefined, quotaTokens: values.quotaTokens ?? null }),
    onSuccess: () => {
      void message.success(t('ai.saved'));
      form.setFieldValue('apiKey', '');
      void refresh();
    },
  });
  const test = useMutation({
    mutationFn: aiApi.test,
    onSuccess: (result) => void message.success(t('ai.testOk', { model: result.model, reply: result.reply, ms: result.durationMs })),
    onSettled: () => void refresh(),
  });

  const data = settings.data;
  useEffect(() => {
    if (!data) return;
    form.setFieldsValue({
      baseUrl: data.baseUrl,
      apiKey: '',
      chatModel: data.chatModel,
      visionModel: data.visionModel,
      enabled: data.configured ? data.enabled : true,
      quotaTokens: data.quotaTokens,
      userCallsPerMinute: data.userCallsPerMinute,
    });
  }, [data, form]);
  if (!data) return <Skeleton active />;

  const columns = [
    { title: t('ai.usage.at'), dataIndex: 'at', width: 170, render: (at: string) => new Date(at).toLocaleString('zh-CN') },
    { title: t('ai.usage.user'), dataIndex: 'userName' },
    { title: t('ai.usage.scene'), dataIndex: 'scene' },
    { title: t('ai.usage.model'), dataIndex: 'model' },
    { title: t('ai.usage.tokens'), key: 'tokens', render: (_: unknown, r: contracts.AiUsageDto) => `${r.totalTokens}（${r.promptTokens}/${r.completionTokens}）` },
    { title: t('ai.usage.duration'), dataIndex: 'durationMs', render: (ms: number) => `${ms} ms` },
    {
      title: t('ai.usage.result'),
      dataIndex: 'ok',
      render: (ok: boolean, r: contracts.AiUsageDto) => (ok ? <Tag color="success">{t('ai.usage.ok')}</Tag> : <Tag color="error" title={r.error ?? undefined}>{t('ai.usage.failed')}</Tag>),
    },
  ];

  return (
    <Flex vertical gap="large" style={{ maxWidth: 960 }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('ai.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('ai.intro')}
      </Typography.Paragraph>
      <Card>
        <Form form={form} layout="vertical" onFinish={(values) => save.mutate(values)} style={{ maxWidth: 560 }}>
          <Form.Item name="baseUrl" label={t('ai.form.baseUrl')} extra={t('ai.form.baseUrlHint')} rules={[{ required: true }]}>
            <Input placeholder="https://" />
          </Form.Item>
          <Form.Item name="apiKey" label={t('ai.form.apiKey')} rules={[{ required: !data.hasKey }]}>
            <Input.Password autoComplete="new-password" placeholder={data.hasKey ? t('ai.form.apiKeyKept') : ''} />
          </Form.Item>
          <Form.Item name="chatModel" label={t('ai.form.chatModel')} rules={[{ required: true }]}>
            <Input />
          </Form.Item>
          <Form.Item name="visionModel" label={t('ai.form.visionModel')} extra={t('ai.form.visionModelHint')}>
            <Input />
          </Form.Item>
          <Form.Item name="quotaTokens" label={t('ai.form.quotaTokens')} extra={t('ai.form.quotaHint')}>
            <InputNumber min={0} precision={0} style={{ width: 240 }} />
          </Form.Item>
          <Form.Item name="userCallsPerMinute" label={t('ai.form.userCallsPerMinute')} rules={[{ required: true }]}>
            <InputNumber min={1} max={600} precision={0} />
          </Form.Item>
          <Form.Item name="enabled" label={t('ai.form.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t('ai.form.save')}
            </Button>
            <Button disabled={!data.configured} loading={test.isPending} onClick={() => test.mutate()}>
              {t('ai.form.test')}
            </Button>
          </Space>
        </Form>
      </Card>
      <Card title={t('ai.credit.title')}>
        <Descriptions column={3} size="small">
          <Descriptions.Item label={t('ai.credit.quota')}>{data.quotaTokens ?? t('ai.credit.unlimited')}</Descriptions.Item>
          <Descriptions.Item label={t('ai.credit.used')}>{data.usedTokens}</Descriptions.Item>
          <Descriptions.Item label={t('ai.credit.remaining')}>
            <span data-testid="ai-remaining">{data.remainingTokens ?? t('ai.credit.unlimited')}</span>
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title={t('ai.usage.title')}>
        <Table
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={usage.data?.items ?? []}
          loading={usage.isLoading}
          locale={{ emptyText: t('ai.usage.empty') }}
          pagination={{ current: page + 1, pageSize: 20, total: usage.data?.total ?? 0, onChange: (p) => setPage(p - 1), showSizeChanger: false }}
        />
      </Card>
    </Flex>
  );
}
