import { useState } from 'react';
import { Alert, Input, List, Modal, Typography, message } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FlowCenterRow } from './flow-center-api.ts';
import { useRapidApprove } from './flow-center-api.ts';

interface Props {
  rows: FlowCenterRow[];
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}

/** 快速审批: agree the selected approval items with one opinion; items the server refused are listed with why. */
export function RapidApproveDialog({ rows, open, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [failures, setFailures] = useState<{ name: string; message: string }[]>([]);
  const approve = useRapidApprove();
  const nameOf = new Map(rows.map((r) => [r.workItemId, r.instanceName || r.formName]));

  const submit = async () => {
    const result = await approve.mutateAsync({ workItemIds: rows.map((r) => r.workItemId!), text });
    const failed = result.results.filter((r) => !r.successful).map((r) => ({ name: nameOf.get(r.workItemId) ?? r.workItemId, message: r.errorMessage ?? '' }));
    if (failed.length) {
      void message.warning(t('flowCenter.rapid.partly', { ok: result.successCount, failed: result.failCount }));
      setFailures(failed);
    } else {
      void message.success(t('flowCenter.rapid.done', { count: result.successCount }));
      setText('');
      onClose();
    }
    onDone();
  };

  const close = () => {
    setFailures([]);
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('flowCenter.rapid.title', { count: rows.length })}
      okText={t('flowCenter.rapid.confirm')}
      onOk={() => void submit()}
      okButtonProps={{ disabled: !rows.length || failures.length > 0 }}
      confirmLoading={approve.isPending}
      onCancel={close}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{rows.map((r) => r.instanceName || r.formName).join('、')}</Typography.Paragraph>
      <Input.TextArea aria-label={t('flowCenter.rapid.opinion')} placeholder={t('flowCenter.rapid.opinionPlaceholder')} value={text} maxLength={2000} rows={3} onChange={(e) => setText(e.target.value)} />
      {failures.length > 0 && (
        <Alert
          style={{ marginTop: 16 }}
          type="warning"
          message={t('flowCenter.rapid.failedTitle')}
          description={<List size="small" dataSource={failures} renderItem={(f) => <List.Item>{`${f.name}：${f.message}`}</List.Item>} />}
        />
      )}
    </Modal>
  );
}
