import { useState } from 'react';
import { Button } from 'antd';
import { DownloadOutlined, HistoryOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ExportDialog } from './export-dialog.tsx';
import { ImportWizard } from './import-wizard.tsx';
import { TaskHistory } from './task-history.tsx';

/** 导入 / 导出 / 导入导出记录 for a form's list (docs/decisions/0020): place it in the list's toolbar. */
export function DataPortButtons({ schemaCode, formName }: { schemaCode: string; formName?: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<'import' | 'export' | 'history' | null>(null);
  const name = formName ?? schemaCode;
  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setOpen('import')}>{t('dataPort.import')}</Button>
      <Button icon={<DownloadOutlined />} onClick={() => setOpen('export')}>{t('dataPort.export')}</Button>
      <Button icon={<HistoryOutlined />} aria-label={t('dataPort.history')} title={t('dataPort.history')} onClick={() => setOpen('history')} />
      <ImportWizard schemaCode={schemaCode} formName={name} open={open === 'import'} onClose={() => setOpen(null)} />
      <ExportDialog schemaCode={schemaCode} formName={name} open={open === 'export'} onClose={() => setOpen(null)} />
      <TaskHistory schemaCode={schemaCode} open={open === 'history'} onClose={() => setOpen(null)} />
    </>
  );
}
