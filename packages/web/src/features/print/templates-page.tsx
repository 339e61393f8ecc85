import { useState } from 'react';
import { App, Button, Flex, Layout, Popconfirm, Result, Skeleton, Table, Tag, Typography, theme } from 'antd';
import { ArrowLeftOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FORM_DESIGNER_PATH } from '@tritium/shared/constants/entry-routes';
import { isApiError } from '../../lib/api-error.ts';
import { printApi, printKeys, type PrintTemplateDto } from './print-api.ts';
import { TemplateDesigner } from './designer/template-designer.tsx';
import { ExcelTemplates } from './excel-templates.tsx';
import { formatDateTime } from '../../lib/date-format.ts';

/** FORM_PRINT_TEMPLATES_PATH/:schemaCode — a form's print templates (issue 24): the list, then the designer. */
export function PrintTemplatesPage() {
  const { schemaCode = '' } = useParams();
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const header = useQuery({ queryKey: printKeys.header(schemaCode), queryFn: () => printApi.header(schemaCode), retry: false });
  const [editing, setEditing] = useState<{ template?: PrintTemplateDto } | null>(null);
  if (header.error) return <Result status="warning" title={isApiError(header.error) ? header.error.errorMessage : t('print.loadFailed')} />;
  if (!header.data) return <Skeleton active style={{ padding: token.paddingLG }} />;
  if (editing) {
    return <TemplateDesigner schemaCode={schemaCode} fields={header.data.fields} initial={editing.template} onBack={() => setEditing(null)} />;
  }
  const list = header.data.templates;
  const isFull = list.length >= header.data.limits.maxTemplates;
  const open = async (templateId: string) => setEditing({ template: await printApi.template(templateId) });
  const remove = async (templateId: string) => {
    await printApi.remove(templateId);
    message.success(t('print.templates.removed'));
    await queryClient.invalidateQueries({ queryKey: printKeys.header(schemaCode) });
  };
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Flex component="header" align="center" gap="small" wrap style={{ minHeight: 56, padding: `8px ${token.padding}px`, background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
        <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t('print.templates.back')} onClick={() => navigate(`${FORM_DESIGNER_PATH}?schemaCode=${encodeURIComponent(schemaCode)}`)} />
        <Typography.Title level={4} ellipsis style={{ margin: 0, flex: '1 1 160px', minWidth: 0 }}>{t('print.templates.title', { form: header.data.title })}</Typography.Title>
        <Typography.Text type="secondary">{t('print.templates.count', { count: list.length, max: header.data.limits.maxTemplates })}</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} disabled={isFull} onClick={() => setEditing({})}>{t('print.templates.add')}</Button>
      </Flex>
      <Layout.Content style={{ padding: token.padding, minWidth: 0 }}>
        <Table rowKey="templateId" dataSource={list} pagination={false} scroll={{ x: 640 }}
          locale={{ emptyText: t('print.templates.empty') }}
          columns={[
            { title: t('print.templates.name'), dataIndex: 'name', render: (v: string, r) => <Flex gap="small" align="center"><a onClick={() => void open(r.templateId)}>{v}</a>{r.isDefault && <Tag color="blue">{t('print.default')}</Tag>}</Flex> },
            { title: t('print.templates.paper'), dataIndex: 'paper', width: 140, render: (v: string, r) => `${v} · ${t(r.orientation === 'landscape' ? 'print.designer.landscape' : 'print.designer.portrait')}` },
            { title: t('print.templates.modified'), dataIndex: 'modifiedTime', width: 180, render: (v: string) => formatDateTime(v) },
            {
              title: t('print.templates.actions'), key: 'actions', width: 140,
              render: (_v, r) => (
                <Flex gap="small">
                  <Button size="small" onClick={() => void open(r.templateId)}>{t('print.templates.edit')}</Button>
                  <Popconfirm title={t('print.templates.removeConfirm', { name: r.name })} onConfirm={() => void remove(r.templateId)}>
                    <Button size="small" danger>{t('print.templates.remove')}</Button>
                  </Popconfirm>
                </Flex>
              ),
            },
          ]} />
        <div style={{ marginTop: token.margin }}>
          <ExcelTemplates schemaCode={schemaCode} />
        </div>
      </Layout.Content>
    </Layout>
  );
}
