import { useEffect, useState } from 'react';
import { Alert, Flex, Form, Modal, Progress, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { listViewApi, type BatchTask, type ViewField } from '../api/list-view-api.ts';
import { FilterValueInput } from '../../../components/filter-editor/filter-value-input.tsx';

const NOT_EDITABLE = new Set(['system', 'formula', 'seqNo', 'attachment', 'photo', 'handSign', 'eSign', 'faceRecognition', 'rollup', 'associatedProperty']);
const POLL_MS = 800;

/**
 * Batch edit: one field, one value, on the selected records. Runs as a background job on the server; the dialog
 * follows its progress and then says how many records changed and which were refused.
 */
export function BatchEditDialog({ open, schemaCode, viewCode, fields, objectIds, onClose, onDone }: {
  open: boolean;
  schemaCode: string;
  viewCode: string;
  fields: ViewField[];
  objectIds: string[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const editable = fields.filter((f) => !NOT_EDITABLE.has(f.controlType));
  const [field, setField] = useState<string | undefined>();
  const [value, setValue] = useState<unknown>(null);
  const [task, setTask] = useState<BatchTask | null>(null);
  const [busy, setBusy] = useState(false);
  const running = task !== null && (task.state === 'Waiting' || task.state === 'Running');

  useEffect(() => {
    if (!open) {
      setField(undefined);
      setValue(null);
      setTask(null);
    }
  }, [open]);

  useEffect(() => {
    if (!task || !running) return;
    const timer = setTimeout(() => {
      void listViewApi.batchProgress(task.taskId).then((next) => {
        setTask(next);
        if (next.state === 'Finished') onDone();
      });
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [task, running, onDone]);

  const start = async () => {
    if (!field) return;
    setBusy(true);
    try {
      const { taskId } = await listViewApi.batchUpdate({ schemaCode, viewCode, objectIds, field, value });
      setTask({ taskId, schemaCode, field, state: 'Waiting', progress: 0, message: null, createdTime: new Date().toISOString(), result: null });
    } finally {
      setBusy(false);
    }
  };
  const current = editable.find((f) => f.code === field);
  const result = task?.result;
  return (
    <Modal
      open={open}
      title={t('listView.batch.title', { count: objectIds.length })}
      okText={task ? t('listView.batch.close') : t('listView.batch.run')}
      okButtonProps={{ disabled: !task && !field, loading: busy || running }}
      onOk={() => (task ? onClose() : void start())}
      onCancel={onClose}
      cancelButtonProps={{ style: task ? { display: 'none' } : undefined }}
      destroyOnHidden
    >
      {!task ? (
        <Form layout="vertical">
          <Form.Item label={t('listView.batch.field')}>
            <Select aria-label={t('listView.batch.field')} value={field} onChange={(v: string) => { setField(v); setValue(null); }} options={editable.map((f) => ({ value: f.code, label: f.title }))} />
          </Form.Item>
          {current && (
            <Form.Item label={t('listView.batch.value')}>
              <FilterValueInput field={current} value={value} onChange={setValue} label={t('listView.batch.value')} operator={current.dataType.endsWith('s') ? 'In' : undefined} />
            </Form.Item>
          )}
        </Form>
      ) : (
        <Flex vertical gap="small">
          <Progress percent={task.progress} status={task.state === 'Failed' || task.state === 'Timeout' ? 'exception' : task.state === 'Finished' ? 'success' : 'active'} aria-label={t('listView.batch.progress')} />
          <Typography.Text>{t(`listView.batch.state.${task.state as 'Waiting' | 'Running' | 'Finished' | 'Failed' | 'Timeout'}`)}</Typography.Text>
          {result && (
            <Alert
              type={result.failedCount ? 'warning' : 'success'}
              title={t('listView.batch.result', { succeeded: result.succeeded, failed: result.failedCount })}
              description={result.failed.length ? result.failed.map((f) => <div key={f.objectId}>{f.message}</div>) : undefined}
            />
          )}
        </Flex>
      )}
    </Modal>
  );
}
