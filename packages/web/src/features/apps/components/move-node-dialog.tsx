import { useState } from 'react';
import { Form, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FunctionNodeDto } from '../api/apps-api.ts';

interface MoveNodeDialogProps {
  open: boolean;
  node: FunctionNodeDto | undefined;
  /** The app and its groups. */
  parents: { code: string; displayName: string }[] | undefined;
  onSubmit: (parentCode: string) => Promise<unknown>;
  onClose: () => void;
}

/** 移动到…: the keyboard's way to do what dragging a node onto a group does. */
export function MoveNodeDialog({ open, node, parents, onSubmit, onClose }: MoveNodeDialogProps) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<string>();
  const [isSaving, setSaving] = useState(false);
  const options = (parents ?? []).filter((p) => p.code !== node?.parentCode && p.code !== node?.code).map((p) => ({ value: p.code, label: p.displayName }));
  const submit = async () => {
    if (!target) return;
    setSaving(true);
    try {
      await onSubmit(target);
      onClose();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t('apps.move.title', { name: node?.displayName ?? '' })}
      destroyOnHidden
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !target, loading: isSaving }}
      onOk={() => void submit()}
      onCancel={onClose}
      afterClose={() => setTarget(undefined)}
    >
      <Form layout="vertical">
        <Form.Item label={t('apps.move.target')}>
          <Select aria-label={t('apps.move.target')} value={target} onChange={setTarget} options={options} notFoundContent={t('apps.move.noTarget')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
