import type { WorkflowTemplate } from '@tritium/shared/workflow/index';

// The pure transition core of the workflow engine (shared/design/workflow.md "Transitions"; docs/decisions/0014).
// Given an instance's state (instance, tokens, items), its template, the record's values and the participants the
// rules resolve to, an action gives the new state and the effects on the world (the record's status, reminders,
// business rules). No I/O: the service loads the state under the instance's row lock, applies, and writes the diff.
// The engine is split by concern: its types (workflow.core-types.ts), the transitions and the participants a node
// takes (workflow.transitions.ts), the actions on items (workflow.item-actions.ts) and on the instance
// (workflow.instance-actions.ts). This file keeps the entry points; its exported names stay as they were.

export * from './workflow.core-types.ts';
import { isOpen, type Action, type Actor, type CoreContext, type EngineState, type InstanceRec, type ItemRec, type Opinion, type Outcome } from './workflow.core-types.ts';
import { err, sendBackTargets } from './workflow.transitions.ts';
import { Machine } from './workflow.instance-actions.ts';

/** Starts an instance: Starting, with a Start token and a fill item for the originator (workflow.md "start"). */
export function startInstance(
  instance: Omit<InstanceRec, 'state' | 'approval' | 'nextSeq' | 'createdTime' | 'modifiedTime' | 'finishedTime' | 'parentInstanceId' | 'parentTokenId'> & Partial<Pick<InstanceRec, 'parentInstanceId' | 'parentTokenId'>>,
  ctx: CoreContext,
  opinion?: Opinion,
): Outcome {
  const state: EngineState = {
    instance: { parentInstanceId: null, parentTokenId: null, ...instance, state: 'Starting', approval: -1, nextSeq: 1, createdTime: ctx.now, modifiedTime: ctx.now, finishedTime: null },
    tokens: [],
    items: [],
    comments: [],
  };
  const m = new Machine(state, ctx);
  const start = ctx.template.activities.find((a) => a.type === 'Start');
  if (!start) throw err('WorkflowTemplateInvalid', { issues: [{ rule: 'oneStart' }] });
  m.activate(start.code, [], null);
  m.log({ userId: instance.originator, action: 'start', activityCode: start.code }, opinion);
  return { state, effects: m.effects };
}

/** Applies one action to a loaded state (a copy is changed; the input stays as it was). */
export function applyAction(input: EngineState, ctx: CoreContext, actor: Actor, action: Action): Outcome {
  const state: EngineState = structuredClone({ ...input, comments: [] });
  const m = new Machine(state, ctx);
  switch (action.type) {
    case 'submit':
      m.submit(actor, action.itemId, action.opinion);
      break;
    case 'reject':
      m.reject(actor, action.itemId, action.opinion);
      break;
    case 'forback':
      m.forback(actor, action.itemId, action.activityCode, action.opinion);
      break;
    case 'forward':
      m.forward(actor, action.itemId, action.to, action.opinion);
      break;
    case 'addsign':
      m.addsign(actor, action.itemId, action.position, action.userIds, action.opinion);
      break;
    case 'consult':
      m.consult(actor, action.itemId, action.userIds, action.opinion);
      break;
    case 'retrieve':
      m.retrieve(actor, action.opinion);
      break;
    case 'cancel':
      m.cancel(actor, action.opinion);
      break;
    case 'finish':
      m.finish(actor, action.opinion);
      break;
    case 'circulate':
      m.circulate(actor, action.userIds, action.itemId, action.opinion);
      break;
    case 'read':
      m.read(actor, action.itemIds);
      break;
    case 'urge':
      m.urge(actor, action.content);
      break;
    case 'reactivate':
      m.reactivate(actor, action.activityCode, action.userIds, action.opinion);
      break;
    case 'childDone':
      m.childDone(action.tokenId, action.approval);
      break;
  }
  m.touch();
  return { state, effects: m.effects };
}

/** What the user may do on an open item now (the buttons a workflow form would show). */
export function actionsOnItem(template: WorkflowTemplate, item: ItemRec, state: EngineState): string[] {
  if (!isOpen(item)) return [];
  if (item.itemType === 'circulate') return ['Read'];
  if (item.itemType === 'childInstance') return [];
  if (item.kind === 'consult') return ['Submit'];
  if (state.items.some((i) => i.sourceItemId === item.id && i.kind === 'before' && isOpen(i))) return [];
  const a = template.activities.find((x) => x.code === item.activityCode);
  const permitted: readonly string[] = a && 'permittedActions' in a ? a.permittedActions : [];
  const out = ['Submit'];
  if (item.itemType === 'approve') out.push('Reject');
  if (item.kind !== 'normal') return out;
  if (permitted.includes('sendBack')) out.push('ForBack');
  if (permitted.includes('forward')) out.push('Forward');
  if (permitted.includes('addSigner') && item.itemType === 'approve') out.push('TempAddition');
  if (permitted.includes('consult')) out.push('ForComment');
  if (permitted.includes('finish')) out.push('FinishInstance');
  if (permitted.includes('cancel')) out.push('CancelInstance');
  if (permitted.includes('circulate')) out.push('Circulate');
  return out;
}

// Answered here as before; it lives with the transitions (the send-back action reads it too).
export { sendBackTargets };
