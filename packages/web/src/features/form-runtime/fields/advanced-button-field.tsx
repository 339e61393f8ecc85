import { useState } from 'react';
import { App, Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { connectorsApi } from '../../connectors/connectors-api.ts';
import { useRuntimeForm } from '../components/form-context.ts';
import { withRowKeys } from '../model/form-values.ts';
import type { FieldKind, FieldProps } from './field-types.ts';

/**
 * The advanced button (高级按钮, docs/decisions/0120): pressed, it runs its connector on the server with the form's
 * values (after a confirm when the designer asked for one) and sets the fields the answer maps, a sub-table's rows
 * replaced by the rows answered. Without a connector chosen it says so and does nothing.
 */
function AdvancedButtonEdit({ control, disabled }: FieldProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const form = useRuntimeForm();
  const [running, setRunning] = useState(false);
  const connectorCode = typeof control.options.connectorCode === 'string' ? control.options.connectorCode : '';

  const call = async () => {
    setRunning(true);
    try {
      const objectId = typeof form.system.ObjectId === 'string' && form.system.ObjectId ? form.system.ObjectId : undefined;
      const answer = await connectorsApi.pressButton({ schemaCode: form.schemaCode, controlCode: control.code, values: form.form.values, ...(objectId ? { objectId } : {}) });
      for (const [code, value] of Object.entries(answer.values)) {
        if (code in form.form.children && Array.isArray(value)) form.setRows(code, () => withRowKeys(value as Record<string, unknown>[]));
        else form.setValue(code, value);
      }
      void message.success(t('connectors.button.done', { count: Object.keys(answer.values).length }));
    } catch {
      // The client has shown the server's message (connection disabled, the outside system's failure…).
    } finally {
      setRunning(false);
    }
  };
  const press = () => {
    if (control.options.confirm === true) {
      modal.confirm({ title: t('connectors.button.confirm', { name: control.label }), okText: t('common.ok'), cancelText: t('common.cancel'), onOk: () => void call() });
    } else void call();
  };

  const button = (
    <Button disabled={disabled || !connectorCode} loading={running} onClick={press} style={{ alignSelf: 'flex-start' }}>
      {control.label}
    </Button>
  );
  if (connectorCode) return button;
  return (
    <Tooltip title={t('formRuntime.connectorNotConfigured', { name: control.label })}>
      {/* A disabled button hears no pointer: the tooltip sits on a wrapper. */}
      <span style={{ display: 'inline-block', alignSelf: 'flex-start' }}>{button}</span>
    </Tooltip>
  );
}

export const advancedButtonField: FieldKind = { Edit: AdvancedButtonEdit };
