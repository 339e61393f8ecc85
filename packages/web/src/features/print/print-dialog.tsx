import { useState } from 'react';
import { Alert, App, Button, Flex, Modal, Progress, Radio, Select, Typography } from 'antd';
import { DownloadOutlined, PrinterOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FORM_PRINT_PATH } from '@tritium/shared/constants/entry-routes';
import { FORM_LAYOUT, printApi, printKeys, type PrintPaperBody, type PrintProgress } from './print-api.ts';

/** The list's narrowing: its view, the person's filter and quick search (a whole-view print follows them). */
export interface PrintScope {
  viewCode?: string;
  filter?: PrintPaperBody['filter'];
  keyword?: string;
}

const BROWSER_MAX = 50;
const EXCEL_CHOICE = 'excel:';
const DONE: readonly string[] = ['Complete', 'Error'];

export const printPageUrl = (schemaCode: string, objectIds: readonly string[], templateId?: string) =>
  `${FORM_PRINT_PATH}/${encodeURIComponent(schemaCode)}?ids=${objectIds.map(encodeURIComponent).join(',')}${templateId ? `&templateId=${encodeURIComponent(templateId)}` : ''}`;

function JobProgress({ job, onRetry }: { job: PrintProgress | undefined; onRetry(): void }) {
  const { t } = useTranslation();
  if (!job) return <Progress percent={0} />;
  const failed = job.state === 'Error';
  return (
    <Flex vertical gap="small">
      <Typography.Text>{t(`print.states.${job.state}`)}{job.total ? ` · ${t('print.recordCount', { count: job.total })}` : ''}{job.pages ? ` · ${t('print.pageCount', { count: job.pages })}` : ''}</Typography.Text>
      <Progress percent={Math.round(job.progress)} status={failed ? 'exception' : job.state === 'Complete' ? 'success' : 'active'} />
      {failed && <Alert type="error" showIcon title={job.message ?? t('print.failed')} action={job.retryable ? <Button size="small" icon={<ReloadOutlined />} onClick={onRetry}>{t('print.retry')}</Button> : undefined} />}
      {job.downloadUrl && <Button type="primary" icon={<DownloadOutlined />} href={job.downloadUrl}>{t('print.download')}</Button>}
      {job.state === 'Complete' && !job.downloadUrl && <Alert type="warning" showIcon title={job.message ?? t('print.expired')} />}
    </Flex>
  );
}

/**
 * Print from a list (issue 24): the selection or every record of the (filtered) view, with a template; in the browser
 * (up to 50 records) or as one PDF made by a print job, followed with a progress bar and downloaded when done.
 */
export function PrintDialog({ schemaCode, formName, open, onClose, selected, scope = {} }: { schemaCode: string; formName: string; open: boolean; onClose(): void; selected: string[]; scope?: PrintScope }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const header = useQuery({ queryKey: printKeys.header(schemaCode), queryFn: () => printApi.header(schemaCode), enabled: open });
  const excel = useQuery({ queryKey: printKeys.excel(schemaCode), queryFn: () => printApi.excelList(schemaCode), enabled: open, retry: false });
  const [range, setRange] = useState<'selected' | 'view'>(selected.length ? 'selected' : 'view');
  const [templateId, setTemplateId] = useState<string | undefined>();
  const [taskId, setTaskId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const job = useQuery({
    queryKey: ['print', 'progress', taskId],
    queryFn: () => printApi.progress(taskId!),
    enabled: !!taskId,
    refetchInterval: (q) => (q.state.data && DONE.includes(q.state.data.state) ? false : 1000),
  });
  const defaultTemplate = header.data?.templates.find((x) => x.isDefault)?.templateId ?? FORM_LAYOUT;
  const chosen = templateId ?? defaultTemplate;
  const useSelection = range === 'selected' && selected.length > 0;
  // An Excel template (value excel:<id>) prints each record's filled workbook into the PDF.
  const excelTemplateId = chosen.startsWith(EXCEL_CHOICE) ? chosen.slice(EXCEL_CHOICE.length) : undefined;
  const close = () => { setTaskId(null); onClose(); };
  const startPdf = async () => {
    setBusy(true);
    try {
      const body: PrintPaperBody = { schemaCode, ...(excelTemplateId ? { excelTemplateId } : { templateId: chosen }), ...(useSelection ? { objectIds: selected } : { viewCode: scope.viewCode, filter: scope.filter, keyword: scope.keyword }) };
      setTaskId((await printApi.paper(body)).taskId);
    } catch (error) {
      message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const retry = async () => {
    await printApi.retry(taskId!);
    await job.refetch();
  };
  return (
    <Modal open={open} title={`${t('print.dialogTitle')} · ${formName}`} width={560} onCancel={close} destroyOnHidden
      footer={taskId ? [<Button key="close" onClick={close}>{t('print.close')}</Button>] : [
        <Button key="browser" icon={<PrinterOutlined />} disabled={!useSelection || selected.length > BROWSER_MAX || !!excelTemplateId} title={excelTemplateId ? t('print.excel.noBrowser') : undefined}
          onClick={() => window.open(printPageUrl(schemaCode, selected, chosen), '_blank', 'noopener')}>{t('print.inBrowser')}</Button>,
        <Button key="pdf" type="primary" loading={busy} onClick={() => void startPdf()}>{t('print.makePdf')}</Button>,
      ]}>
      {taskId ? <JobProgress job={job.data} onRetry={() => void retry()} /> : (
        <Flex vertical gap="middle">
          <Flex vertical gap={4}>
            <Typography.Text strong>{t('print.range')}</Typography.Text>
            <Radio.Group value={useSelection ? 'selected' : 'view'} onChange={(e) => setRange(e.target.value)}
              options={[
                { value: 'selected', label: t('print.rangeSelected', { count: selected.length }), disabled: !selected.length },
                { value: 'view', label: t('print.rangeView') },
              ]} />
          </Flex>
          <Flex vertical gap={4}>
            <Typography.Text strong>{t('print.template')}</Typography.Text>
            <Select aria-label={t('print.template')} value={chosen} onChange={setTemplateId} loading={header.isLoading}
              options={[
                { value: FORM_LAYOUT, label: t('print.formLayout') },
                ...(header.data?.templates ?? []).map((x) => ({ value: x.templateId, label: x.isDefault ? `${x.name}（${t('print.default')}）` : x.name })),
                ...(excel.data?.list ?? []).map((x) => ({ value: `${EXCEL_CHOICE}${x.templateId}`, label: t('print.excel.option', { name: x.name }) })),
              ]} />
          </Flex>
          {useSelection && selected.length > BROWSER_MAX && <Alert type="info" showIcon title={t('print.browserLimit', { max: BROWSER_MAX })} />}
        </Flex>
      )}
    </Modal>
  );
}

/** 打印 in a list's toolbar, shown only with the print right (docs/decisions/0037). */
export function PrintButton(props: Omit<Parameters<typeof PrintDialog>[0], 'open' | 'onClose'> & { canPrint: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!props.canPrint) return null;
  return (
    <>
      <Button icon={<PrinterOutlined />} onClick={() => setOpen(true)}>{t('print.button')}</Button>
      {open && <PrintDialog {...props} open onClose={() => setOpen(false)} />}
    </>
  );
}
