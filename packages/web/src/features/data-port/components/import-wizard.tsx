import { useState } from 'react';
import { App, Button, Flex, Modal, Select, Steps, Table, Typography, Upload } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dataPortApi, dataPortKeys, downloadTemplate, type ImportDataState, type ImportPreview, type ImportType } from '../api/data-port-api.ts';
import { TaskProgress } from './task-progress.tsx';
import { usePortTask, useRecordsRefreshWhenDone } from './use-port-task.ts';

const IMPORT_TYPES: ImportType[] = ['InsertOnly', 'UpdateOnly', 'Upsert'];
const DATA_STATES: ImportDataState[] = ['Draft', 'Effective'];
/** A workflow form may also import records whose flows start (Processing). */
const WORKFLOW_DATA_STATES: ImportDataState[] = ['Draft', 'Effective', 'Processing'];
/** Imported records are Effective unless the person chooses otherwise (docs/decisions/0020). */
const DEFAULT_DATA_STATE: ImportDataState = 'Effective';

/** The import wizard: upload, map columns (type, key, state), preview, then the task's progress and result. */
export function ImportWizard({ schemaCode, formName, open, onClose, isWorkflow }: { schemaCode: string; formName: string; open: boolean; onClose(): void; isWorkflow?: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [step, setStep] = useState(0);
  const [fileId, setFileId] = useState<string | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [importType, setImportType] = useState<ImportType>('InsertOnly');
  const [keyField, setKeyField] = useState<string | undefined>();
  const [dataState, setDataState] = useState<ImportDataState>(DEFAULT_DATA_STATE);
  const [taskId, setTaskId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const columns = useQuery({ queryKey: dataPortKeys.columns(schemaCode), queryFn: () => dataPortApi.columns(schemaCode), enabled: open });
  const task = usePortTask(taskId);
  useRecordsRefreshWhenDone(schemaCode, task.data);
  const importable = (columns.data?.columns ?? []).filter((c) => c.importable);
  const mapped = Object.entries(mapping).filter(([, field]) => field);
  const keyOptions = importable.filter((c) => !c.grid && mapped.some(([, f]) => f === c.code));

  const reset = () => {
    setStep(0); setFileId(null); setPreview(null); setMapping({}); setTaskId(null); setKeyField(undefined); setImportType('InsertOnly'); setDataState(DEFAULT_DATA_STATE);
  };
  const close = () => { reset(); onClose(); };
  const upload = async (file: File) => {
    setBusy(true);
    try {
      const ref = await dataPortApi.upload(file);
      const p = await dataPortApi.preview(schemaCode, ref.id);
      setFileId(ref.id);
      setPreview(p);
      setMapping(Object.fromEntries(p.headers.map((h) => [h, p.mapping.find((m) => m.column === h)?.field ?? ''])));
      setStep(1);
    } catch (error) {
      message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const start = async () => {
    setBusy(true);
    try {
      const { taskId: id } = await dataPortApi.addImport({ schemaCode, fileId: fileId!, importType, dataState, keyField, mapping: mapped.map(([column, field]) => ({ column, field })) });
      setTaskId(id);
      setStep(3);
    } catch (error) {
      message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const needsKey = importType !== 'InsertOnly';
  const footer = [
    step > 0 && step < 3 && <Button key="back" onClick={() => setStep(step - 1)}>{t('dataPort.back')}</Button>,
    step === 1 && <Button key="next" type="primary" disabled={!mapped.length || (needsKey && !keyField)} onClick={() => setStep(2)}>{t('dataPort.next')}</Button>,
    step === 2 && <Button key="start" type="primary" loading={busy} onClick={() => void start()}>{t('dataPort.start')}</Button>,
    <Button key="close" onClick={close}>{t('dataPort.close')}</Button>,
  ].filter(Boolean);

  return (
    <Modal open={open} title={`${t('dataPort.import')} · ${formName}`} width={860} onCancel={close} footer={footer} destroyOnHidden>
      <Steps size="small" current={step} style={{ marginBottom: 16 }} items={(['upload', 'map', 'preview', 'result'] as const).map((k) => ({ title: t(`dataPort.steps.${k}`) }))} />
      {step === 0 && (
        <Flex vertical gap="middle">
          <Upload.Dragger accept=".xlsx,.csv" showUploadList={false} disabled={busy} beforeUpload={(file) => { void upload(file); return false; }}>
            <p className="ant-upload-drag-icon"><InboxOutlined /></p>
            <p>{busy ? t('dataPort.upload.uploading') : t('dataPort.upload.hint')}</p>
            <Typography.Text type="secondary">{t('dataPort.upload.note')}</Typography.Text>
          </Upload.Dragger>
          <Button icon={<DownloadOutlined />} onClick={() => void downloadTemplate(schemaCode, t('dataPort.upload.templateFile', { name: formName }))}>{t('dataPort.upload.template')}</Button>
        </Flex>
      )}
      {step === 1 && preview && (
        <Flex vertical gap="middle">
          <Table size="small" pagination={false} rowKey="column" scroll={{ y: 280 }} dataSource={preview.headers.map((column) => ({ column }))}
            columns={[
              { title: t('dataPort.map.column'), dataIndex: 'column' },
              {
                title: t('dataPort.map.field'),
                render: (_v, row: { column: string }) => (
                  <Select aria-label={row.column} style={{ width: 260 }} value={mapping[row.column] ?? ''} onChange={(v: string) => setMapping({ ...mapping, [row.column]: v })}
                    options={[{ value: '', label: t('dataPort.map.ignore') }, ...importable.map((c) => ({ value: c.code, label: c.displayName }))]} />
                ),
              },
            ]} />
          <Flex gap="large" wrap align="center">
            <label>{t('dataPort.map.importType')}{' '}
              <Select aria-label={t('dataPort.map.importType')} style={{ width: 140 }} value={importType} onChange={setImportType} options={IMPORT_TYPES.map((v) => ({ value: v, label: t(`dataPort.importType.${v}`) }))} />
            </label>
            <label title={t('dataPort.map.keyHint')}>{t('dataPort.map.key')}{' '}
              <Select aria-label={t('dataPort.map.key')} allowClear style={{ width: 160 }} value={keyField} onChange={setKeyField} options={keyOptions.map((c) => ({ value: c.code, label: c.displayName }))} />
            </label>
            <label>{t('dataPort.map.dataState')}{' '}
              <Select aria-label={t('dataPort.map.dataState')} style={{ width: 110 }} value={dataState} onChange={setDataState} options={(isWorkflow ? WORKFLOW_DATA_STATES : DATA_STATES).map((v) => ({ value: v, label: t(`dataPort.dataState.${v}`) }))} />
            </label>
          </Flex>
          {!mapped.length && <Typography.Text type="danger">{t('dataPort.map.none')}</Typography.Text>}
        </Flex>
      )}
      {step === 2 && preview && (
        <Flex vertical gap="small">
          <Typography.Text>{t('dataPort.preview.rows', { count: preview.rows.length, mapped: mapped.length })}</Typography.Text>
          <Table size="small" pagination={false} scroll={{ x: true, y: 320 }} rowKey="__row" dataSource={preview.rows.map((r, n) => ({ __row: n, ...Object.fromEntries(r.map((v, i) => [String(i), v])) }))}
            columns={preview.headers.map((h, i) => ({ title: mapping[h] ? h : <Typography.Text type="secondary">{h}</Typography.Text>, dataIndex: String(i), ellipsis: true }))} />
        </Flex>
      )}
      {step === 3 && <TaskProgress task={task.data} />}
    </Modal>
  );
}
