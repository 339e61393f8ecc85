import { useState } from 'react';
import { App, Button } from 'antd';
import { ThunderboltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { smartActionApi, smartActionKeys, type SmartActionDto, type SmartLocation } from './smart-action-api.ts';

export interface SmartActionButtonsProps {
  schemaCode: string;
  location: SmartLocation;
  /** The records the action runs for: the open record, or the list's selection (buttons disabled while empty). */
  objectIds: string[];
  /** After the run was queued: the caller reads its data again. */
  onDone: () => void;
}

/**
 * The smart actions (button automations) this person may press here, as the server lists them (roles checked
 * there), with how to press one: the confirmation text first when set, then /v1/smartaction/run, then the result message.
 */
export function useSmartActions({ schemaCode, location, objectIds, onDone }: SmartActionButtonsProps, enabled = true) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [busy, setBusy] = useState<string | null>(null);
  const actions = useQuery({ queryKey: smartActionKeys.list(schemaCode, location), queryFn: () => smartActionApi.list(schemaCode, location), staleTime: 60_000, enabled });
  const run = async (action: SmartActionDto) => {
    setBusy(action.actionCode);
    try {
      await smartActionApi.run(schemaCode, action.actionCode, objectIds);
      void message.success(action.resultMessage || t('automation.smart.submitted'));
      onDone();
    } finally {
      setBusy(null);
    }
  };
  const press = (action: SmartActionDto) => {
    if (!action.confirmText) return void run(action).catch(() => undefined);
    modal.confirm({
      title: t('automation.smart.confirmTitle', { label: action.label }),
      content: action.confirmText,
      okText: t('automation.smart.ok'),
      cancelText: t('automation.smart.cancel'),
      onOk: () => run(action).catch(() => undefined),
    });
  };
  return { actions: actions.data?.actions ?? [], busy, press };
}

/** The smart actions as buttons (the list's toolbar, the form's footer on a PC). */
export function SmartActionButtons(props: SmartActionButtonsProps) {
  const { actions, busy, press } = useSmartActions(props);
  return (
    <>
      {actions.map((action) => (
        <Button key={action.actionCode} icon={<ThunderboltOutlined />} disabled={props.objectIds.length === 0 || (busy !== null && busy !== action.actionCode)}
          loading={busy === action.actionCode} onClick={() => press(action)}>
          {action.label}
        </Button>
      ))}
    </>
  );
}
