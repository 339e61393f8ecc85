import { useId, useState } from 'react';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { applyServerError } from '../../../lib/apply-server-error.ts';
import { useOpenCount } from '../../../lib/use-open-count.ts';

interface NameDialogProps {
  open: boolean;
  title: string;
  label: string;
  initialName?: string;
  /** contracts/org/fields.ts: department names 50, role, role-group and post names 32. */
  maxLength: number;
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}

/**
 * One name to type: new or renamed departments, role groups, roles and posts. A refusal (a name already taken
 * among siblings, a root that keeps its name) shows under the field, where the person will fix it.
 */
export function NameDialog({ open, title, label, initialName = '', maxLength, onSubmit, onClose }: NameDialogProps) {
  const { t } = useTranslation();
  const [isSaving, setSaving] = useState(false);
  const formId = useId();
  const openCount = useOpenCount(open);
  return (
    <Modal
      open={open}
      title={title}
      destroyOnHidden
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ htmlType: 'submit', form: formId, loading: isSaving }}
      onCancel={onClose}
    >
      <NameForm
        key={openCount}
        id={formId}
        label={label}
        initialName={initialName}
        maxLength={maxLength}
        onSaving={setSaving}
        onSubmit={async (name) => {
          await onSubmit(name);
          onClose();
        }}
      />
    </Modal>
  );
}

type NameFormProps = Pick<NameDialogProps, 'label' | 'initialName' | 'maxLength' | 'onSubmit'> & { id: string; onSaving: (saving: boolean) => void };

// A new form (and form store) for every opening, keyed by the dialog, so the last name never comes back.
function NameForm({ id, label, initialName, maxLength, onSaving, onSubmit }: NameFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const handleFinish = async ({ name }: { name: string }) => {
    onSaving(true);
    try {
      await onSubmit(name.trim());
    } catch (error) {
      const message = applyServerError(form, error, ['name']);
      if (message && isApiError(error)) form.setFields([{ name: 'name', errors: [message] }]);
    } finally {
      onSaving(false);
    }
  };
  return (
    <Form id={id} form={form} layout="vertical" onFinish={handleFinish} initialValues={{ name: initialName }}>
      <Form.Item
        name="name"
        label={label}
        rules={[
          { required: true, whitespace: true, message: t('orgAdmin.validation.nameRequired') },
          { max: maxLength, message: t('orgAdmin.validation.nameTooLong', { max: maxLength }) },
        ]}
      >
        <Input autoFocus maxLength={maxLength} />
      </Form.Item>
    </Form>
  );
}
