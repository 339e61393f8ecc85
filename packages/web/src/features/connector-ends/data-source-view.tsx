import { useState } from 'react';
import { Button, Empty, Flex, Form, Input, Table, Typography, theme } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dataSourceApi, dataSourceKeys } from './connector-ends-api.ts';
import { DataSourceDesigner } from './data-source-designer.tsx';

/**
 * The data-source node (290; docs/decisions/0123): a read-only table of a connector's list, a page at a time; the
 * filters and every page change go to the outside system through the server. App administrators set it up here.
 */
export function DataSourceView({ code }: { code: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [designing, setDesigning] = useState(false);
  const [page, setPage] = useState({ index: 0, size: 20 });
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [form] = Form.useForm<Record<string, string>>();
  const node = useQuery({ queryKey: dataSourceKeys.node(code), queryFn: () => dataSourceApi.get(code) });
  const definition = node.data?.definition ?? null;
  const rows = useQuery({
    queryKey: dataSourceKeys.rows(code, page.index, page.size, filters),
    queryFn: () => dataSourceApi.query({ nodeCode: code, pageIndex: page.index, pageSize: page.size, filters }),
    enabled: !!definition,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const search = (values: Record<string, string | undefined>) => {
    setFilters(Object.fromEntries(Object.entries(values).filter(([, v]) => v?.trim()).map(([k, v]) => [k, v!.trim()])));
    setPage((p) => ({ ...p, index: 0 }));
  };
  const designer = node.data?.canDesign ? (
    <DataSourceDesigner open={designing} node={node.data} onClose={() => setDesigning(false)} />
  ) : null;
  if (node.isLoading || !node.data) return null;
  if (!definition) {
    return (
      <>
        <Empty style={{ marginTop: token.marginXL }} description={t(node.data.canDesign ? 'connectors.dataSource.notConfigured' : 'connectors.dataSource.notConfiguredMember')}>
          {node.data.canDesign && <Button type="primary" icon={<SettingOutlined />} onClick={() => setDesigning(true)}>{t('connectors.dataSource.configure')}</Button>}
        </Empty>
        {designer}
      </>
    );
  }
  const columns = (rows.data?.columns ?? definition.columns).map((c) => ({
    key: c.field,
    dataIndex: c.field,
    title: c.title,
    render: (value: unknown) => (value === null || value === undefined ? '' : String(value)),
  }));
  return (
    <Flex vertical gap="small" style={{ minHeight: 0 }}>
      <Flex align="start" gap="small" wrap>
        {definition.filters.length > 0 && (
          <Form form={form} layout="inline" onFinish={search} aria-label={t('connectors.dataSource.search')}>
            {definition.filters.map((f) => (
              <Form.Item key={f.place} name={f.place} label={f.label} style={{ marginBottom: 8 }}>
                <Input allowClear maxLength={200} style={{ width: 160 }} />
              </Form.Item>
            ))}
            <Form.Item style={{ marginBottom: 8 }}>
              <Flex gap="small">
                <Button type="primary" htmlType="submit">{t('connectors.dataSource.search')}</Button>
                <Button onClick={() => { form.resetFields(); search({}); }}>{t('connectors.dataSource.reset')}</Button>
              </Flex>
            </Form.Item>
          </Form>
        )}
        {node.data.canDesign && (
          <Button icon={<SettingOutlined />} style={{ marginLeft: 'auto' }} onClick={() => setDesigning(true)}>{t('connectors.dataSource.configure')}</Button>
        )}
      </Flex>
      {rows.error && <Typography.Text type="danger" role="alert">{rows.error.message}</Typography.Text>}
      <Table<Record<string, unknown>>
        size="middle"
        aria-label={node.data.displayName}
        rowKey={(_row, i) => `${page.index}-${i}`}
        loading={rows.isFetching}
        columns={columns}
        dataSource={rows.data?.rows ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page.index + 1,
          pageSize: page.size,
          total: rows.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          showTotal: (total) => t('connectors.dataSource.total', { total }),
          onChange: (current, size) => setPage({ index: size === page.size ? current - 1 : 0, size }),
        }}
      />
      {designer}
    </Flex>
  );
}
