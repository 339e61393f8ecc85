import { useState } from 'react';
import { App, Button, Empty, Flex, Popconfirm, Skeleton, Space, Table, Tabs, Tag, Typography } from 'antd';
import { ApiOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { connectorKeys, connectorsApi, type ConnectionDto } from '../../connectors/connectors-api.ts';
import { ConnectionForm } from './connection-form.tsx';
import { ConnectorList } from './connector-list.tsx';
import { CallLog } from './call-log.tsx';

// ui.md: antd's grey is "default".
export const STATUS_COLORS = { disabled: 'default', normal: 'success', exception: 'error' } as const;

/**
 * /admin/connectors: the engine's connections to outside systems with their status (已停用 / 正常 / 异常), a test,
 * enable and disable, the connectors of each, and the log of calls (issue 44, docs/decisions/0120).
 */
export function ConnectorsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const connections = useQuery({ queryKey: connectorKeys.connections, queryFn: connectorsApi.connections });
  const [editing, setEditing] = useState<ConnectionDto | 'new' | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['connectors'] });
  const test = useMutation({
    mutationFn: connectorsApi.test,
    onSuccess: (result) => {
      if (result.ok) void message.success(t('connectors.testOk', { status: result.httpStatus, ms: result.durationMs }));
      else void message.error(t('connectors.testFailed', { error: result.error }));
      void refresh();
    },
  });
  const enable = useMutation({ mutationFn: ({ code, enabled }: { code: string; enabled: boolean }) => connectorsApi.enable(code, enabled), onSuccess: () => void refresh() });
  const remove = useMutation({ mutationFn: connectorsApi.removeConnection, onSuccess: () => void refresh() });
  const items = connections.data?.items ?? [];
  const current = items.find((c) => c.code === selected) ?? null;

  const columns = [
    { title: t('connectors.columns.name'), dataIndex: 'name', render: (name: string, row: ConnectionDto) => <Button type="link" style={{ padding: 0 }} onClick={() => setSelected(row.code)}>{name}</Button> },
    { title: t('connectors.columns.code'), dataIndex: 'code' },
    { title: t('connectors.columns.baseUrl'), dataIndex: 'baseUrl', ellipsis: true },
    { title: t('connectors.columns.auth'), dataIndex: 'authKind', render: (kind: ConnectionDto['authKind']) => t(`connectors.authKinds.${kind}`) },
    {
      title: t('connectors.columns.status'),
      dataIndex: 'status',
      render: (status: ConnectionDto['status'], row: ConnectionDto) => (
        <Tag color={STATUS_COLORS[status]} title={row.lastError ?? undefined} data-testid={`status-${row.code}`}>
          {t(`connectors.status.${status}`)}
        </Tag>
      ),
    },
    { title: t('connectors.columns.connectors'), dataIndex: 'connectorCount' },
    {
      title: t('connectors.columns.actions'),
      key: 'actions',
      // One line of four buttons: wrapped, they made each row twice as tall.
      width: 300,
      render: (_: unknown, row: ConnectionDto) => (
        <Space size="small">
          <Button size="small" loading={test.isPending && test.variables === row.code} onClick={() => test.mutate(row.code)}>{t('connectors.test')}</Button>
          <Button size="small" onClick={() => enable.mutate({ code: row.code, enabled: row.status === 'disabled' })}>
            {row.status === 'disabled' ? t('connectors.enable') : t('connectors.disable')}
          </Button>
          <Button size="small" onClick={() => setEditing(row)}>{t('connectors.edit')}</Button>
          <Popconfirm title={t('connectors.removeConfirm', { name: row.name })} onConfirm={() => remove.mutate(row.code)} okText={t('common.ok')} cancelText={t('common.cancel')}>
            <Button size="small" danger>{t('connectors.remove')}</Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  const connectionsTab = connections.data ? (
    <Flex vertical gap="middle">
      <Flex justify="space-between" align="center">
        <Typography.Text type="secondary">{t('connectors.intro')}</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>{t('connectors.add')}</Button>
      </Flex>
      <Table rowKey="code" size="middle" columns={columns} dataSource={items} pagination={false} locale={{ emptyText: <Empty description={t('connectors.empty')} /> }} />
      {current && <ConnectorList connection={current} />}
    </Flex>
  ) : (
    <Skeleton active paragraph={{ rows: 6 }} />
  );

  return (
    <Flex vertical gap="middle">
      <Typography.Title level={4} style={{ margin: 0 }}>
        <ApiOutlined /> {t('connectors.title')}
      </Typography.Title>
      <Tabs items={[{ key: 'connections', label: t('connectors.connectionsTab'), children: connectionsTab }, { key: 'log', label: t('connectors.log.title'), children: <CallLog /> }]} />
      {editing && <ConnectionForm connection={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={() => { setEditing(null); void message.success(t('connectors.saved')); void refresh(); }} />}
    </Flex>
  );
}
