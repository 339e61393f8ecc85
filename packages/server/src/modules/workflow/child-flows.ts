import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import type { Activity, TemplateIssue, WorkflowTemplate } from '@tritium/shared/workflow/index';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { FormCache } from '../business-data/record-rollups.ts';
import { findRecord } from '../business-data/records.repo.ts';
import { presentValues } from '../business-data/record.presenter.ts';
import { saveRecordIn } from '../business-data/record.service.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import { isOpen, type EngineState, type InstanceRec } from './workflow.core.ts';

// Child flows (子流程, docs/decisions/0024): a ChildInstance node makes a record of another workflow form from the
// parent record's values and starts its flow for the parent's originator. The parent waits on a child-instance item
// when the node says so; the child's end moves the parent on. Every instance is locked root first (a child's action
// locks its parent before itself), so a parent and its child never wait on each other.

type ChildActivity = Extract<Activity, { type: 'ChildInstance' }>;

/** The child's form: a published workflow form of this engine (any app), read as the system. */
async function childFormOf(forms: FormCache, activity: ChildActivity): Promise<RuntimeForm> {
  const form = activity.childSchemaCode ? await forms.get(activity.childSchemaCode) : null;
  if (!form || !form.isWorkflow) throw new AppError('WorkflowChildFormInvalid', { detail: { activityCode: activity.code, schemaCode: activity.childSchemaCode ?? null } });
  return form;
}

/** Design checks of the child flow nodes against the forms as published: the form, and each mapping's two fields. */
export async function childFlowIssues(edb: EngineExecutor, template: WorkflowTemplate, parent: RuntimeForm): Promise<TemplateIssue[]> {
  const issues: TemplateIssue[] = [];
  const forms = new FormCache(edb);
  for (const a of template.activities) {
    if (a.type !== 'ChildInstance' || !a.childSchemaCode) continue;
    const child = await forms.get(a.childSchemaCode);
    if (!child || !child.isWorkflow) {
      issues.push({ rule: 'childFormInvalid', message: `子流程 ${a.name} 的表单不存在或不是流程表单`, activity: a.code });
      continue;
    }
    if (child.node.code === parent.node.code) issues.push({ rule: 'childFormSelf', message: `子流程 ${a.name} 不能发起本表单的流程`, activity: a.code });
    const parentTypes = new Map(parent.fields.map((f) => [f.code, f.type.dataType]));
    const childTypes = new Map(child.fields.map((f) => [f.code, f.type.dataType]));
    for (const map of a.dataMaps) {
      const from = parentTypes.get(map.from);
      const to = childTypes.get(map.to);
      if (!from) issues.push({ rule: 'unknownField', message: `子流程 ${a.name} 的数据映射引用了本表单没有的字段 ${map.from}`, activity: a.code });
      else if (!to) issues.push({ rule: 'unknownField', message: `子流程 ${a.name} 的数据映射引用了子表单没有的字段 ${map.to}`, activity: a.code });
      else if (from !== to) issues.push({ rule: 'childMapType', message: `子流程 ${a.name} 的字段 ${map.from} 与 ${map.to} 类型不同，不能映射`, activity: a.code });
    }
  }
  return issues;
}

/** Makes the child record (Draft, the parent's originator its creator) from the parent record's mapped values. */
export async function createChildRecord(edb: EngineExecutor, ctx: NodeContext, parent: InstanceRec, activity: ChildActivity): Promise<{ form: RuntimeForm; objectId: string; originatorCtx: NodeContext }> {
  const forms = new FormCache(edb);
  const form = await childFormOf(forms, activity);
  const parentForm = await forms.require(parent.schemaCode);
  const row = await findRecord(edb, parentForm, parent.objectId);
  const values = row ? presentValues(parentForm.fields, row) : {};
  const mapped = Object.fromEntries(activity.dataMaps.filter((m) => values[m.from] !== undefined).map((m) => [m.to, values[m.from]]));
  const originatorCtx: NodeContext = { ...ctx, userId: parent.originator };
  const saved = await saveRecordIn(edb, originatorCtx, form, { submit: false, values: mapped }, { status: () => BizObjectStatus.Draft });
  return { form, objectId: saved.result.objectId, originatorCtx };
}

export function childActivity(template: WorkflowTemplate, code: string): ChildActivity {
  const a = template.activities.find((x) => x.code === code);
  if (!a || a.type !== 'ChildInstance') throw new AppError('WorkflowActivityInvalid', { detail: { activityCode: code } });
  return a;
}

/** The ChildInstance tokens whose waiting item this action closed without the child agreeing (cancel, finish, send-back, withdraw). */
export function stoppedChildTokens(before: EngineState | undefined, after: EngineState): string[] {
  if (!before) return [];
  const waiting = new Set(before.items.filter((i) => i.itemType === 'childInstance' && isOpen(i)).map((i) => i.id));
  return after.items.filter((i) => waiting.has(i.id) && !isOpen(i) && i.state !== 'Finished').map((i) => i.tokenId);
}

/** Running child instances started by these tokens. */
export async function runningChildren(edb: EngineExecutor, tokenIds: string[]): Promise<string[]> {
  if (!tokenIds.length) return [];
  const rows = await edb.selectFrom('wf_instances').select('id').where('parent_token_id', 'in', tokenIds).where('state', 'in', ['Starting', 'Running']).orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** The ancestors of an instance, root first (each read without a lock; the caller locks them in this order). */
export async function ancestorsOf(edb: EngineExecutor, instanceId: string): Promise<string[]> {
  const chain: string[] = [];
  let id: string | null = instanceId;
  for (let depth = 0; id && depth < 20; depth++) {
    const row: { parent_instance_id: string | null } | undefined = await edb.selectFrom('wf_instances').select('parent_instance_id').where('id', '=', id).executeTakeFirst();
    id = row?.parent_instance_id ?? null;
    if (id) chain.unshift(id);
  }
  return chain;
}
