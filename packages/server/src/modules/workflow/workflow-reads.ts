import type { contracts } from '@tritium/shared';
import { WorkflowTemplate, defaultFieldPermission } from '@tritium/shared/workflow/index';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow, runtimeFormFor } from '../business-data/runtime-form.ts';
import { actionsOnItem, applyAction, isOpen, sendBackTargets, type Action, type CoreContext, type EngineState, type InstanceRec } from './workflow.core.ts';
import { findInstance, findInstanceByRecord, instanceIdOfItem, loadComments, loadStateAndTemplate } from './workflow.repo.ts';
import { resolveSources } from './participants.ts';
import { readRecordRow } from './record-status.ts';
import type { Out } from './workflow.tx.ts';
import { templateFromText } from './workflow-templates.ts';

// The workflow engine's reads (docs/decisions/0014): an instance's state and template as the caller may see them, and
// what the runtime's screens show of it — the instance, its trace, the caller's open items and their actions.

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** An instance an app administrator may revise: running, or finished with approval. */
export const revisable = (i: InstanceRec) => i.state === 'Running' || (i.state === 'Finished' && i.approval === 1);

/** The instance's tokens, items and template, read in one statement (after its row lock inside an action). */
export async function stateOf(edb: EngineExecutor, instance: InstanceRec): Promise<{ state: EngineState; template: WorkflowTemplate }> {
  return parsed(instance, await loadStateAndTemplate(edb, instance));
}

export function parsed(instance: InstanceRec, read: { state: EngineState; definition: string | undefined }): { state: EngineState; template: WorkflowTemplate } {
  if (read.definition === undefined) throw new AppError('WorkflowTemplateNotPublished', { detail: { schemaCode: instance.schemaCode } });
  return { state: read.state, template: templateFromText(read.definition) };
}

export async function isAppAdmin(edb: EngineExecutor, ctx: NodeContext, schemaCode: string): Promise<boolean> {
  try {
    return (await runtimeFormFor(edb, await viewerOf(edb, ctx), schemaCode)).isAppAdmin;
  } catch {
    return false;
  }
}

/** The caller may read an instance: a participant, the originator, or anyone who opens its form. 404 otherwise. */
export async function assertCanRead(edb: EngineExecutor, ctx: NodeContext, state: EngineState): Promise<void> {
  if (state.instance.originator === ctx.userId || state.items.some((i) => i.participant === ctx.userId || i.delegant === ctx.userId)) return;
  try {
    await getRuntimeFormOrThrow(edb, ctx, state.instance.schemaCode);
  } catch {
    throw new AppError('WorkflowInstanceNotFound', { detail: { instanceId: state.instance.id } });
  }
}

export function presentInstance(state: EngineState): Out<typeof contracts.WfInstanceDto> {
  const i = state.instance;
  return {
    instanceId: i.id,
    schemaCode: i.schemaCode,
    objectId: i.objectId,
    version: i.version,
    name: i.name,
    originator: i.originator,
    state: i.state,
    approval: i.approval,
    runningActivities: [...new Set(state.tokens.filter((t) => t.state === 'Running').map((t) => t.activityCode))],
    createdTime: i.createdTime.toISOString(),
    finishedTime: iso(i.finishedTime),
  };
}

// ---- reads -----------------------------------------------------------------------------------------------------

export async function readableState(ctx: NodeContext, query: { instanceId?: string; schemaCode?: string; objectId?: string }) {
  const edb = engineOf(ctx);
  const instance = query.instanceId ? await findInstance(edb, query.instanceId) : await findInstanceByRecord(edb, query.schemaCode!, query.objectId!);
  if (!instance) throw new AppError('WorkflowInstanceNotFound', { detail: query });
  const { state, template } = await stateOf(edb, instance);
  await assertCanRead(edb, ctx, state);
  return { edb, state, template };
}

const nameOf = (template: WorkflowTemplate, code: string) => template.activities.find((a) => a.code === code)?.name ?? code;

function presentItem(template: WorkflowTemplate, i: EngineState['items'][number]): Out<typeof contracts.WfWorkItemDto> {
  return {
    workItemId: i.id,
    tokenId: i.tokenId,
    activityCode: i.activityCode,
    activityName: nameOf(template, i.activityCode),
    itemType: i.itemType,
    kind: i.kind,
    participant: i.participant,
    finisher: i.finisher,
    delegant: i.delegant,
    sourceItemId: i.sourceItemId,
    state: i.state,
    approval: i.approval,
    actionEvent: i.actionEvent,
    urged: i.urged,
    createdTime: i.createdTime.toISOString(),
    finishedTime: iso(i.finishedTime),
    dueTime: iso(i.dueTime),
  };
}

export async function info(ctx: NodeContext, query: { instanceId?: string; schemaCode?: string; objectId?: string }): Promise<Out<typeof contracts.WfInstanceInfoResult>> {
  const { edb, state, template } = await readableState(ctx, query);
  const myItems = state.items
    .filter((i) => i.participant === ctx.userId && isOpen(i))
    .map((i) => {
      const a = template.activities.find((x) => x.code === i.activityCode);
      const fieldPermissions = a && 'fieldPermissions' in a ? a.fieldPermissions : {};
      return { ...presentItem(template, i), actions: actionsOnItem(template, i, state), fieldPermissions, defaultFieldPermission: defaultFieldPermission(a) };
    });
  // Instance actions: dry runs of the pure core on the loaded state (nothing is written).
  const admin = await isAppAdmin(edb, ctx, state.instance.schemaCode);
  const dry: CoreContext = { now: new Date(), newId, template, values: {}, participantsOf: () => [], administrators: [] };
  const tries: [string, Action][] = [
    ['RetrieveInstance', { type: 'retrieve' }],
    ['CancelInstance', { type: 'cancel' }],
    ['FinishInstance', { type: 'finish' }],
    ['Urge', { type: 'urge', content: '-' }],
  ];
  const instanceActions = tries
    .filter(([, action]) => {
      try {
        applyAction(state, dry, { userId: ctx.userId, isAdmin: admin }, action);
        return true;
      } catch {
        return false;
      }
    })
    .map(([name]) => name);
  if (admin && (state.instance.state === 'Finished' || state.instance.state === 'Canceled')) instanceActions.push('Reactivate');
  if (admin && revisable(state.instance)) instanceActions.push('Revise');
  return { instance: presentInstance(state), myItems, instanceActions };
}

export async function detail(ctx: NodeContext, query: { instanceId?: string; schemaCode?: string; objectId?: string }): Promise<Out<typeof contracts.WfInstanceDetailResult>> {
  const { edb, state, template } = await readableState(ctx, query);
  const comments = await loadComments(edb, state.instance.id);
  const seqOf = new Map(state.tokens.map((t) => [t.id, t.seq]));
  const items = [...state.items].sort((x, y) => seqOf.get(x.tokenId)! - seqOf.get(y.tokenId)! || x.createdTime.getTime() - y.createdTime.getTime() || (x.id < y.id ? -1 : 1));
  return {
    instance: presentInstance(state),
    tokens: state.tokens.map((t) => ({
      tokenId: t.id,
      seq: t.seq,
      activityCode: t.activityCode,
      activityName: nameOf(template, t.activityCode),
      state: t.state,
      approval: t.approval,
      participants: t.participants,
      itemCount: t.itemCount,
      agreeCount: t.agreeCount,
      disagreeCount: t.disagreeCount,
      retrievable: t.retrievable,
      preTokens: t.preTokens,
      actionEvent: t.actionEvent,
      skipped: t.skipped,
      createdTime: t.createdTime.toISOString(),
      finishedTime: iso(t.finishedTime),
    })),
    items: items.map((i) => presentItem(template, i)),
    comments: comments.map((c) => ({
      commentId: c.id,
      tokenId: c.tokenId,
      workItemId: c.workItemId,
      activityCode: c.activityCode,
      userId: c.userId,
      action: c.action,
      text: c.text,
      approval: c.approval,
      signature: c.signature,
      attachmentIds: c.attachmentIds,
      receivers: c.receivers,
      createdTime: c.createdTime.toISOString(),
    })),
  };
}

export async function activityList(ctx: NodeContext, query: { instanceId?: string; schemaCode?: string; objectId?: string }): Promise<Out<typeof contracts.WfActivityListResult>> {
  const { state, template } = await readableState(ctx, query);
  return {
    instanceId: state.instance.id,
    version: state.instance.version,
    activities: template.activities.map((a) => {
      const tokens = state.tokens.filter((t) => t.activityCode === a.code);
      const last = tokens.at(-1);
      return { code: a.code, name: a.name, type: a.type, status: last ? last.state : 'NotReached', activations: tokens.length, position: a.position ?? null };
    }),
    routes: template.routes.map((r) => ({ from: r.from, to: r.to, isElse: r.isElse })),
  };
}

/** The caller's open item with its instance's state and template; 404 when it is not theirs or not open. */
async function myOpenItem(edb: EngineExecutor, ctx: NodeContext, workItemId: string) {
  const instanceId = await instanceIdOfItem(edb, workItemId);
  const instance = instanceId ? await findInstance(edb, instanceId) : undefined;
  if (!instance) throw new AppError('WorkflowItemNotFound', { detail: { workItemId } });
  const { state, template } = await stateOf(edb, instance);
  const item = state.items.find((i) => i.id === workItemId);
  if (!item || item.participant !== ctx.userId || !isOpen(item)) throw new AppError('WorkflowItemNotFound', { detail: { workItemId } });
  return { state, item, template };
}

/** The send-back targets of the caller's open item (the same rule the ForBack action checks). */
export async function activityPre(ctx: NodeContext, query: { workItemId: string }): Promise<Out<typeof contracts.WfActivityPreResult>> {
  const { state, item, template } = await myOpenItem(engineOf(ctx), ctx, query.workItemId);
  const codes = sendBackTargets(state, template, item);
  return { activities: template.activities.filter((a) => codes.includes(a.code)).map((a) => ({ code: a.code, name: a.name, type: a.type })) };
}

/** The hand-sign mode of the caller's open item's node, and the caller's latest signature on any opinion. */
export async function handSignConfig(ctx: NodeContext, query: { workItemId: string }): Promise<Out<typeof contracts.WfHandSignConfigResult>> {
  const edb = engineOf(ctx);
  const { item, template } = await myOpenItem(edb, ctx, query.workItemId);
  const a = template.activities.find((x) => x.code === item.activityCode);
  const mode = a && 'handSign' in a && item.itemType !== 'circulate' ? a.handSign : 'none';
  const last = await edb.selectFrom('wf_comments').select('signature').where('user_id', '=', ctx.userId).where('signature', 'is not', null).orderBy('created_time', 'desc').limit(1).executeTakeFirst();
  return { mode, lastSignature: last?.signature ?? null };
}

export async function participantList(ctx: NodeContext, query: { instanceId: string; activityCode: string }): Promise<Out<typeof contracts.WfParticipantListResult>> {
  const { edb, state, template } = await readableState(ctx, query);
  const a = template.activities.find((x) => x.code === query.activityCode);
  if (!a) throw new AppError('WorkflowActivityInvalid', { detail: { activityCode: query.activityCode } });
  const last = state.tokens.filter((t) => t.activityCode === a.code).at(-1);
  let ids: string[];
  let source: 'activated' | 'rule' = 'activated';
  if (last) ids = last.participants;
  else if (a.type === 'Start') ids = [state.instance.originator];
  else {
    source = 'rule';
    const values = (await readRecordRow(edb, state.instance.schemaCode, state.instance.objectId)) ?? {};
    ids = 'participants' in a ? await resolveSources(edb, a.participants.sources, { originator: state.instance.originator, values }) : [];
  }
  const names = ids.length ? await edb.selectFrom('org_users').select(['id', 'name']).where('id', 'in', ids).execute() : [];
  const byId = new Map(names.map((n) => [n.id, n.name]));
  return { activityCode: a.code, source, participants: ids.map((id) => ({ userId: id, name: byId.get(id) ?? '' })) };
}

// The flow center's counts (workflow-counts.ts).
