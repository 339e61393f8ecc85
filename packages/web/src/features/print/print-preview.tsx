import { useMemo, useRef, useState } from 'react';
import { Alert, App, Button, Dropdown, Flex, Result, Select, Skeleton, theme } from 'antd';
import { FileExcelOutlined, PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { renderPrintHtml } from '@tritium/shared/print/index';
import { isApiError } from '../../lib/api-error.ts';
import { downloadFilledExcel, FORM_LAYOUT, printApi, printKeys } from './print-api.ts';
import { PrintFrame, type PrintFrameHandle } from './print-frame.tsx';

/**
 * The form's Print mode (issue 24): records rendered with the chosen template (the form's default one, else the form's
 * own layout) by the same renderer the PDF jobs use, and the browser's print dialog for them.
 */
export function PrintPreview({ schemaCode, objectIds, initialTemplateId }: { schemaCode: string; objectIds: string[]; initialTemplateId?: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const frame = useRef<PrintFrameHandle>(null);
  const [templateId, setTemplateId] = useState<string | undefined>(initialTemplateId);
  const header = useQuery({ queryKey: printKeys.header(schemaCode), queryFn: () => printApi.header(schemaCode), retry: false });
  const data = useQuery({ queryKey: printKeys.data(schemaCode, objectIds, templateId), queryFn: () => printApi.data(schemaCode, objectIds, templateId), retry: false, enabled: objectIds.length > 0 });
  const { message } = App.useApp();
  const excel = useQuery({ queryKey: printKeys.excel(schemaCode), queryFn: () => printApi.excelList(schemaCode), retry: false, enabled: objectIds.length === 1 });
  const html = useMemo(() => (data.data ? renderPrintHtml(data.data.layout, data.data.sheet) : ''), [data.data]);
  const error = header.error ?? data.error;
  if (error) return <Result status="warning" title={isApiError(error) ? error.errorMessage : t('print.loadFailed')} />;
  if (!header.data || !data.data) return <Skeleton active style={{ padding: token.paddingLG }} />;
  const chosen = templateId ?? data.data.templateId ?? FORM_LAYOUT;
  return (
    <Flex vertical style={{ height: '100vh' }}>
      <Flex align="center" gap="small" wrap className="tritium-no-print" style={{ padding: token.paddingSM, borderBottom: `1px solid ${token.colorBorderSecondary}`, background: token.colorBgContainer }}>
        <span>{t('print.template')}</span>
        <Select aria-label={t('print.template')} style={{ minWidth: 220 }} value={chosen}
          options={[{ value: FORM_LAYOUT, label: t('print.formLayout') }, ...header.data.templates.map((x) => ({ value: x.templateId, label: x.isDefault ? `${x.name}（${t('print.default')}）` : x.name }))]}
          onChange={(v) => setTemplateId(v)} />
        <span style={{ color: token.colorTextSecondary }}>{t('print.recordCount', { count: data.data.sheet.documents.length })}</span>
        <div style={{ flex: 1 }} />
        {!!excel.data?.list.length && (
          <Dropdown trigger={['click']} menu={{
            items: excel.data.list.flatMap((x) => [
              { key: `xlsx:${x.templateId}`, label: t('print.excel.asXlsx', { name: x.name }) },
              { key: `pdf:${x.templateId}`, label: t('print.excel.asPdf', { name: x.name }) },
            ]),
            onClick: ({ key }) => {
              const [format, id] = key.split(':') as ['xlsx' | 'pdf', string];
              const name = excel.data!.list.find((x) => x.templateId === id)!.name;
              void downloadFilledExcel(id, objectIds[0]!, `${name}.${format}`, format).catch((e: Error) => message.error(e.message));
            },
          }}>
            <Button icon={<FileExcelOutlined />}>{t('print.excel.download')}</Button>
          </Dropdown>
        )}
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => frame.current?.print()}>{t('print.print')}</Button>
      </Flex>
      {data.data.sheet.documents.length < objectIds.length && <Alert type="info" showIcon title={t('print.someHidden')} />}
      <div style={{ flex: 1, minHeight: 0 }}>
        <PrintFrame ref={frame} html={html} title={t('print.previewTitle')} />
      </div>
    </Flex>
  );
}
