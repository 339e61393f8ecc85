import type { Addressed } from '../notification/notify.ts';
import type { RemindKind } from '../remind/remind.delivery.ts';
import type { EngineState, InstanceRec } from './workflow.core-types.ts';

// What a workflow action tells people through the message center (issue 20): each reminder it stored (a new to-do,
// an urge, a CC, a transfer, added signers, a consult request), and the flow's result to its originator.

const TITLES: Record<RemindKind, string> = {
  todo: '待办',
  urge: '催办',
  circulate: '抄送',
  forward: '转交',
  addsign: '加签',
  consult: '征询意见',
};

interface Reminder {
  receiver: string;
  kind: RemindKind;
  content: string;
  sender: string | null;
  work_item_id: string | null;
}

export function workflowNotices(instance: InstanceRec, reminders: readonly Reminder[], before: InstanceRec | undefined, actor: string): Addressed[] {
  const link = { schemaCode: instance.schemaCode, objectId: instance.objectId, instanceId: instance.id };
  const notices: Addressed[] = reminders.map((r) => ({
    receiver: r.receiver,
    notice: { category: 'workflow', title: `${TITLES[r.kind]}：${instance.name}`, content: r.content, sender: r.sender, link: { ...link, workItemId: r.work_item_id } },
  }));
  const ended = instance.state !== before?.state && (instance.state === 'Finished' || instance.state === 'Canceled');
  if (before && ended && instance.originator !== actor) {
    const result = instance.state === 'Canceled' ? '已取消' : instance.approval === 1 ? '已通过' : '未通过';
    notices.push({ receiver: instance.originator, notice: { category: 'workflow', title: `流程${result}：${instance.name}`, sender: actor, link } });
  }
  return notices;
}

/** The participants whose open to-dos this action changed: items it opened, and items whose state it moved. */
export function todoChanges(before: EngineState | undefined, after: EngineState): string[] {
  const was = new Map(before?.items.map((i) => [i.id, i.state]));
  return [...new Set(after.items.filter((i) => was.get(i.id) !== i.state).map((i) => i.participant))];
}
