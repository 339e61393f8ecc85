import { useState } from 'react';
import { App, Button, Flex, Modal, Progress, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { contracts } from '@tritium/shared';
import { dataPortApi, FINAL_STATES, type PortTask } from '../api/data-port-api.ts';

// Rolling back an import from the history (docs/decisions/0031): 回滚 with a confirmation, the roll back's own
// progress bar while it runs (the page polls), then its state, counts and the records it left as they were.

/** The roll back is still to come or running. */
export const rollbackOpen = (task: PortTask) => !!task.rollback && !FINAL_STATES.has(task.rollback.state);

/** 回滚 (or 继续回滚 after a roll back that died), with a confirmation. */
export function RollbackButton({ task, onDone }: { task: PortTask; onDone: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  if (!task.rollbackOffered) return null;
  const ask = () =>
    modal.confirm({
      title: t('dataPort.rollback.confirmTitle'),
      content: t('dataPort.rollback.confirmBody'),
      okText: t('dataPort.rollback.confirmOk'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await dataPortApi.rollback(task.taskId);
          message.success(t('dataPort.rollback.queued'));
        } catch (error) {
          message.error((error as Error).message);
        }
        await onDone();
      },
    });
  return (
    <Button size="small" type="link" danger onClick={ask}>
      {t(task.rollback ? 'dataPort.rollback.resume' : 'dataPort.rollback.action')}
    </Button>
  );
}

/** The roll back's state under the import's: a progress bar while it runs, then its counts. */
export function RollbackStatus({ task }: { task: PortTask }) {
  const { t } = useTranslation();
  const [reportOpen, setReportOpen] = useState(false);
  const r = task.rollback;
  if (!r) return null;
  if (!FINAL_STATES.has(r.state)) {
    return (
      <Flex vertical gap={2}>
        <Tag color="processing" style={{ width: 'fit-content' }}>{t('dataPort.rollback.running')}</Tag>
        <Progress size="small" percent={Math.round(r.progress)} status="active" aria-label={t('dataPort.rollback.progress')} />
      </Flex>
    );
  }
  const done = r.state === 'Finished';
  const left = r.refused + r.gone;
  return (
    <Flex vertical gap={2}>
      <Tag color={done ? 'purple' : 'warning'} style={{ width: 'fit-content' }}>{t(done ? 'dataPort.rollback.done' : 'dataPort.rollback.stopped')}</Tag>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('dataPort.rollback.counts', { ...r, refused: left })}</Typography.Text>
      {left > 0 && (
        <Button size="small" type="link" style={{ padding: 0, height: 'auto', width: 'fit-content' }} onClick={() => setReportOpen(true)}>
          {t('dataPort.rollback.report')}
        </Button>
      )}
      {reportOpen && <RollbackReport taskId={task.taskId} onClose={() => setReportOpen(false)} />}
    </Flex>
  );
}

type ReportRow = contracts.RollbackReportResult['rows'][number];

function RollbackReport({ taskId, onClose }: { taskId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const report = useQuery({ queryKey: ['data-port', 'rollback-report', taskId], queryFn: () => dataPortApi.rollbackReport(taskId) });
  return (
    <Modal open title={t('dataPort.rollback.reportTitle', { total: report.data?.total ?? 0 })} onCancel={onClose} footer={null} width={720}>
      <Table<ReportRow>
        size="small"
        rowKey="objectId"
        loading={report.isLoading}
        dataSource={report.data?.rows ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        columns={[
          { title: t('dataPort.rollback.rowNo'), dataIndex: 'rowNo', width: 70 },
          { title: t('dataPort.rollback.kind'), dataIndex: 'action', width: 80, render: (v: ReportRow['action']) => t(`dataPort.rollback.${v}`) },
          { title: t('dataPort.rollback.objectId'), dataIndex: 'objectId', width: 180, ellipsis: true },
          { title: t('dataPort.rollback.note'), dataIndex: 'note' },
        ]}
      />
    </Modal>
  );
}
