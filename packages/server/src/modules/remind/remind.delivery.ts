import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { newId } from '../../lib/ids.ts';

// Delivering the workflow's reminders (docs/decisions/0019). The engine's core answers `remind` effects (urge, CC,
// transfer, added signers, consult); the service forms their rows here and writes them with the action's own rows, in
// its write statement (docs/decisions/0101). Each receiver gets a row of its own. A new todo (a fill/approve item that reached someone) gets one too.

export type RemindKind = 'todo' | 'urge' | 'circulate' | 'forward' | 'addsign' | 'consult';
interface RemindEffect {
  type: string;
  userIds?: string[];
  content?: string;
}
interface InstanceRef {
  id: string;
  schemaCode: string;
  objectId: string;
  name: string;
  originator: string;
}

// The log entry an action writes tells what kind of reminder its effect is and who sent it.
const KIND_OF_ACTION: Record<string, RemindKind> = {
  urge: 'urge',
  circulate: 'circulate',
  forward: 'forward',
  addsignBefore: 'addsign',
  addsignAfter: 'addsign',
  consult: 'consult',
};
// Log entries the engine writes for itself, not for a person's action.
const SYSTEM_ACTIONS = new Set(['autoPass', 'rejectFlow']);
// A CC node's reminder comes from no action of a person: its content names it.
const KIND_OF_PREFIX: [string, RemindKind][] = [
  ['抄送：', 'circulate'],
  ['传阅：', 'circulate'],
  ['转交：', 'forward'],
  ['加签：', 'addsign'],
  ['征询意见：', 'consult'],
];

function kindOf(effect: RemindEffect, entries: { action: string }[]): RemindKind {
  if (entries.some((e) => e.action === 'urge')) return 'urge';
  const byPrefix = KIND_OF_PREFIX.find(([prefix]) => effect.content?.startsWith(prefix));
  if (byPrefix) return byPrefix[1];
  const byAction = entries.map((e) => KIND_OF_ACTION[e.action]).find(Boolean);
  return byAction ?? 'urge';
}

/** What the action just wrote: its log entries, and the work items it opened. */
export interface ActionWrites {
  entries: readonly { userId: string; action: string }[];
  newItems: readonly { id: string; participant: string; state: string; itemType: string; kind: string; delegant: string | null }[];
}

export type WorkflowReminder = { id: string; receiver: string; kind: RemindKind; content: string; sender: string | null; work_item_id: string | null };

/**
 * The reminders of one workflow action, from what the action wrote (nothing read back): one row per receiver of each
 * remind effect (`effects` is the action's effect list; others are ignored), and one per new todo.
 */
export function workflowReminders(effects: readonly RemindEffect[], writes: ActionWrites): WorkflowReminder[] {
  const entries = writes.entries.map((e) => ({ user_id: e.userId, action: e.action }));
  const actors = new Set(entries.filter((e) => !SYSTEM_ACTIONS.has(e.action)).map((e) => e.user_id));
  const rows: WorkflowReminder[] = [];

  for (const e of effects) {
    if (e.type !== 'remind' || !e.userIds?.length) continue;
    const kind = kindOf(e, entries);
    const sender = entries.find((x) => KIND_OF_ACTION[x.action] === kind)?.user_id ?? null;
    // The urge's text is the person's; the others are told by their kind and the instance name.
    const content = kind === 'urge' ? (e.content ?? '') : '';
    for (const receiver of new Set(e.userIds)) rows.push({ id: newId(), receiver, kind, content, sender, work_item_id: null });
  }

  // New todos: the open fill/approve items this action gave ordinary participants. Transfers, added signers and
  // consults are told by their own effect; the person whose action produced the item (the originator's own start
  // item, a withdrawal) is not told of it.
  const fresh = writes.newItems
    .filter((i) => (i.state === 'Waiting' || i.state === 'Working') && (i.itemType === 'fill' || i.itemType === 'approve') && i.kind === 'normal' && i.delegant === null)
    .sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const sender = entries.find((x) => !SYSTEM_ACTIONS.has(x.action))?.user_id ?? null;
  for (const item of fresh) {
    if (actors.has(item.participant)) continue;
    rows.push({ id: newId(), receiver: item.participant, kind: 'todo', content: '', sender, work_item_id: item.id });
  }
  return rows;
}

/** The insert of an action's reminders (one statement, or one write of the action's statement). */
export function insertWorkflowReminders(edb: EngineExecutor, instance: InstanceRef, rows: readonly WorkflowReminder[]) {
  const base = { instance_id: instance.id, schema_code: instance.schemaCode, object_id: instance.objectId, created_time: new Date() };
  return edb.insertInto('remind_tasks').values(rows.map((r) => ({ ...base, ...r })));
}
