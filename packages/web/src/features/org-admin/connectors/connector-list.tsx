import { useState } from 'react';
import { Button, Card, Empty, Popconfirm, Space, Table, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { connectorKeys, connectorsApi, type ConnectionDto, type ConnectorDto } from '../../connectors/connectors-api.ts';
import { ConnectorForm } from './connector-form.tsx';
import type { zhCNConnectors } from '../../../locales/zh-CN-connectors.ts';

/** The connectors of one connection, each with its request and the outputs it maps from the answer. */
export function ConnectorList({ connection }: { connection: ConnectionDto }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: connectorKeys.connectors(connection.code), queryFn: () => connectorsApi.connectors(connection.code) });
  const [editing, setEditing] = useState<ConnectorDto | 'new' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['connectors'] });
  const remove = useMutation({ mutationFn: connectorsApi.removeConnector, onSuccess: () => void refresh() });
  const c = (key: keyof typeof zhCNConnectors.connector) => t(`connectors.connector.${key}` as const);
  const columns = [
    { title: c('name'), dataIndex: 'name' },
    { title: c('code'), dataIndex: 'code' },
    { title: c('path'), key: 'request', render: (_: unknown, row: ConnectorDto) => <code>{`${row.method} ${row.path || '/'}`}</code> },
    { title: c('outputs'), key: 'outputs', render: (_: unknown, row: ConnectorDto) => row.outputs.map((o) => <Tag key={o.name}>{`${o.name} ← ${o.path || '$'}`}</Tag>) },
    {
      title: t('connectors.columns.actions'),
      key: 'actions',
      render: (_: unknown, row: ConnectorDto) => (
        <Space size="small">
          <Button size="small" onClick={() => setEditing(row)}>{t('connectors.edit')}</Button>
          <Popconfirm title={t('connectors.removeConfirm', { name: row.name })} onConfirm={() => remove.mutate(row.code)} okText={t('common.ok')} cancelText={t('common.cancel')}>
            <Button size="small" danger>{t('connectors.remove')}</Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
  return (
    <Card size="small" title={t('connectors.connectorsOf', { name: connection.name })} extra={<Button size="small" icon={<PlusOutlined />} onClick={() => setEditing('new')}>{t('connectors.addConnector')}</Button>}>
      <Table rowKey="code" size="small" columns={columns} dataSource={list.data?.items ?? []} loading={list.isLoading} pagination={false} locale={{ emptyText: <Empty description={c('empty')} /> }} />
      {editing && <ConnectorForm connectionCode={connection.code} connector={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={() => { setEditing(null); void refresh(); }} />}
    </Card>
  );
}
