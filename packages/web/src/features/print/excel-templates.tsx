import { useState } from 'react';
import { App, Button, Card, Flex, Input, Popconfirm, Table, Typography, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { printApi, printKeys, uploadWorkbook } from './print-api.ts';
import { formatDateTime } from '../../lib/date-format.ts';

/**
 * A form's Excel print templates (issue 24): upload a workbook with `{字段编码}` placeholders and a row of
 * `{子表编码.列编码}` placeholders (repeated per sub-table row); at most 20 a form.
 */
export function ExcelTemplates({ schemaCode }: { schemaCode: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: printKeys.excel(schemaCode), queryFn: () => printApi.excelList(schemaCode) });
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: printKeys.excel(schemaCode) });
  const rows = list.data?.list ?? [];
  const full = rows.length >= (list.data?.max ?? 20);
  return (
    <Card title={t('print.excel.title')} size="small" extra={<Typography.Text type="secondary">{t('print.templates.count', { count: rows.length, max: list.data?.max ?? 20 })}</Typography.Text>}>
      <Typography.Paragraph type="secondary">{t('print.excel.hint')}</Typography.Paragraph>
      <Flex gap="small" style={{ marginBottom: 12 }}>
        <Input aria-label={t('print.excel.name')} placeholder={t('print.excel.name')} value={name} onChange={(e) => setName(e.target.value)} maxLength={50} style={{ maxWidth: 240 }} />
        <Upload accept=".xlsx" showUploadList={false} disabled={!name.trim() || full} beforeUpload={(file) => {
          setBusy(true);
          void (async () => {
            try {
              await printApi.excelSave(schemaCode, name.trim(), await uploadWorkbook(file));
              setName('');
              message.success(t('print.designer.saved'));
              await refresh();
            } catch (error) {
              message.error((error as Error).message);
            } finally {
              setBusy(false);
            }
          })();
          return false;
        }}>
          <Button icon={<UploadOutlined />} loading={busy} disabled={!name.trim() || full}>{t('print.excel.upload')}</Button>
        </Upload>
      </Flex>
      <Table rowKey="templateId" size="small" dataSource={rows} pagination={false} loading={list.isLoading} locale={{ emptyText: t('print.excel.empty') }}
        columns={[
          { title: t('print.templates.name'), dataIndex: 'name' },
          { title: t('print.templates.modified'), dataIndex: 'createdTime', width: 180, render: (v: string) => formatDateTime(v) },
          {
            title: t('print.templates.actions'), key: 'a', width: 100,
            render: (_v, r) => (
              <Popconfirm title={t('print.templates.removeConfirm', { name: r.name })} onConfirm={async () => { await printApi.excelRemove(r.templateId); await refresh(); }}>
                <Button size="small" danger>{t('print.templates.remove')}</Button>
              </Popconfirm>
            ),
          },
        ]} />
    </Card>
  );
}
