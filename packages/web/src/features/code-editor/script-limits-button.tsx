import { useState } from 'react';
import { Alert, App, Button, Form, InputNumber, Modal, Typography } from 'antd';
import { DashboardOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { contracts } from '@tritium/shared';
import { codeEditorApi } from './code-editor-api.ts';

const { cpuMs, memoryMb } = contracts.SCRIPT_LIMIT_BOUNDS;
const KEY = ['code-editor', 'limits'] as const;

/** 运行限制: the engine's CPU time and memory per run (docs/decisions/0118); Administrators change them. */
export function ScriptLimitsButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<DashboardOutlined />} onClick={() => setOpen(true)}>{t('codeEditor.limits.open')}</Button>
      {open && <ScriptLimitsDialog onClose={() => setOpen(false)} />}
    </>
  );
}

function ScriptLimitsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<contracts.ScriptLimits>();
  const limits = useQuery({ queryKey: KEY, queryFn: () => codeEditorApi.limits() });
  const save = useMutation({
    mutationFn: (body: contracts.ScriptLimits) => codeEditorApi.saveLimits(body),
    onSuccess: (saved) => {
      client.setQueryData(KEY, saved);
      message.success(t('codeEditor.limits.saved'));
      onClose();
    },
  });
  const canEdit = limits.data?.canEdit ?? false;
  return (
    <Modal open title={t('codeEditor.limits.title')} onCancel={onClose} onOk={() => form.submit()} okButtonProps={{ disabled: !canEdit, loading: save.isPending }}>
      <Typography.Paragraph type="secondary">{t('codeEditor.limits.intro')}</Typography.Paragraph>
      {limits.data && (
        <Form form={form} layout="vertical" disabled={!canEdit} initialValues={{ cpuMs: limits.data.cpuMs, memoryMb: limits.data.memoryMb }} onFinish={(values) => save.mutate(values)}>
          <Form.Item name="cpuMs" label={t('codeEditor.limits.cpuMs')} extra={`${cpuMs.min} – ${cpuMs.max}`} rules={[{ required: true }]}>
            <InputNumber min={cpuMs.min} max={cpuMs.max} step={100} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="memoryMb" label={t('codeEditor.limits.memoryMb')} extra={`${memoryMb.min} – ${memoryMb.max}`} rules={[{ required: true }]}>
            <InputNumber min={memoryMb.min} max={memoryMb.max} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Form>
      )}
      {limits.data && !limits.data.custom && <Typography.Text type="secondary">{t('codeEditor.limits.defaults')}</Typography.Text>}
      {limits.data && !canEdit && <Alert type="info" showIcon title={t('codeEditor.limits.adminOnly')} style={{ marginTop: 12 }} />}
    </Modal>
  );
}
