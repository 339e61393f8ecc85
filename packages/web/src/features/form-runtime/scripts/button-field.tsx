import { useState } from 'react';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FieldKind, FieldProps } from '../fields/field-types.ts';
import { useFormScript } from './form-script-context.ts';

/**
 * The button control: runs its action in the form's code — the browser script's `buttons[actionName]`, else the
 * form's server action — with a spinner while it runs. Without an action name it does nothing and says so.
 */
function ButtonEdit({ control, disabled }: FieldProps) {
  const { t } = useTranslation();
  const script = useFormScript();
  const [running, setRunning] = useState(false);
  const actionName = typeof control.options.actionName === 'string' ? control.options.actionName.trim() : '';
  const press = async () => {
    if (!script) return;
    setRunning(true);
    try {
      await script.pressButton(actionName);
    } finally {
      setRunning(false);
    }
  };
  const button = (
    <Button disabled={disabled || !actionName || !script} loading={running || (!!actionName && !!script?.loading)} onClick={() => void press()} style={{ alignSelf: 'flex-start' }}>
      {control.label}
    </Button>
  );
  if (actionName) return button;
  return (
    <Tooltip title={t('formRuntime.script.noActionName')}>
      {/* A disabled button hears no pointer: the tooltip sits on a wrapper. */}
      <span style={{ display: 'inline-block', alignSelf: 'flex-start' }}>{button}</span>
    </Tooltip>
  );
}

export const buttonField: FieldKind = { Edit: ButtonEdit };
