import type { contracts } from '@tritium/shared';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import { assertCanChangeTaskTip, assertTaskTipsEnabled } from './sns.policy.ts';
import { presentTaskTip } from './sns.presenter.ts';
import { activeUsers, deleteTaskTip, findTaskTip, insertTaskTip, setTaskTipState, taskTipsOf, userNames, type TaskTipRow } from './sns.repo.ts';
import { assertRecordExists, inTransaction } from './sns.service.ts';
import { setTaskTipTimer } from './task-tip-delivery.ts';

// Task tips on records (calls.md "Comments and task tips": /v1/tasktip/add, list, remove, cancel; docs/decisions/0009).
// A tip's timer is set with it; the scheduler's sweep sends it when it falls due (task-tip-delivery.ts).

type TaskTipAddBody = { schemaCode: string; objectId: string; content: string; remindTime: string; receiverIds: string[] };

async function getTaskTipFormOrThrow(edb: EngineExecutor, ctx: NodeContext, schemaCode: string): Promise<RuntimeForm> {
  const form = await getRuntimeFormOrThrow(edb, ctx, schemaCode);
  assertTaskTipsEnabled(form);
  return form;
}

async function present(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, rows: TaskTipRow[]): Promise<contracts.TaskTipDto[]> {
  const receiverIds = rows.flatMap((r) => (typeof r.receiver_ids === 'string' ? (JSON.parse(r.receiver_ids) as string[]) : r.receiver_ids));
  const names = await userNames(edb, receiverIds);
  return rows.map((r) => presentTaskTip(form, r, ctx.userId, names));
}

export async function addTaskTip(ctx: NodeContext, body: TaskTipAddBody): Promise<contracts.TaskTipDto> {
  const edb = engineOf(ctx);
  const form = await getTaskTipFormOrThrow(edb, ctx, body.schemaCode);
  const remindTime = new Date(body.remindTime);
  if (remindTime.getTime() <= Date.now()) throw parameterError([{ path: 'remindTime', message: '提醒时间须晚于现在' }]);
  const found = await activeUsers(edb, body.receiverIds);
  const missing = body.receiverIds.filter((id) => !found.some((u) => u.id === id));
  if (missing.length) throw new AppError('TaskTipReceiverNotFound', { detail: { userIds: missing } });
  const id = newId();
  await inTransaction(ctx, async (trx) => {
    await assertRecordExists(trx, form, body.objectId, { forUpdate: true });
    await insertTaskTip(trx, { id, schema_code: form.node.code, object_id: body.objectId, content: body.content, remind_time: remindTime, receiver_ids: body.receiverIds, created_by: ctx.userId });
    await setTaskTipTimer(trx, ctx.engineCode, id, remindTime);
  });
  return (await present(edb, ctx, form, [(await findTaskTip(edb, id))!]))[0];
}

export async function listTaskTips(ctx: NodeContext, body: { schemaCode: string; objectId: string; states?: string[] }): Promise<contracts.TaskTipListResult> {
  const edb = engineOf(ctx);
  const form = await getTaskTipFormOrThrow(edb, ctx, body.schemaCode);
  await assertRecordExists(edb, form, body.objectId);
  const list = await present(edb, ctx, form, await taskTipsOf(edb, form.node.code, body.objectId, body.states));
  return { list, total: list.length, hasMore: false };
}

/** The tip and its form, if the caller may change it: 270005 when unknown, 404 for a form they cannot open, 270006. */
async function changeableTaskTip(ctx: NodeContext, id: string): Promise<{ form: RuntimeForm; tip: TaskTipRow }> {
  const edb = engineOf(ctx);
  const tip = await findTaskTip(edb, id);
  if (!tip) throw new AppError('TaskTipNotFound', { detail: { id } });
  const form = await getTaskTipFormOrThrow(edb, ctx, tip.schema_code);
  assertCanChangeTaskTip(form, tip, ctx.userId);
  return { form, tip };
}

export async function cancelTaskTip(ctx: NodeContext, body: { id: string }): Promise<contracts.TaskTipDto> {
  const { form } = await changeableTaskTip(ctx, body.id);
  const edb = engineOf(ctx);
  // One statement: only a pending tip moves, so two cancels (or a cancel racing the scheduler) cannot both win.
  if (!(await setTaskTipState(edb, body.id, 'cancelled'))) {
    const now = await findTaskTip(edb, body.id);
    if (!now) throw new AppError('TaskTipNotFound', { detail: { id: body.id } });
    throw new AppError('TaskTipNotPending', { detail: { id: body.id, state: now.state } });
  }
  return (await present(edb, ctx, form, [(await findTaskTip(edb, body.id))!]))[0];
}

export async function removeTaskTip(ctx: NodeContext, body: { id: string }): Promise<{ removed: boolean }> {
  await changeableTaskTip(ctx, body.id);
  return { removed: await deleteTaskTip(engineOf(ctx), body.id) };
}
