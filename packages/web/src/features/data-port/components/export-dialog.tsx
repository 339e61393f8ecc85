import { useEffect, useState } from 'react';
import { Alert, App, Button, Checkbox, Flex, Modal, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dataPortApi, dataPortKeys, type ExportScope } from '../api/data-port-api.ts';
import { TaskProgress } from './task-progress.tsx';
import { usePortTask } from './use-port-task.ts';

/**
 * Export: pick the columns, start the task, follow it, download the workbook. Within a list view (`scope`), the
 * view's columns come first and chosen, and the rows are the view's with the person's filter and quick search.
 */
export function ExportDialog({ schemaCode, formName, open, onClose, scope = {} }: { schemaCode: string; formName: string; open: boolean; onClose(): void; scope?: ExportScope }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const columns = useQuery({ queryKey: dataPortKeys.columns(schemaCode, scope.viewCode), queryFn: () => dataPortApi.columns(schemaCode, scope.viewCode), enabled: open });
  const narrowed = !!scope.viewCode;
  const group = scope.filter as { children?: unknown[] } | undefined;
  const filtered = !!scope.keyword || (group ? (Array.isArray(group.children) ? group.children.length > 0 : true) : false);
  const exportable = (columns.data?.columns ?? []).filter((c) => c.code !== 'ObjectId');
  const [chosen, setChosen] = useState<string[]>([]);
  const [taskId, setTaskId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const task = usePortTask(taskId);
  useEffect(() => {
    if (!columns.data) return;
    const list = columns.data.columns;
    // The server marks the view's (or the default) columns; an older answer without marks gets the default set.
    if (list.some((c) => c.selected !== undefined)) setChosen(list.filter((c) => c.selected).map((c) => c.code));
    else setChosen(list.filter((c) => c.controlType !== 'system' || ['SeqNo', 'Status', 'CreatedBy', 'CreatedTime'].includes(c.code)).map((c) => c.code));
  }, [columns.data]);
  const close = () => { setTaskId(null); onClose(); };
  const start = async () => {
    setBusy(true);
    try {
      setTaskId((await dataPortApi.addExport(schemaCode, exportable.map((c) => c.code).filter((c) => chosen.includes(c)), narrowed ? scope : { filter: scope.filter })).taskId);
    } catch (error) {
      message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={`${t('dataPort.exportDialog.title')} · ${formName}`} width={640} onCancel={close} destroyOnHidden
      footer={[
        !taskId && <Button key="start" type="primary" loading={busy} disabled={!chosen.length} onClick={() => void start()}>{t('dataPort.exportDialog.start')}</Button>,
        <Button key="close" onClick={close}>{t('dataPort.close')}</Button>,
      ].filter(Boolean)}>
      {taskId ? <TaskProgress task={task.data} /> : (
        <Flex vertical gap="small">
          {narrowed && <Alert type="info" showIcon title={t(filtered ? 'dataPort.exportDialog.byViewFiltered' : 'dataPort.exportDialog.byView')} />}
          <Flex justify="space-between" align="center">
            <Typography.Text strong>{t('dataPort.exportDialog.columns')}</Typography.Text>
            <Checkbox checked={chosen.length === exportable.length} indeterminate={chosen.length > 0 && chosen.length < exportable.length}
              onChange={(e) => setChosen(e.target.checked ? exportable.map((c) => c.code) : [])}>{t('dataPort.exportDialog.all')}</Checkbox>
          </Flex>
          <Checkbox.Group value={chosen} onChange={(v) => setChosen(v as string[])} style={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 6, maxHeight: 320, overflow: 'auto' }}
            options={exportable.map((c) => ({ value: c.code, label: c.displayName }))} />
        </Flex>
      )}
    </Modal>
  );
}
