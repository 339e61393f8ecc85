import { useEffect, useState } from 'react';
import { App as AntApp, Form, Modal, Radio } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DepartmentPicker, type PickedUnit } from '../../../components/org-picker/index.ts';
import { orgAdminApi, orgKeys, type OrgSide, type UserDto } from '../api/org-admin-api.ts';

type MoveMode = 'leave' | 'only';

interface MoveUserDialogProps {
  open: boolean;
  side: OrgSide;
  user: UserDto | undefined;
  /** The department the table shows: the one the person leaves. */
  from: PickedUnit | undefined;
  onClose: () => void;
}

/**
 * 调整部门: the person leaves the shown department for another (which becomes main where the old one was), or
 * keeps only the new one. Other departments are edited in the user editor.
 */
export function MoveUserDialog({ open, side, user, from, onClose }: MoveUserDialogProps) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<PickedUnit | null>(null);
  const [mode, setMode] = useState<MoveMode>('leave');
  const [isSaving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setTarget(null);
    setMode('leave');
  }, [open]);

  const handleOk = async () => {
    if (!user || !target) return;
    setSaving(true);
    try {
      await orgAdminApi.moveUsers({ userIds: [user.id], toDepartmentId: target.id, fromDepartmentId: mode === 'leave' ? from?.id : undefined });
      void message.success(t('orgAdmin.move.done', { name: user.name, department: target.name }));
      await queryClient.invalidateQueries({ queryKey: orgKeys.all });
      onClose();
    } catch {
      // Shown by the API client; the dialog stays open for another choice.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('orgAdmin.move.title', { name: user?.name ?? '' })}
      destroyOnHidden
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !target, loading: isSaving }}
      onOk={handleOk}
      onCancel={onClose}
    >
      <Form layout="vertical">
        <Form.Item label={t('orgAdmin.move.to')} htmlFor="move-user-target">
          <DepartmentPicker id="move-user-target" scope={side} value={target} onChange={setTarget} />
        </Form.Item>
        <Form.Item label={t('orgAdmin.move.mode')}>
          <Radio.Group
            value={mode}
            onChange={(event) => setMode(event.target.value as MoveMode)}
            options={[
              { value: 'leave', label: t('orgAdmin.move.leave', { department: from?.name ?? '' }) },
              { value: 'only', label: t('orgAdmin.move.only') },
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
