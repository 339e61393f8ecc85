import { useState } from 'react';
import { useParams } from 'react-router';
import { Card, Descriptions, Flex, Result, Skeleton, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../lib/api-error.ts';
import { recordShareApi } from './record-share-api.ts';
import { PasswordCard, VisitorFrame } from '../../components/visitor-page.tsx';

const EMPTY = '--';

/**
 * The page a record share opens (issue 19, ExternalShare): no account; the password when one is asked, then the
 * record read-only — its fields and sub-tables as the member who shared it sees them.
 */
export function SharedRecordPage() {
  const { t } = useTranslation();
  const { engineCode = '', token = '' } = useParams();
  const [password, setPassword] = useState<string | undefined>();
  const query = useQuery({ queryKey: ['shared-record', engineCode, token, password], queryFn: () => recordShareApi.sharedRecord(engineCode, token, password), retry: false });
  if (query.isLoading) return <VisitorFrame><Card><Skeleton active /></Card></VisitorFrame>;
  if (query.isError || !query.data) {
    const expired = isApiError(query.error) && query.error.errorCode === 330104;
    return <VisitorFrame><Result status={expired ? 'info' : 'warning'} title={t(expired ? 'externalForm.share.expired' : 'externalForm.page.notFound')} /></VisitorFrame>;
  }
  const data = query.data;
  if (data.needsPassword) return <VisitorFrame><PasswordCard title={data.displayName} wrong={password !== undefined} onOpen={setPassword} /></VisitorFrame>;
  return (
    <VisitorFrame>
      <Card
        title={
          <Flex vertical style={{ padding: '12px 0' }}>
            <Typography.Title level={4} style={{ margin: 0 }}>{data.title || data.displayName}</Typography.Title>
            {data.title && <Typography.Text type="secondary">{data.displayName}</Typography.Text>}
          </Flex>
        }
        extra={<Typography.Text type="secondary">{t('externalForm.share.readOnly')}</Typography.Text>}
      >
        <Flex vertical gap="large">
          <Descriptions bordered column={{ xs: 1, sm: 1, md: 2 }} size="small"
            items={data.fields.map((f) => ({ key: f.code, label: f.displayName, children: f.text || EMPTY }))} />
          {data.tables.map((table) => (
            <Flex key={table.code} vertical gap="small">
              <Typography.Text strong>{table.displayName}</Typography.Text>
              <Table size="small" pagination={false} scroll={{ x: 'max-content' }} rowKey={(_, i) => String(i)}
                aria-label={table.displayName}
                columns={table.columns.map((c, i) => ({ key: c.code, title: c.displayName, render: (_: unknown, row: string[]) => row[i] || EMPTY }))}
                dataSource={table.rows} />
            </Flex>
          ))}
        </Flex>
      </Card>
    </VisitorFrame>
  );
}
