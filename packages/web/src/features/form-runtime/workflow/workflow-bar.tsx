import { useState, type ReactNode } from 'react';
import { App, Tag } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isHandled } from '@tritium/shared/workflow/index';
import { isApiError } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/date-format.ts';
import type { ExecuteOutcome } from '../model/use-runtime-record.ts';
import type { executePayload } from '../model/form-values.ts';
import type { ScriptVerdict } from '../scripts/use-browser-script.ts';
import { ActionButton, type FormAction } from '../components/form-actions.tsx';
import { WorkflowActionDialog, type ActionInput } from './workflow-action-dialog.tsx';
import { isItemQuery, isWorkflowButton, workflowApi, workflowKeys, type MyWorkItem, type WorkflowButton } from './workflow-api.ts';

type Payload = ReturnType<typeof executePayload>;

interface Props {
  instanceId: string;
  item: MyWorkItem | null;
  /** The handler's item edits fields: its Submit carries the form's values. */
  handling: boolean;
  instanceActions: string[];
  sendValues: (send: (payload: Payload) => Promise<unknown>) => Promise<ExecuteOutcome>;
  /** After an action: reload the record and its flow. */
  onDone: () => void;
  /** 修订 in progress: every field editable, the bar offers 保存修订 and 取消修订. */
  revising: boolean;
  onRevise: (on: boolean) => void;
  /** Draws the buttons (the phone's bar with its 更多 menu); by default a button each, in a row. */
  children?: (actions: FormAction[]) => ReactNode;
  /**
   * The form's browser script around 提交 and 同意, as around the form's own submit: `before` (validate, then
   * beforeSubmit) may stop it before its dialog opens; `after` (afterSubmit) hears that it went through.
   */
  script?: { before: (action: string) => Promise<ScriptVerdict>; after: (action: string) => Promise<void> };
}

// Buttons that go straight to their call without a dialog.
const DIRECT: WorkflowButton[] = ['Read'];

/** The label of a button: 提交 on a fill node, 同意 on an approval, 回复 on a consultation. */
function labelKey(button: WorkflowButton, item: MyWorkItem | null): `formWorkflow.buttons.${WorkflowButton | 'Reply' | 'SubmitFill'}` {
  if (button === 'Submit' && item?.kind === 'consult') return 'formWorkflow.buttons.Reply';
  if (button === 'Submit' && item?.itemType === 'fill') return 'formWorkflow.buttons.SubmitFill';
  return `formWorkflow.buttons.${button}` as const;
}

/** The buttons of a record in a flow: the caller's item's, then the instance's; each opens its dialog. */
export function WorkflowBar({ instanceId, item, handling, instanceActions, sendValues, onDone, revising, onRevise, script, children = (actions) => actions.map((action) => <ActionButton key={action.key} action={action} />) }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<WorkflowButton | null>(null);
  const [busy, setBusy] = useState(false);
  // 退回 offers the nodes the item may return to; 重新激活 any node a person handles.
  const chart = useQuery({ queryKey: workflowKeys.chart(instanceId), queryFn: () => workflowApi.chart(instanceId), enabled: open === 'Reactivate' });
  const pre = useQuery({
    queryKey: workflowKeys.sendBack(instanceId, item?.workItemId ?? ''),
    queryFn: () => workflowApi.sendBackTargets(item!.workItemId),
    enabled: open === 'ForBack' && !!item,
  });
  // 同意 and 不同意 follow the node's hand-sign setting; the other buttons offer a signature freely.
  const signs = (open === 'Submit' || open === 'Reject') && !!item && item.itemType !== 'circulate';
  const handSign = useQuery({
    queryKey: workflowKeys.handSign(instanceId, item?.workItemId ?? ''),
    queryFn: () => workflowApi.handSignConfig(item!.workItemId),
    enabled: signs,
  });
  const targets = open === 'ForBack' ? (pre.data?.activities ?? []) : (chart.data?.activities ?? []).filter((a) => isHandled(a.type));

  // 提交 on a fill item and 同意 on an approval submit the form; a consultation's 回复 only answers.
  const submitsForm = (button: WorkflowButton) => button === 'Submit' && item?.kind !== 'consult';

  /** The browser script checks a submit first; a stop shows its reason and opens no dialog. */
  const press = async (button: WorkflowButton) => {
    if (script && submitsForm(button)) {
      setBusy(true);
      try {
        const verdict = await script.before(button);
        if (verdict.stop) {
          if (verdict.message) void message.error(verdict.message);
          return;
        }
      } finally {
        setBusy(false);
      }
    }
    setOpen(button);
  };

  const itemButtons = (item?.actions ?? []).filter(isWorkflowButton);
  const buttons = [...itemButtons, ...instanceActions.filter(isWorkflowButton).filter((b) => !itemButtons.includes(b))];

  const bodyOf = (button: WorkflowButton, input: ActionInput): Record<string, unknown> => {
    const text = input.opinion.trim();
    const opinion = text || input.signature ? { ...(text ? { text } : {}), ...(input.signature ? { signature: input.signature } : {}) } : undefined;
    const userIds = input.users.map((u) => u.id);
    switch (button) {
      case 'Read':
        return { instanceId, workItemIds: item ? [item.workItemId] : undefined };
      case 'Urge':
        return { instanceId, content: input.opinion.trim() };
      case 'Reactivate':
        return { instanceId, activityCode: input.activityCode, userIds, opinion };
      case 'Circulate':
        return { instanceId, userIds, ...(item && item.itemType !== 'circulate' ? { workItemId: item.workItemId } : {}), opinion };
      case 'Revise':
      case 'RetrieveInstance':
      case 'CancelInstance':
      case 'FinishInstance':
        return { instanceId, opinion };
      case 'Forward':
        return { workItemId: item!.workItemId, userId: userIds[0], opinion };
      case 'TempAddition':
        return { workItemId: item!.workItemId, position: input.position, userIds, opinion };
      case 'ForComment':
        return { workItemId: item!.workItemId, userIds, opinion };
      case 'ForBack':
        return { workItemId: item!.workItemId, activityCode: input.activityCode, opinion };
      default:
        return { workItemId: item!.workItemId, opinion };
    }
  };

  const send = async (button: WorkflowButton, input: ActionInput) => {
    setBusy(true);
    try {
      const body = bodyOf(button, input);
      let outcome: ExecuteOutcome;
      if ((submitsForm(button) && handling) || button === 'Revise') {
        outcome = await sendValues((payload) => workflowApi.act(button, { ...body, ...payload }));
      } else {
        try {
          await workflowApi.act(button, body);
          outcome = { ok: true, objectId: null };
        } catch (error) {
          if (!isApiError(error)) throw error;
          outcome = { ok: false, message: error.errorMessage };
        }
      }
      if (!outcome.ok) {
        if (outcome.message) void message.error(outcome.message);
        if (button === 'Submit') setOpen(null);
        return;
      }
      setOpen(null);
      if (button === 'Revise') onRevise(false);
      void message.success(t('formWorkflow.done', { action: t(labelKey(button, item)) }));
      if (script && submitsForm(button)) await script.after(button);
      // The item's own reads (its send-back targets, its hand-sign setting) end with it: an item just handled is no
      // longer the caller's, and asking again would answer 待办不存在 right after the success.
      if (item) queryClient.removeQueries({ predicate: (q) => isItemQuery(q.queryKey, instanceId, item.workItemId) });
      await queryClient.invalidateQueries({ queryKey: workflowKeys.all(instanceId), predicate: (q) => !isItemQuery(q.queryKey, instanceId, item?.workItemId) });
      onDone();
    } finally {
      setBusy(false);
    }
  };

  const dialog = (
    <WorkflowActionDialog
      button={open}
      title={open ? t(open === 'Revise' ? 'formWorkflow.revise.save' : labelKey(open, item)) : ''}
      nodes={targets}
      handSign={signs ? handSign.data : undefined}
      busy={busy}
      onOk={(input) => open && void send(open, input)}
      onCancel={() => setOpen(null)}
    />
  );
  // 修订: the form turns editable (every field); 保存修订 sends the values with an opinion, 取消修订 drops the edits.
  if (revising) {
    return (
      <>
        {children([
          { key: 'Revise', label: t('formWorkflow.revise.save'), primary: true, disabled: busy, onPress: () => setOpen('Revise') },
          { key: 'cancelRevise', label: t('formWorkflow.revise.cancel'), main: true, disabled: busy, onPress: () => onRevise(false) },
        ])}
        {dialog}
      </>
    );
  }
  // The item's deadline from its node's time limit (docs/decisions/0042); red once passed.
  const due = item?.dueTime ? new Date(item.dueTime) : null;
  const deadline = due ? (
    <Tag color={due.getTime() <= Date.now() ? 'error' : 'default'} style={{ alignSelf: 'center' }}>
      {t(due.getTime() <= Date.now() ? 'formWorkflow.overdue' : 'formWorkflow.deadline', { time: formatDateTime(due) })}
    </Tag>
  ) : null;
  // The item's first button (同意, 提交) is the one the record is open for; 不同意 stays beside it on a phone.
  const actions: FormAction[] = buttons.map((button, index) => ({
    key: button,
    label: t(labelKey(button, item)),
    primary: index === 0 && itemButtons.includes(button),
    main: button === 'Reject',
    danger: button === 'Reject' || button === 'CancelInstance',
    disabled: busy,
    onPress: () => (button === 'Revise' ? onRevise(true) : DIRECT.includes(button) ? void send(button, { opinion: '', users: [], position: 'before' }) : void press(button)),
  }));
  return (
    <>
      {deadline}
      {children(actions)}
      {dialog}
    </>
  );
}
