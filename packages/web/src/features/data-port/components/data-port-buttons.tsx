import { useState } from 'react';
import { Button } from 'antd';
import { DownloadOutlined, HistoryOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import type { ExportScope } from '../api/data-port-api.ts';
import { ExportDialog } from './export-dialog.tsx';
import { ImportWizard } from './import-wizard.tsx';
import { dataPortTasksPath } from './task-history.tsx';

/**
 * 导入 / 导出 / 导入导出记录 for a form's list (docs/decisions/0020): place it in the list's toolbar. `scope` is the
 * open list view with the person's filter and quick search (the export follows them); the history is its own page.
 */
export function DataPortButtons({ schemaCode, formName, scope, nodeType, canImport = true, canExport = true }: {
  schemaCode: string;
  formName?: string;
  scope?: ExportScope;
  nodeType?: number;
  /** The caller's rights on the form (docs/decisions/0037): a button for an action they may not take is not shown. */
  canImport?: boolean;
  canExport?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState<'import' | 'export' | null>(null);
  const name = formName ?? schemaCode;
  return (
    <>
      {canImport && <Button icon={<UploadOutlined />} onClick={() => setOpen('import')}>{t('dataPort.import')}</Button>}
      {canExport && <Button icon={<DownloadOutlined />} onClick={() => setOpen('export')}>{t('dataPort.export')}</Button>}
      <Button icon={<HistoryOutlined />} aria-label={t('dataPort.history')} title={t('dataPort.history')} onClick={() => navigate(dataPortTasksPath(schemaCode))} />
      <ImportWizard schemaCode={schemaCode} formName={name} open={open === 'import'} onClose={() => setOpen(null)} isWorkflow={nodeType === FunctionNodeType.WorkflowModule} />
      <ExportDialog schemaCode={schemaCode} formName={name} open={open === 'export'} onClose={() => setOpen(null)} scope={scope} />
    </>
  );
}
