import { useState } from 'react';
import { Button, Flex, Form, Input, Modal, Radio, Select } from 'antd';
import { DeleteOutlined, SignatureOutlined } from '@ant-design/icons';
import { SignDialog } from '../fields/hand-sign-field.tsx';
import { useTranslation } from 'react-i18next';
import { OrgPickerField, type PickedUnit } from '../../../components/org-picker/index.ts';
import type { HandSignConfig, WorkflowButton } from './workflow-api.ts';

/** What a button asks for before it is sent. */
export interface ActionInput {
  opinion: string;
  /** A hand signature drawn with the opinion (a PNG data URL). */
  signature?: string;
  users: PickedUnit[];
  position: 'before' | 'after';
  activityCode?: string;
}

// Which inputs each button asks for (the engine's calls: docs/decisions/0014).
const USERS: Partial<Record<WorkflowButton, { multiple: boolean; required: boolean }>> = {
  Forward: { multiple: false, required: true },
  TempAddition: { multiple: true, required: true },
  ForComment: { multiple: true, required: true },
  Circulate: { multiple: true, required: true },
  Reactivate: { multiple: true, required: false },
};
const NO_OPINION: WorkflowButton[] = ['Read'];

interface Props {
  button: WorkflowButton | null;
  title: string;
  /** The nodes 退回 and 重新激活 offer. */
  nodes: { code: string; name: string }[];
  /** The node's hand-sign setting for 同意 / 不同意 (absent: a signature is optional). */
  handSign?: HandSignConfig;
  busy: boolean;
  onOk: (input: ActionInput) => void;
  onCancel: () => void;
}

/** The dialog of a workflow button: the opinion (催办: its content) and what the button needs — people, a node, a side. */
export function WorkflowActionDialog({ button, title, nodes, handSign, busy, onOk, onCancel }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ActionInput>();
  const [users, setUsers] = useState<PickedUnit[]>([]);
  const [userError, setUserError] = useState(false);
  const [signature, setSignature] = useState<string>();
  const [signing, setSigning] = useState(false);
  const [signatureMissing, setSignatureMissing] = useState(false);
  const signMode = handSign?.mode ?? 'optional';
  const needs = button ? USERS[button] : undefined;
  const asksNode = button === 'ForBack' || button === 'Reactivate';
  const urge = button === 'Urge';

  const submit = async () => {
    // A refused field shows its message in the dialog; nothing is sent.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    if (needs?.required && users.length === 0) {
      setUserError(true);
      return;
    }
    if (signMode === 'required' && !signature) {
      setSignatureMissing(true);
      return;
    }
    onOk({ ...values, opinion: values.opinion ?? '', signature, users, position: values.position ?? 'before' });
  };
  const close = () => {
    form.resetFields();
    setUsers([]);
    setUserError(false);
    setSignature(undefined);
    setSignatureMissing(false);
    onCancel();
  };

  return (
    <Modal open={!!button} title={title} okText={t('common.ok')} cancelText={t('common.cancel')} confirmLoading={busy} onOk={() => void submit()} onCancel={close} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ position: 'before' }} preserve={false}>
        {button === 'TempAddition' && (
          <Form.Item name="position" label={t('formWorkflow.dialog.position')}>
            <Radio.Group options={[{ value: 'before', label: t('formWorkflow.dialog.before') }, { value: 'after', label: t('formWorkflow.dialog.after') }]} />
          </Form.Item>
        )}
        {needs && (
          <Form.Item label={t(button === 'Forward' ? 'formWorkflow.dialog.forwardTo' : 'formWorkflow.dialog.users')} required={needs.required} validateStatus={userError ? 'error' : undefined} help={userError ? t('formWorkflow.dialog.usersRequired') : button === 'Reactivate' ? t('formWorkflow.dialog.reactivateUsersHint') : undefined}>
            <OrgPickerField
              kind="user"
              multiple={needs.multiple}
              value={users}
              onChange={(next) => {
                setUsers(next);
                setUserError(false);
              }}
            />
          </Form.Item>
        )}
        {asksNode && (
          <Form.Item name="activityCode" label={t(button === 'ForBack' ? 'formWorkflow.dialog.backTo' : 'formWorkflow.dialog.reactivateTo')} rules={[{ required: true, message: t('formWorkflow.dialog.activityRequired') }]}>
            <Select options={nodes.map((a) => ({ value: a.code, label: a.name }))} notFoundContent={t('formWorkflow.dialog.noTarget')} />
          </Form.Item>
        )}
        {button && !NO_OPINION.includes(button) && (
          <Form.Item
            name="opinion"
            label={t(urge ? 'formWorkflow.dialog.urgeContent' : 'formWorkflow.dialog.opinion')}
            rules={urge ? [{ required: true, whitespace: true, message: t('formWorkflow.dialog.urgeRequired') }] : undefined}
          >
            <Input.TextArea rows={3} maxLength={urge ? 500 : 2000} showCount />
          </Form.Item>
        )}
        {button && !NO_OPINION.includes(button) && !urge && signMode !== 'none' && (
          <Form.Item
            label={t('formWorkflow.dialog.signature')}
            required={signMode === 'required'}
            validateStatus={signatureMissing ? 'error' : undefined}
            help={signatureMissing ? t('formWorkflow.dialog.signatureRequired') : undefined}
          >
            <Flex align="center" gap="small" wrap>
              {signature ? (
                <>
                  <img src={signature} alt={t('formWorkflow.dialog.signature')} style={{ maxHeight: 60, maxWidth: 200 }} />
                  <Button type="text" icon={<DeleteOutlined />} aria-label={t('formWorkflow.dialog.removeSignature')} onClick={() => setSignature(undefined)} />
                </>
              ) : (
                <>
                  <Button icon={<SignatureOutlined />} onClick={() => setSigning(true)}>
                    {t('formWorkflow.dialog.sign')}
                  </Button>
                  {handSign?.lastSignature && (
                    <Button onClick={() => (setSignature(handSign.lastSignature ?? undefined), setSignatureMissing(false))}>{t('formWorkflow.dialog.useLastSignature')}</Button>
                  )}
                </>
              )}
              <SignDialog
                open={signing}
                onClose={() => setSigning(false)}
                onDrawn={(dataUrl) => {
                  setSignature(dataUrl);
                  setSignatureMissing(false);
                  setSigning(false);
                }}
              />
            </Flex>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
