import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { WorkflowTemplate, requiredAt } from '@tritium/shared/workflow/index';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { readRecordRow } from './record-status.ts';
import { act } from './workflow.service.ts';

// 快速审批 (rapid approval; docs/decisions/0019): agree several of my approval items at once without opening the form.
// Each item is its own action (its own transaction and instance lock), so one refusal never undoes the others; each
// answers on its own: already handled (280007), not mine (280006), a fill item (280070), a node whose required
// fields are still empty (280071).

type Out<T extends z.ZodType> = z.output<T>;
type Opinion = Out<typeof contracts.RapidApproveBody>['opinion'];

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

async function checkRapid(ctx: NodeContext, workItemId: string): Promise<void> {
  const edb = engineOf(ctx);
  const item = await edb
    .selectFrom('wf_work_items as w')
    .innerJoin('wf_instances as i', 'i.id', 'w.instance_id')
    .select(['w.item_type', 'w.activity_code', 'i.schema_code', 'i.object_id', 'i.template_version'])
    .where('w.id', '=', workItemId)
    .where('w.participant', '=', ctx.userId)
    .executeTakeFirst();
  if (!item) throw new AppError('WorkflowItemNotFound', { detail: { workItemId } });
  if (item.item_type !== 'approve') throw new AppError('RapidApproveNotApprove', { detail: { workItemId, itemType: item.item_type } });
  const template = await edb.selectFrom('wf_templates').select('definition').where('schema_code', '=', item.schema_code).where('version', '=', item.template_version).executeTakeFirstOrThrow();
  const activity = WorkflowTemplate.parse(template.definition).activities.find((a) => a.code === item.activity_code);
  const required = requiredAt(activity);
  if (!required.length) return;
  const values = (await readRecordRow(edb, item.schema_code, item.object_id)) ?? {};
  const empty = required.filter((code) => isEmpty(values[code]));
  if (empty.length) throw new AppError('RapidApproveNeedsForm', { detail: { workItemId, fields: empty } });
}

/** Agrees every named item in order; answers each item's outcome. */
export async function rapidApprove(ctx: NodeContext, body: { workItemIds: string[]; opinion?: Opinion }): Promise<Out<typeof contracts.RapidApproveResult>> {
  const results: Out<typeof contracts.RapidApproveResult>['results'] = [];
  for (const workItemId of body.workItemIds) {
    try {
      await checkRapid(ctx, workItemId);
      await act(ctx, { itemId: workItemId }, { type: 'submit', itemId: workItemId, opinion: body.opinion ?? { text: '同意' } });
      results.push({ workItemId, successful: true, errorCode: null, errorMessage: null });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      results.push({ workItemId, successful: false, errorCode: e.code, errorMessage: e.message });
    }
  }
  const successCount = results.filter((r) => r.successful).length;
  return { results, successCount, failCount: results.length - successCount };
}
