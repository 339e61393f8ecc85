import { useId, useState } from 'react';
import { Alert, App as AntApp, Form, Input, Modal, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DepartmentPicker, type PickedUnit } from '../../../components/org-picker/index.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { applyServerError } from '../../../lib/apply-server-error.ts';
import { useOpenCount } from '../../../lib/use-open-count.ts';
import { mobileRules, userNameRules } from '../../entry/form-rules.ts';
import { orgAdminApi, orgKeys, type OrgSide } from '../api/org-admin-api.ts';
import { FIELD_OF_ERROR } from '../user-form.ts';

interface InviteValues {
  mobile: string;
  name: string;
  department: PickedUnit | null;
}

interface InviteDialogProps {
  open: boolean;
  side: OrgSide;
  defaultDepartment?: PickedUnit;
  onClose: () => void;
}

/**
 * 邀请成员: a number, a name and a department. The person joins when they sign in with that number (at once when
 * the number already has an account); the dialog says so, because no SMS goes out yet.
 */
export function InviteDialog({ open, side, defaultDepartment, onClose }: InviteDialogProps) {
  const { t } = useTranslation();
  const [isSaving, setSaving] = useState(false);
  const formId = useId();
  const openCount = useOpenCount(open);
  return (
    <Modal
      open={open}
      title={t('orgAdmin.invite.title')}
      destroyOnHidden
      okText={t('orgAdmin.invite.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ htmlType: 'submit', form: formId, loading: isSaving }}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">{t('orgAdmin.invite.intro')}</Typography.Paragraph>
      <InviteForm key={openCount} id={formId} side={side} defaultDepartment={defaultDepartment} onSaving={setSaving} onDone={onClose} />
    </Modal>
  );
}

interface InviteFormProps {
  id: string;
  side: OrgSide;
  defaultDepartment?: PickedUnit;
  onSaving: (saving: boolean) => void;
  onDone: () => void;
}

// A new form store for every opening (see useOpenCount).
function InviteForm({ id, side, defaultDepartment, onSaving, onDone }: InviteFormProps) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<InviteValues>();
  const [formError, setFormError] = useState<string>();

  const handleFinish = async (values: InviteValues) => {
    onSaving(true);
    setFormError(undefined);
    try {
      const user = await orgAdminApi.inviteUser({ mobile: values.mobile.trim(), name: values.name.trim(), departmentId: values.department?.id });
      void message.success(user.isJoined ? t('orgAdmin.invite.joined', { name: user.name }) : t('orgAdmin.invite.sent', { name: user.name }));
      await queryClient.invalidateQueries({ queryKey: orgKeys.all });
      onDone();
    } catch (error) {
      const field = isApiError(error) ? FIELD_OF_ERROR[Number(error.errorCode)] : undefined;
      if (field === 'mobile' && isApiError(error)) form.setFields([{ name: 'mobile', errors: [error.errorMessage] }]);
      else setFormError(applyServerError(form, error, ['mobile', 'name']));
    } finally {
      onSaving(false);
    }
  };

  return (
    <Form<InviteValues> id={id} form={form} layout="vertical" onFinish={handleFinish} initialValues={{ department: defaultDepartment ?? null }}>
      {formError && <Alert type="error" showIcon title={formError} style={{ marginBottom: 16 }} />}
      <Form.Item name="mobile" label={t('orgAdmin.member.mobile')} rules={mobileRules(t)}>
        <Input autoFocus inputMode="tel" maxLength={11} placeholder={t('placeholders.mobile')} />
      </Form.Item>
      <Form.Item name="name" label={t('orgAdmin.member.name')} rules={userNameRules(t)}>
        <Input maxLength={32} placeholder={t('orgAdmin.invite.namePlaceholder')} />
      </Form.Item>
      <Form.Item name="department" label={t('orgAdmin.invite.department')} extra={t('orgAdmin.invite.departmentHint')}>
        <DepartmentPicker scope={side} />
      </Form.Item>
    </Form>
  );
}
