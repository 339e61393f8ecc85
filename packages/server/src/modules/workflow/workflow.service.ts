import type { Kysely } from 'kysely';
import type { contracts } from '@tritium/shared';
import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import { WorkflowTemplate, fieldPermissionAt, requiredAt } from '@tritium/shared/workflow/index';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import { findRecord } from '../business-data/records.repo.ts';
import { assertCanEdit } from '../business-data/record-policy.ts';
import { saveRecordIn } from '../business-data/record.service.ts';
import { applyAction, isOpen, startInstance, type Action, type Actor, type EngineState, type Effect, type InstanceRec, type Opinion, type Outcome } from './workflow.core.ts';
import { addStateWrites, findInstance, findInstanceByRecord, instanceIdOfItem, loadState, lockAndRead, lockInstance } from './workflow.repo.ts';
import { ancestorsOf, childActivity, createChildRecord, runningChildren, stoppedChildTokens } from './child-flows.ts';
import { unknownUsers } from './participants.ts';
import { LazyCore } from './core-context.ts';
import { mainTableOf, readRecordRow, recordStatusUpdate } from './record-status.ts';
import { inTransaction, type Out } from './workflow.tx.ts';
import { VoteLines, type Waiting } from './vote-lines.ts';
import { afterWorkflowStatus, workflowStatusIsQuiet } from '../business-rules/record-hooks.ts';
import { runOf } from '../business-rules/rule-runner.ts';
import { insertWorkflowReminders, workflowReminders } from '../remind/remind.delivery.ts';
import { addNotices } from '../notification/notify.ts';
import { WriteBatch } from '../../db/write-batch.ts';
import { workflowNotices, todoChanges } from './workflow-notices.ts';
import { timeLimitTimers } from './time-limit-schedule.ts';
import { assertCanRead, isAppAdmin, parsed, presentInstance, revisable, stateOf } from './workflow-reads.ts';

// The workflow engine's service (docs/decisions/0014): templates per workflow form, and every action in one
// transaction that locks the instance row first, re-reads its tokens and items, applies the pure core and writes the
// difference, then the record's status. A late second action on the same item meets "already handled".

export type { Action as WorkflowAction };

// ---- templates (workflow-templates.ts) --------------------------------------------------------------------------

export { adminFormOrThrow, latestTemplate, loadTemplate, publishTemplate, saveTemplate } from './workflow-templates.ts';
import { latestTemplate } from './workflow-templates.ts';
import { scriptItemAction } from './item-scripts.ts';

// ---- the core's context and effects ----------------------------------------------------------------------------

const batchOf = (edb: EngineExecutor) => new WriteBatch(edb as unknown as Kysely<any>);

/**
 * The effects of an action's outcome, added to its writes (docs/decisions/0101): the record's status, the reminders,
 * the messages and the live events all join the statement that writes the instance. Only business rules, rollups or
 * automations that read the record make the writes so far run first (they must see its new status). One statement
 * must not update a row twice (PostgreSQL keeps one of the two, not told which): the record's status is one update,
 * the last status the effects set (with `record`'s instance id when the flow has just started).
 */
async function addEffects(
  batch: WriteBatch,
  edb: EngineExecutor,
  before: EngineState | undefined,
  after: EngineState,
  effects: Effect[],
  ctx?: NodeContext,
  record: { status?: BizObjectStatus; workflowInstanceId?: string } = {},
): Promise<void> {
  const instance = after.instance;
  let status = record.status;
  const writeStatus = async () => {
    if (status === undefined) return;
    // The main table from the request's form cache when there is a request (rules and rollups read the form next).
    const form = ctx ? await runOf(edb, ctx).forms.get(instance.schemaCode) : null;
    const table = form ? form.mainTable : await mainTableOf(edb, instance.schemaCode);
    if (table) batch.add(recordStatusUpdate(edb, table, instance.objectId, status, record.workflowInstanceId));
    status = undefined;
  };
  for (const e of effects) {
    if (e.type === 'recordStatus') status = e.status;
    // Business rules on effective / void, and the rollups reading the record (docs/decisions/0015).
    if (e.type === 'businessRules' && ctx && !(await workflowStatusIsQuiet(edb, ctx, instance.schemaCode, e.on))) {
      await writeStatus();
      await batch.flush();
      await afterWorkflowStatus(edb, ctx, instance.schemaCode, instance.objectId, e.on);
    }
  }
  await writeStatus();
  // Reminders: the remind effects and every new todo, one row per receiver (docs/decisions/0019).
  const existed = new Set(before?.items.map((i) => i.id));
  const reminders = workflowReminders(effects, { entries: after.comments, newItems: after.items.filter((i) => !existed.has(i.id)) });
  if (reminders.length) batch.add(insertWorkflowReminders(edb, instance, reminders));
  // The message center and the browsers (issue 20): each reminder and the flow's result as messages, and the
  // participants whose to-do counts moved.
  if (ctx) addNotices(batch, edb, ctx.engineCode, workflowNotices(instance, reminders, before?.instance, ctx.userId), { todos: todoChanges(before, after) });
}

/**
 * Everything an action's outcome does once its state is written: the effects, then the child flows (docs/decisions/
 * 0024) — children to start, waited-for children to cancel when the parent stopped waiting, and the parent to move
 * when this instance was a child that just ended. The parent's row is already locked (root first). The batch holds
 * the action's writes; it has run when this returns.
 */
async function afterAction(
  batch: WriteBatch,
  edb: EngineExecutor,
  ctx: NodeContext,
  before: EngineState | undefined,
  out: Outcome,
  template: WorkflowTemplate,
  record?: { status: BizObjectStatus; workflowInstanceId: string },
  /** The caller owns the transaction and runs no statement after this: the last write may carry the COMMIT. */
  last = false,
): Promise<void> {
  await addEffects(batch, edb, before, out.state, out.effects, ctx, record);
  const timers = timeLimitTimers(edb, ctx.engineCode, template, before, out.state);
  if (timers) batch.add(timers);
  const i = out.state.instance;
  const ended = (i.state === 'Finished' || i.state === 'Canceled') && before?.instance.state !== i.state;
  const childFlows = out.effects.some((e) => e.type === 'startChild') || stoppedChildTokens(before, out.state).length > 0 || (ended && !!i.parentInstanceId);
  // The write goes with the COMMIT (docs/decisions/0104) when no child flow's statements follow.
  if (await batch.flush({ commit: last && !childFlows })) return;
  for (const e of out.effects) {
    if (e.type !== 'startChild') continue;
    const child = await createChildRecord(edb, ctx, out.state.instance, childActivity(template, e.activityCode));
    await startIn(edb, child.originatorCtx, child.form, child.objectId, {
      submit: childActivity(template, e.activityCode).finishStart,
      parent: { instanceId: out.state.instance.id, tokenId: e.tokenId },
    });
  }
  for (const childId of await runningChildren(edb, stoppedChildTokens(before, out.state))) {
    await runLocked(edb, ctx, childId, { userId: ctx.userId, isAdmin: true }, { type: 'cancel', opinion: { text: '主流程已不再等待此子流程' } });
  }
  if (ended && i.parentInstanceId && i.parentTokenId) {
    const approval = i.state === 'Finished' && i.approval === 1 ? 1 : 0;
    await runLocked(edb, ctx, i.parentInstanceId, { userId: i.originator, isAdmin: true }, { type: 'childDone', tokenId: i.parentTokenId, approval });
  }
}

/** An action the engine takes by itself (child flows), on an instance whose ancestors this transaction holds. */
async function runLocked(edb: EngineExecutor, ctx: NodeContext, instanceId: string, actor: Actor, action: Action): Promise<void> {
  const instance = await lockInstance(edb, instanceId);
  if (!instance) return;
  const { state, template } = await stateOf(edb, instance);
  const out = await new LazyCore(edb, template, instance).run((core) => applyAction(state, core, actor, action));
  const batch = batchOf(edb);
  addStateWrites(batch, edb, state, out.state);
  await afterAction(batch, edb, ctx, state, out, template);
}

// ---- start and actions -----------------------------------------------------------------------------------------

export async function start(ctx: NodeContext, body: Out<typeof contracts.WfStartBody>): Promise<Out<typeof contracts.WfInstanceDto>> {
  return inTransaction(ctx, async (edb) => {
    const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
    return presentInstance(await startIn(edb, ctx, form, body.objectId, { submit: body.submit, opinion: body.opinion as Opinion | undefined }));
  });
}

/** The form's Submit on a workflow record: its flow starts and the start node is submitted (business-data's hook). */
export async function startFromForm(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, objectId: string): Promise<{ status: number }> {
  await startIn(edb, ctx, form, objectId, { submit: true });
  return { status: Number((await readRecordRow(edb, form.node.code, objectId))?.Status ?? BizObjectStatus.Running) };
}

/**
 * The open API's IsSubmit false on a workflow form (h3yun-facts §1.4): the flow starts and runs, parked on its start
 * node, whose item waits for the originator; the record is Running.
 */
export async function startParked(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, objectId: string): Promise<void> {
  await startIn(edb, ctx, form, objectId, { submit: false, parked: true });
}

/** Starts the flow of a Draft record in the caller's transaction. */
async function startIn(
  edb: EngineExecutor,
  ctx: NodeContext,
  form: RuntimeForm,
  objectId: string,
  options: { submit: boolean; parked?: boolean; opinion?: Opinion; parent?: { instanceId: string; tokenId: string } },
): Promise<EngineState> {
  if (!form.isWorkflow) throw new AppError('WorkflowFormNotWorkflow', { detail: { schemaCode: form.node.code } });
  const row = await findRecord(edb, form, objectId, { forUpdate: true });
  if (!row) throw new AppError('BizObjectNotFound', { detail: { objectId } });
  assertCanEdit(form, row, ctx.userId);
  if (await findInstanceByRecord(edb, form.node.code, objectId)) throw new AppError('WorkflowInstanceExists', { detail: { objectId } });
  if (Number(row.Status) !== BizObjectStatus.Draft) throw new AppError('BizObjectActionNotAllowed', { detail: { status: row.Status } });
  const published = await latestTemplate(edb, form.node.code);
  if (!published) throw new AppError(options.parent ? 'WorkflowChildFormInvalid' : 'WorkflowTemplateNotPublished', { detail: { schemaCode: form.node.code } });
  const parent = options.parent ? { parentInstanceId: options.parent.instanceId, parentTokenId: options.parent.tokenId } : {};
  const id = newId();
  const { out, effects } = await new LazyCore(edb, published.template, { schemaCode: form.node.code, objectId, originator: ctx.userId }).run((core) => {
    let out = startInstance({ id, schemaCode: form.node.code, objectId, version: published.version, originator: ctx.userId, name: String(row.Name ?? ''), ...parent }, core, options.opinion);
    const effects = [...out.effects];
    if (options.submit) {
      const item = out.state.items[0];
      const next = applyAction(out.state, core, { userId: ctx.userId, isAdmin: form.isAppAdmin }, { type: 'submit', itemId: item.id });
      out = { state: { ...next.state, comments: [...out.state.comments, ...next.state.comments] }, effects: [] };
      effects.push(...next.effects);
    } else if (options.parked) {
      out.state.instance.state = 'Running';
      effects.push({ type: 'recordStatus', status: BizObjectStatus.Running });
    }
    return { out, effects };
  });
  const batch = batchOf(edb);
  addStateWrites(batch, edb, undefined, out.state);
  // The record gets its instance, and stays Draft unless the effects move it (a submitted start: Running).
  await afterAction(batch, edb, ctx, undefined, { state: out.state, effects }, published.template, { status: BizObjectStatus.Draft, workflowInstanceId: out.state.instance.id });
  return effects.some((e) => e.type === 'startChild') ? await loadState(edb, (await findInstance(edb, out.state.instance.id))!) : out.state;
}

/** Users an action names must be active users of the engine. */
function namedUsers(action: Action): string[] {
  switch (action.type) {
    case 'forward':
      return [action.to];
    case 'addsign':
    case 'consult':
    case 'circulate':
    case 'reactivate':
      return action.userIds;
    default:
      return [];
  }
}

/** The handler's changes to the record, saved with a Submit under the node's field permissions (docs/decisions/0022). */
export interface ItemEdit {
  values: Record<string, unknown>;
  children?: Record<string, Record<string, unknown>[]>;
  /** Collects stored files the save no longer references (their bytes go after the commit). */
  dropped: string[];
  /** Fields the form's script set (item-scripts.ts): saved although the node does not let the handler edit them. */
  scripted?: Set<string>;
}

/** A child flow's instance, locked after its ancestors (root first: a child's action may move its parent, docs/decisions/0024). */
async function lockWithAncestors(edb: EngineExecutor, target: { instanceId?: string; itemId?: string }): Promise<InstanceRec> {
  const instanceId = target.instanceId ?? (target.itemId ? await instanceIdOfItem(edb, target.itemId) : undefined);
  if (!instanceId) throw new AppError('WorkflowItemNotFound', { detail: { workItemId: target.itemId } });
  for (const ancestor of await ancestorsOf(edb, instanceId)) await lockInstance(edb, ancestor);
  const instance = await lockInstance(edb, instanceId);
  if (!instance) throw new AppError('WorkflowInstanceNotFound', { detail: { instanceId } });
  return instance;
}

type Read = Awaited<ReturnType<typeof lockAndRead>>;
type Target = { instanceId?: string; itemId?: string };
/** A time-limit action's (docs/decisions/0042): by the system, at the scheduler's time. */
type ActOptions = { bySystem?: boolean; now?: Date };
interface Vote {
  ctx: NodeContext;
  itemId: string;
  action: Action;
}
type Answer = Out<typeof contracts.WfInstanceDto>;

/** Thrown inside a vote's transaction when another transaction holds its instance: the vote joins a line instead. */
class InstanceBusy extends Error {
  constructor(readonly line: string) {
    super('the instance is held by another transaction');
  }
}

const lines = new VoteLines<Vote, Answer>(actTogether);
const lineOf = (ctx: NodeContext, instanceId: string) => `${ctx.engineCode} ${instanceId}`;

/**
 * Whether an action may wait in its instance's line (docs/decisions/0109): a plain vote on a work item — submit or
 * reject, no edits of the record, by a person in a transaction of its own — whose effect on the instance depends on
 * nothing but the instance.
 */
function votesInLine(ctx: NodeContext, target: Target, action: Action, edit: ItemEdit | undefined, options: ActOptions): boolean {
  return !!target.itemId && !target.instanceId && (action.type === 'submit' || action.type === 'reject') && !edit && !options.bySystem && !options.now && !ctx.db.isTransaction;
}

/** Applies one action to the instance `instanceId` (or the instance of `itemId`) under the instance's row lock. */
export async function act(
  ctx: NodeContext,
  target: Target,
  action: Action,
  edit?: ItemEdit,
  options: ActOptions = {},
): Promise<Answer> {
  if (!votesInLine(ctx, target, action, edit, options)) return actAlone(ctx, target, action, edit, options);
  let opened: string | undefined;
  try {
    return await inTransaction(ctx, async (edb, owned) => {
      const root = await lockAndRead(edb, ctx.engineCode, target, { wait: false });
      if (root && 'busy' in root) throw new InstanceBusy(lineOf(ctx, root.busy));
      if (root && lines.open(lineOf(ctx, root.state.instance.id))) opened = lineOf(ctx, root.state.instance.id);
      return actIn(edb, owned, ctx, target, root, action);
    });
  } catch (error) {
    if (!(error instanceof InstanceBusy)) throw error;
    // Held by this process: wait in its line; held elsewhere: open the line here and wait for the lock.
    return lines.join(error.line, { ctx, itemId: target.itemId!, action }) ?? lines.lead(error.line, () => actAlone(ctx, target, action));
  } finally {
    if (opened) lines.release(opened);
  }
}

/** An action in a transaction of its own that waits for the instance's lock. */
function actAlone(ctx: NodeContext, target: Target, action: Action, edit?: ItemEdit, options: ActOptions = {}): Promise<Answer> {
  return inTransaction(ctx, async (edb, owned) => actIn(edb, owned, ctx, target, await lockAndRead(edb, ctx.engineCode, target), action, edit, options));
}

/** An action in its transaction, the instance locked and read (`root`, undefined for a child flow's: locked here). */
async function actIn(
  edb: EngineExecutor,
  owned: boolean,
  ctx: NodeContext,
  target: Target,
  root: Read,
  action: Action,
  given?: ItemEdit,
  options: ActOptions = {},
): Promise<Answer> {
  const read = root && 'state' in root ? root : undefined;
  const instance = read ? read.state.instance : await lockWithAncestors(edb, target);
  const instanceId = instance.id;
  const { state, template } = read ? parsed(instance, read) : await stateOf(edb, instance);
  if (target.instanceId && !['submit', 'reject', 'forback', 'forward', 'addsign', 'consult'].includes(action.type)) await assertCanRead(edb, ctx, state);
  const unknown = await unknownUsers(edb, namedUsers(action));
  if (unknown.length) throw new AppError('WorkflowParticipantInvalid', { detail: { userIds: unknown, reason: 'unknown' } });
  // The form's script hears the action first (docs/decisions/0118); then the handler's edits land: the routes after
  // this node read the record as it is now.
  const edit = await scriptItemAction(edb, ctx, instance, action, given, options.bySystem);
  if (edit && action.type === 'submit') await saveItemEdit(edb, ctx, state, template, action.itemId, edit);
  const admin = ['cancel', 'finish', 'urge', 'reactivate', 'circulate'].includes(action.type) ? await isAppAdmin(edb, ctx, instance.schemaCode) : false;
  if (action.type === 'childDone') throw new AppError('WorkflowActionNotPermitted', { detail: { action: action.type } });
  const out = await new LazyCore(edb, template, instance, options.now).run((core) => applyAction(state, core, { userId: ctx.userId, isAdmin: admin, bySystem: options.bySystem }, action));
  const batch = batchOf(edb);
  addStateWrites(batch, edb, state, out.state);
  await afterAction(batch, edb, ctx, state, out, template, undefined, owned);
  // A child flow that ended at once may have moved this instance again.
  return presentInstance(out.effects.some((e) => e.type === 'startChild') ? await loadState(edb, (await findInstance(edb, instanceId))!) : out.state);
}

/** Whether a vote left the instance where the votes after it were cast: its node open, no token or item added, no effect but reminders. */
function leftInPlace(before: EngineState, out: Outcome): boolean {
  return (
    out.state.instance.state === before.instance.state &&
    out.state.tokens.length === before.tokens.length &&
    out.state.items.length === before.items.length &&
    out.effects.every((e) => e.type === 'remind')
  );
}

/**
 * A line's votes in one transaction (docs/decisions/0109): one lock and read, the pure core applied vote after vote
 * (a vote the core refuses gets its error, the others go on), one write of the difference and one commit. A vote
 * that moves the instance on (opens the next node, ends the flow) is the round's last: the votes after it wait for
 * the next round, so each is applied to the instance as it stands, as it would have been alone. Should the shared
 * transaction fail, each vote runs again alone.
 */
async function actTogether(waiting: Waiting<Vote, Answer>[]): Promise<Waiting<Vote, Answer>[]> {
  const first = waiting[0]!.vote;
  const answers = new Map<Waiting<Vote, Answer>, Answer | AppError>();
  let left: Waiting<Vote, Answer>[] = [];
  try {
    await inTransaction(first.ctx, async (edb, owned) => {
      answers.clear();
      left = [];
      const root = await lockAndRead(edb, first.ctx.engineCode, { itemId: first.itemId });
      if (!root || 'busy' in root) throw new Error('a line of votes needs a root instance');
      const { state, template } = parsed(root.state.instance, root);
      const core = new LazyCore(edb, template, state.instance);
      let now = state;
      const comments: EngineState['comments'] = [];
      const effects: Effect[] = [];
      let last: Waiting<Vote, Answer> | undefined;
      for (const [i, w] of waiting.entries()) {
        let out: Outcome;
        try {
          out = await core.run((c) => applyAction(now, c, { userId: w.vote.ctx.userId, isAdmin: false }, w.vote.action));
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          answers.set(w, error);
          continue;
        }
        answers.set(w, presentInstance(out.state));
        comments.push(...out.state.comments);
        effects.push(...out.effects);
        last = w;
        const moved = !leftInPlace(now, out);
        now = out.state;
        if (moved) {
          left = waiting.slice(i + 1);
          break;
        }
      }
      if (!last) return;
      const after = { ...now, comments };
      const batch = batchOf(edb);
      addStateWrites(batch, edb, state, after);
      await afterAction(batch, edb, last.vote.ctx, state, { state: after, effects }, template, undefined, owned);
      // A child flow the last vote started and that ended at once may have moved the instance again (as in actIn).
      if (effects.some((e) => e.type === 'startChild')) answers.set(last, presentInstance(await loadState(edb, (await findInstance(edb, state.instance.id))!)));
    });
  } catch {
    // Each vote alone, one after another, as if no line had formed.
    for (const w of waiting) {
      await actAlone(w.vote.ctx, { itemId: w.vote.itemId }, w.vote.action).then(w.resolve, w.reject);
    }
    return [];
  }
  for (const [w, answer] of answers) {
    if (answer instanceof AppError) w.reject(answer);
    else w.resolve(answer);
  }
  return left;
}

/** Whether the record of a flow in this state may be revised: running, or ended agreed (its record Effective). */

/**
 * 修订: an app administrator changes the record of a running or agreed flow (every field, its status kept) without
 * moving the flow; the trace gets a 修订 entry. `dropped` collects the stored files the save no longer references.
 */
export async function revise(ctx: NodeContext, body: Out<typeof contracts.WfReviseBody>, dropped: string[]): Promise<Out<typeof contracts.WfInstanceDto>> {
  return inTransaction(ctx, async (edb) => {
    for (const ancestor of await ancestorsOf(edb, body.instanceId)) await lockInstance(edb, ancestor);
    const instance = await lockInstance(edb, body.instanceId);
    if (!instance) throw new AppError('WorkflowInstanceNotFound', { detail: { instanceId: body.instanceId } });
    const state = await loadState(edb, instance);
    await assertCanRead(edb, ctx, state);
    if (!(await isAppAdmin(edb, ctx, instance.schemaCode))) throw new AppError('WorkflowReviseNotAllowed', { detail: { instanceId: instance.id } });
    if (!revisable(instance)) throw new AppError('WorkflowStateInvalid', { detail: { state: instance.state } });
    const form = await getRuntimeFormOrThrow(edb, ctx, instance.schemaCode);
    const saved = await saveRecordIn(edb, ctx, form, { objectId: instance.objectId, submit: false, values: body.values, children: body.children }, {
      status: (current) => current ?? BizObjectStatus.Running,
      editRight: 'workItem',
    });
    dropped.push(...saved.dropped);
    const opinion = body.opinion as Opinion | undefined;
    await edb
      .insertInto('wf_comments')
      .values({
        id: newId(),
        instance_id: instance.id,
        token_id: null,
        work_item_id: null,
        activity_code: null,
        user_id: ctx.userId,
        action: 'revise',
        text: opinion?.text ?? '',
        approval: -1,
        signature: opinion?.signature ?? null,
        attachment_ids: JSON.stringify(opinion?.attachmentIds ?? []),
        receivers: '[]',
        created_time: new Date(),
      })
      .execute();
    return presentInstance(state);
  });
}

/** Saves a work item's edits: the caller's open item, its node's editable fields only, its required fields filled. */
async function saveItemEdit(edb: EngineExecutor, ctx: NodeContext, state: EngineState, template: WorkflowTemplate, itemId: string, edit: ItemEdit): Promise<void> {
  const item = state.items.find((i) => i.id === itemId);
  // Not the caller's open item: nothing is saved and the core answers the action's own error.
  if (!item || item.participant !== ctx.userId || !isOpen(item) || item.itemType === 'circulate') return;
  const activity = template.activities.find((a) => a.code === item.activityCode);
  const form = await getRuntimeFormOrThrow(edb, ctx, state.instance.schemaCode);
  const saved = await saveRecordIn(edb, ctx, form, { objectId: state.instance.objectId, submit: false, values: edit.values, children: edit.children }, {
    status: (current) => current ?? BizObjectStatus.Running,
    editRight: 'workItem',
    editable: (code) => edit.scripted?.has(code) === true || fieldPermissionAt(activity, code).editable,
    required: requiredAt(activity),
  });
  edit.dropped.push(...saved.dropped);
}

export { activityList, activityPre, detail, handSignConfig, info, participantList } from './workflow-reads.ts';
export { todosCount, unfinishedCount } from './workflow-counts.ts';
