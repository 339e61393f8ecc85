import { useState } from 'react';
import { Flex, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { connectorKeys, connectorsApi, type ConnectorCallDto } from '../../connectors/connectors-api.ts';
import { formatDateTime } from '../../../lib/date-format.ts';
import type { zhCNConnectors } from '../../../locales/zh-CN-connectors.ts';

/** The calls that left through connections, newest first (kept 30 days). */
export function CallLog() {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const log = useQuery({ queryKey: connectorKeys.log(page), queryFn: () => connectorsApi.log(page) });
  const l = (key: keyof typeof zhCNConnectors.log) => t(`connectors.log.${key}` as const);
  const columns = [
    { title: l('time'), dataIndex: 'time', render: (time: string) => formatDateTime(time) },
    { title: l('connection'), dataIndex: 'connectionCode' },
    { title: l('connector'), dataIndex: 'connectorCode', render: (code: string | null) => code ?? '--' },
    { title: l('source'), dataIndex: 'source', render: (source: ConnectorCallDto['source']) => t(`connectors.sources.${source}`) },
    { title: l('request'), key: 'request', render: (_: unknown, row: ConnectorCallDto) => <code>{`${row.method} ${row.url}`}</code> },
    {
      title: l('result'),
      key: 'result',
      render: (_: unknown, row: ConnectorCallDto) => (row.ok ? <Tag color="success">{`${l('ok')} ${row.httpStatus ?? ''}`}</Tag> : <Tag color="error">{row.error}</Tag>),
    },
    { title: l('duration'), dataIndex: 'durationMs' },
  ];
  return (
    <Flex vertical gap="small">
      <Typography.Text type="secondary">{l('intro')}</Typography.Text>
      <Table
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={log.data?.items ?? []}
        loading={log.isLoading}
        pagination={{ current: page + 1, pageSize: 20, total: log.data?.total ?? 0, onChange: (p) => setPage(p - 1), showSizeChanger: false }}
      />
    </Flex>
  );
}
