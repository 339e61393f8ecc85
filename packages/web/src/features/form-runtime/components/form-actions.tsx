import type { ReactNode } from 'react';
import { Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';

/** One button of a record's footer, drawn as a button on a PC and in the phone's bar or its 更多 menu. */
export interface FormAction {
  key: string;
  label: string;
  onPress: () => void;
  /** The action the form is for right now (提交, 编辑): highlighted, and kept in the phone's bar. */
  primary?: boolean;
  /** Kept in the phone's bar before the others (关闭). */
  main?: boolean;
  danger?: boolean;
  loading?: boolean;
  disabled?: boolean;
  /** Asked before pressing (删除). */
  confirm?: string;
  icon?: ReactNode;
}

/** A footer action as a button; one that asks first confirms in a popover. */
export function ActionButton({ action, block = false }: { action: FormAction; block?: boolean }) {
  const { t } = useTranslation();
  const style = block ? { flex: 1, minWidth: 0 } : undefined;
  if (action.confirm) {
    return (
      <Popconfirm title={action.confirm} okText={action.label} okButtonProps={{ danger: action.danger }} cancelText={t('common.cancel')} onConfirm={action.onPress}>
        <Button danger={action.danger} icon={action.icon} loading={action.loading} disabled={action.disabled} style={style}>
          {action.label}
        </Button>
      </Popconfirm>
    );
  }
  return (
    <Button type={action.primary ? 'primary' : 'default'} danger={action.danger} icon={action.icon} loading={action.loading} disabled={action.disabled} style={style} onClick={action.onPress}>
      {action.label}
    </Button>
  );
}

/**
 * The phone bar's split: every action when they fit, otherwise the primary and main ones (in that preference) up to
 * one less than the room, the 更多 menu taking the last place; both keep the footer's order.
 */
export function splitPhoneActions(actions: FormAction[], room = 3): { shown: FormAction[]; more: FormAction[] } {
  if (actions.length <= room) return { shown: actions, more: [] };
  const rank = (action: FormAction) => (action.primary ? 0 : action.main ? 1 : 2);
  const kept = new Set([...actions].sort((a, b) => rank(a) - rank(b)).slice(0, Math.max(room - 1, 0)));
  return { shown: actions.filter((action) => kept.has(action)), more: actions.filter((action) => !kept.has(action)) };
}
