import { useState } from 'react';
import { Alert, Button, Flex, Form, Input, Modal, Popconfirm, Table, Tag, Typography } from 'antd';
import { ApiOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { invokeUrl, openApiApi, openApiKeys, type EngineSecretCreateResult, type EngineSecretDto } from './open-api-api.ts';
import { formatDateTime as when } from '../../../lib/date-format.ts';

/**
 * /admin/open-api: the open API's connection details (EngineCode, the Invoke address) and its secrets. A new
 * secret is shown whole once, in a dialog; the list shows only its first and last characters (docs/decisions/0021).
 */
export function OpenApiPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const secrets = useQuery({ queryKey: openApiKeys.secrets, queryFn: openApiApi.listSecrets });
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<EngineSecretCreateResult | null>(null);
  const [form] = Form.useForm<{ name: string }>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: openApiKeys.secrets });

  const create = useMutation({
    mutationFn: (name: string) => openApiApi.createSecret(name),
    onSuccess: (result) => {
      setCreating(false);
      form.resetFields();
      setShown(result);
      void refresh();
    },
  });
  const revoke = useMutation({ mutationFn: openApiApi.revokeSecret, onSuccess: () => void refresh() });

  const columns = [
    { title: t('openApi.columns.name'), dataIndex: 'name', key: 'name' },
    { title: t('openApi.columns.secret'), dataIndex: 'masked', key: 'masked', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    { title: t('openApi.columns.createdBy'), dataIndex: 'createdByName', key: 'createdBy', render: (v: string | null) => v ?? '—' },
    { title: t('openApi.columns.createdTime'), dataIndex: 'createdTime', key: 'createdTime', render: when },
    { title: t('openApi.columns.lastUsed'), dataIndex: 'lastUsedTime', key: 'lastUsed', render: when },
    {
      title: t('openApi.columns.state'),
      key: 'state',
      render: (_: unknown, s: EngineSecretDto) => (s.revokedTime ? <Tag>{t('openApi.revoked')}</Tag> : <Tag color="green">{t('openApi.active')}</Tag>),
    },
    {
      title: t('openApi.columns.actions'),
      key: 'actions',
      render: (_: unknown, s: EngineSecretDto) =>
        s.revokedTime ? null : (
          <Popconfirm title={t('openApi.revokeConfirm', { name: s.name })} okText={t('openApi.revoke')} okButtonProps={{ danger: true }} onConfirm={() => revoke.mutateAsync(s.id)}>
            <Button type="link" danger size="small" aria-label={t('openApi.revokeOf', { name: s.name })}>
              {t('openApi.revoke')}
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <Flex vertical gap="middle">
      <Flex align="center" justify="space-between">
        <Typography.Title level={4} style={{ margin: 0 }}>
          <ApiOutlined /> {t('openApi.title')}
        </Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {t('openApi.create')}
        </Button>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('openApi.intro')}
      </Typography.Paragraph>
      <Flex vertical gap={4}>
        <Typography.Text>
          {t('openApi.address')}: <Typography.Text code copyable>{invokeUrl()}</Typography.Text>
        </Typography.Text>
        <Typography.Text>
          EngineCode: <Typography.Text code copyable>{secrets.data?.engineCode ?? '…'}</Typography.Text>
        </Typography.Text>
      </Flex>
      <Table<EngineSecretDto>
        rowKey="id"
        size="middle"
        aria-label={t('openApi.listLabel')}
        loading={secrets.isLoading}
        dataSource={secrets.data?.list ?? []}
        columns={columns}
        pagination={false}
        locale={{ emptyText: t('openApi.empty') }}
      />

      <Modal
        title={t('openApi.create')}
        open={creating}
        okText={t('openApi.createOk')}
        confirmLoading={create.isPending}
        onOk={() => form.validateFields().then((v) => create.mutate(v.name.trim()), () => undefined)}
        onCancel={() => setCreating(false)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item name="name" label={t('openApi.nameLabel')} rules={[{ required: true, whitespace: true, message: t('openApi.nameRequired') }, { max: 50 }]}>
            <Input placeholder={t('openApi.namePlaceholder')} maxLength={50} autoFocus />
          </Form.Item>
        </Form>
      </Modal>

      <Modal
        title={t('openApi.createdTitle')}
        open={!!shown}
        closable={false}
        maskClosable={false}
        destroyOnHidden
        footer={
          <Button type="primary" onClick={() => setShown(null)}>
            {t('openApi.createdDone')}
          </Button>
        }
      >
        <Flex vertical gap="middle">
          <Alert type="warning" showIcon message={t('openApi.onceWarning')} />
          <Typography.Paragraph copyable={{ text: shown?.value }} code style={{ wordBreak: 'break-all', margin: 0 }} aria-label={t('openApi.secretValue')}>
            {shown?.value}
          </Typography.Paragraph>
        </Flex>
      </Modal>
    </Flex>
  );
}
