import { useId, useState, type ReactNode } from 'react';
import { Flex, Form, Input, Modal, Select } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { NAME_LENGTH } from '@tritium/shared/constants/limits';
import { CODE_PATTERN } from '@tritium/shared/validation/patterns';
import { APP_COLORS } from '../../../lib/theme.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { applyServerError } from '../../../lib/apply-server-error.ts';
import { useOpenCount } from '../../../lib/use-open-count.ts';
import { APP_ICON_NAMES, DEFAULT_APP_COLOR, DEFAULT_APP_ICON } from '../app-appearance.ts';
import type { FunctionNodeDto } from '../api/apps-api.ts';
import { nodeTypeKey } from '../node-types.ts';
import { AppIcon } from './app-icon.tsx';

export interface NodeDialogValues {
  displayName: string;
  code?: string;
  parentCode?: string;
  url?: string;
  icon?: string;
  iconColor?: string;
}

interface NodeDialogProps {
  open: boolean;
  nodeType: number;
  /** The node being edited; absent when creating. */
  node?: FunctionNodeDto;
  /** Where a new module may go: the app and its groups (first is the default). */
  parents?: { code: string; displayName: string }[];
  defaultParent?: string;
  onSubmit: (values: NodeDialogValues) => Promise<unknown>;
  onClose: () => void;
}

const FIELDS = ['displayName', 'code', 'parentCode', 'url', 'icon', 'iconColor'] as const;

/**
 * Creating or editing an app (name, code, icon and colour) or a node in an app (name, code, where it goes, a
 * custom link's address). The server's refusal (a code taken, a bad address) shows under the field it names.
 */
export function NodeDialog({ open, nodeType, node, parents, defaultParent, onSubmit, onClose }: NodeDialogProps) {
  const { t } = useTranslation();
  const [isSaving, setSaving] = useState(false);
  const formId = useId();
  const openCount = useOpenCount(open);
  const typeName = t(nodeTypeKey(nodeType));
  return (
    <Modal
      open={open}
      title={node ? t('apps.dialog.editTitle', { type: typeName }) : t('apps.dialog.createTitle', { type: typeName })}
      destroyOnHidden
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ htmlType: 'submit', form: formId, loading: isSaving }}
      onCancel={onClose}
    >
      <NodeForm
        key={openCount}
        id={formId}
        nodeType={nodeType}
        node={node}
        parents={parents}
        defaultParent={defaultParent}
        onSaving={setSaving}
        onSubmit={async (values) => {
          await onSubmit(values);
          onClose();
        }}
      />
    </Modal>
  );
}

type NodeFormProps = Omit<NodeDialogProps, 'open' | 'onClose'> & { id: string; onSaving: (saving: boolean) => void };

function NodeForm({ id, nodeType, node, parents, defaultParent, onSaving, onSubmit }: NodeFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<NodeDialogValues>();
  const isApp = nodeType === FunctionNodeType.AppPackage;
  const isLink = nodeType === FunctionNodeType.CustomLinkModule;
  const canChooseParent = !node && !isApp && nodeType !== FunctionNodeType.GroupModule && (parents?.length ?? 0) > 1;
  const icon = Form.useWatch('icon', form) ?? node?.icon ?? DEFAULT_APP_ICON;
  const iconColor = Form.useWatch('iconColor', form) ?? node?.iconColor ?? DEFAULT_APP_COLOR;

  const handleFinish = async (values: NodeDialogValues) => {
    onSaving(true);
    try {
      await onSubmit({ ...values, displayName: values.displayName.trim(), code: values.code?.trim() || undefined });
    } catch (error) {
      const message = applyServerError(form, error, FIELDS);
      if (message && isApiError(error)) form.setFields([{ name: 'displayName', errors: [message] }]);
    } finally {
      onSaving(false);
    }
  };

  return (
    <Form
      id={id}
      form={form}
      layout="vertical"
      onFinish={handleFinish}
      initialValues={{
        displayName: node?.displayName ?? '',
        url: node?.url ?? undefined,
        parentCode: defaultParent ?? parents?.[0]?.code,
        icon: isApp ? (node?.icon || DEFAULT_APP_ICON) : undefined,
        iconColor: isApp ? (node?.iconColor || DEFAULT_APP_COLOR) : undefined,
      }}
    >
      <Form.Item
        name="displayName"
        label={t('apps.dialog.name')}
        rules={[
          { required: true, whitespace: true, message: t('apps.validation.nameRequired') },
          { min: NAME_LENGTH.min, max: NAME_LENGTH.max, message: t('apps.validation.nameLength', NAME_LENGTH) },
        ]}
      >
        <Input autoFocus maxLength={NAME_LENGTH.max} />
      </Form.Item>
      {!node && (
        <Form.Item
          name="code"
          label={t('apps.dialog.code')}
          extra={t('apps.dialog.codeHint')}
          rules={[{ pattern: CODE_PATTERN, message: t('apps.validation.code') }, { max: 64, message: t('apps.validation.codeLength') }]}
        >
          <Input maxLength={64} />
        </Form.Item>
      )}
      {canChooseParent && (
        <Form.Item name="parentCode" label={t('apps.dialog.parent')}>
          <Select options={parents!.map((p) => ({ value: p.code, label: p.displayName }))} />
        </Form.Item>
      )}
      {isLink && (
        <Form.Item
          name="url"
          label={t('apps.dialog.url')}
          rules={[
            { required: true, message: t('apps.validation.urlRequired') },
            { type: 'url', message: t('apps.validation.url') },
          ]}
        >
          <Input placeholder="https://" />
        </Form.Item>
      )}
      {isApp && (
        <>
          <Form.Item name="icon" label={t('apps.dialog.icon')}>
            <ChoiceGrid
              label={t('apps.dialog.icon')}
              choices={APP_ICON_NAMES}
              render={(name) => <AppIcon node={{ icon: name, iconColor, nodeType }} size={32} />}
            />
          </Form.Item>
          <Form.Item name="iconColor" label={t('apps.dialog.color')}>
            <ChoiceGrid
              label={t('apps.dialog.color')}
              choices={APP_COLORS}
              render={(color) => <AppIcon node={{ icon, iconColor: color, nodeType }} size={32} />}
            />
          </Form.Item>
        </>
      )}
    </Form>
  );
}

interface ChoiceGridProps {
  label: string;
  choices: readonly string[];
  render: (choice: string) => ReactNode;
  value?: string;
  onChange?: (value: string) => void;
}

/** A row of choices (icons or colours) as a radio group. */
function ChoiceGrid({ label, choices, render, value, onChange }: ChoiceGridProps) {
  return (
    <Flex wrap gap={8} role="radiogroup" aria-label={label}>
      {choices.map((choice) => {
        const checked = choice === value;
        return (
          <button
            key={choice}
            type="button"
            role="radio"
            aria-checked={checked}
            aria-label={choice}
            onClick={() => onChange?.(choice)}
            style={{ position: 'relative', padding: 2, border: 'none', background: 'none', cursor: 'pointer', outline: checked ? '2px solid currentColor' : undefined, borderRadius: 10 }}
          >
            {render(choice)}
            {checked && <CheckOutlined style={{ position: 'absolute', right: -4, bottom: -4, fontSize: 12 }} />}
          </button>
        );
      })}
    </Flex>
  );
}
