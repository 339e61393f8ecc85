import type { contracts } from '@tritium/shared';
import { WorkflowTemplate, validateTemplate, type TemplateIssue } from '@tritium/shared/workflow/index';
import { dependenciesOf, parseFormula } from '@tritium/shared/formula/index';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import { SYSTEM_COLUMNS } from '../business-data/records.repo.ts';
import type { InstanceRec } from './workflow.core.ts';
import { childFlowIssues } from './child-flows.ts';
import { participantNotices } from './participant-notices.ts';
import { inTransaction, type Out } from './workflow.tx.ts';
import { recordOperation } from '../audit/oplog.ts';

// Workflow templates per workflow form (docs/decisions/0014): save, publish and load, and the latest published one
// an instance runs on. Moved out of workflow.service.ts (which answers these names still) to keep files small.

export async function adminFormOrThrow(edb: EngineExecutor, ctx: NodeContext, schemaCode: string): Promise<RuntimeForm> {
  const form = await getRuntimeFormOrThrow(edb, ctx, schemaCode);
  if (!form.isWorkflow) throw new AppError('WorkflowFormNotWorkflow', { detail: { schemaCode } });
  if (!form.isAppAdmin) throw new AppError('WorkflowActionNotPermitted', { detail: { action: 'design' } });
  return form;
}

/** Issues of the model plus references to fields the published form does not have. */
function issuesOf(template: WorkflowTemplate, form: RuntimeForm): TemplateIssue[] {
  const issues = validateTemplate(template);
  const fields = new Set<string>([...form.fields.map((f) => f.code), ...SYSTEM_COLUMNS]);
  for (const r of template.routes) {
    for (const rule of r.condition?.rules ?? []) {
      if (!fields.has(rule.field)) issues.push({ rule: 'unknownField', message: `条件引用的字段 ${rule.field} 不在表单中`, activity: r.from });
    }
    if (!r.formula) continue;
    const parsed = parseFormula(r.formula);
    if (!parsed.ast) issues.push({ rule: 'formulaInvalid', message: `条件公式有误：${parsed.errors[0]?.message ?? ''}`, activity: r.from });
    for (const code of parsed.ast ? dependenciesOf(parsed.ast) : []) {
      if (!fields.has(code)) issues.push({ rule: 'unknownField', message: `条件公式引用的字段 ${code} 不在表单主表中`, activity: r.from });
    }
  }
  for (const a of template.activities) {
    if (!('participants' in a)) continue;
    for (const s of a.participants.sources) {
      if (s.type === 'field' && !fields.has(s.code)) issues.push({ rule: 'unknownField', message: `参与者引用的字段 ${s.code} 不在表单中`, activity: a.code });
    }
  }
  return issues;
}

/** What the operation log keeps of a template: its nodes by name and how many routes join them. */
const outline = (template: { activities: { code: string; name: string; type: string }[]; routes: unknown[] }) => ({
  activities: template.activities.map((a) => ({ code: a.code, name: a.name, type: a.type })),
  routes: template.routes.length,
});

export async function saveTemplate(ctx: NodeContext, body: Out<typeof contracts.WfTemplateSaveBody>): Promise<Out<typeof contracts.WfTemplateSaveResult>> {
  return inTransaction(ctx, async (edb) => {
    const form = await adminFormOrThrow(edb, ctx, body.schemaCode);
    const definition = JSON.stringify(body.template);
    await edb
      .insertInto('wf_template_drafts')
      .values({ schema_code: form.node.code, definition, saved_by: ctx.userId, saved_time: new Date() })
      .onConflict((oc) => oc.column('schema_code').doUpdateSet({ definition, saved_by: ctx.userId, saved_time: new Date() }))
      .execute();
    await recordOperation(edb, ctx, { kind: 'workflow', action: 'update', objectId: form.node.code, objectName: form.node.display_name, after: { draft: outline(body.template) } });
    return { schemaCode: form.node.code, issues: [...issuesOf(body.template, form), ...(await childFlowIssues(edb, body.template, form))] };
  });
}

export async function publishTemplate(ctx: NodeContext, body: Out<typeof contracts.WfTemplatePublishBody>): Promise<Out<typeof contracts.WfTemplatePublishResult>> {
  return inTransaction(ctx, async (edb) => {
    const form = await adminFormOrThrow(edb, ctx, body.schemaCode);
    const draft = await edb.selectFrom('wf_template_drafts').select('definition').where('schema_code', '=', form.node.code).forUpdate().executeTakeFirst();
    if (!draft) throw new AppError('WorkflowTemplateInvalid', { detail: { issues: [{ rule: 'noDraft', message: '请先保存流程设计' }] } });
    const template = WorkflowTemplate.parse(draft.definition);
    const issues = [...issuesOf(template, form), ...(await childFlowIssues(edb, template, form))];
    if (issues.length) throw new AppError('WorkflowTemplateInvalid', { detail: { issues } });
    const last = await edb.selectFrom('wf_templates').select((eb) => eb.fn.max('version').as('v')).where('schema_code', '=', form.node.code).executeTakeFirst();
    const version = Number(last?.v ?? 0) + 1;
    await edb.insertInto('wf_templates').values({ schema_code: form.node.code, version, definition: JSON.stringify(template), published_by: ctx.userId }).execute();
    await recordOperation(edb, ctx, { kind: 'workflow', action: 'publish', objectId: form.node.code, objectName: form.node.display_name, before: { version: version - 1 }, after: { version, ...outline(template) } });
    return { schemaCode: form.node.code, version, notices: await participantNotices(edb, template, form.node.code) };
  });
}

export async function loadTemplate(ctx: NodeContext, schemaCode: string): Promise<Out<typeof contracts.WfTemplateLoadResult>> {
  const edb = engineOf(ctx);
  const form = await adminFormOrThrow(edb, ctx, schemaCode);
  const draft = await edb.selectFrom('wf_template_drafts').select('definition').where('schema_code', '=', form.node.code).executeTakeFirst();
  const published = await latestTemplate(edb, form.node.code);
  return { schemaCode: form.node.code, draft: draft?.definition ?? null, publishedVersion: published?.version ?? null, published: published?.template ?? null };
}

export async function latestTemplate(edb: EngineExecutor, schemaCode: string): Promise<{ version: number; template: WorkflowTemplate } | undefined> {
  const row = await edb.selectFrom('wf_templates').select(['version', 'definition']).where('schema_code', '=', schemaCode).orderBy('version', 'desc').limit(1).executeTakeFirst();
  return row ? { version: row.version, template: WorkflowTemplate.parse(row.definition) } : undefined;
}

const parsed = new Map<string, WorkflowTemplate>();

/**
 * A published definition, parsed once per process: a published version never changes, and the cache is keyed by the
 * definition's text itself, so a form re-created under the same code cannot meet another's template.
 */
export function templateFromText(definition: string): WorkflowTemplate {
  let template = parsed.get(definition);
  if (!template) {
    template = WorkflowTemplate.parse(JSON.parse(definition));
    if (parsed.size >= 256) parsed.clear();
    parsed.set(definition, template);
  }
  return template;
}

export async function templateOf(edb: EngineExecutor, instance: InstanceRec): Promise<WorkflowTemplate> {
  const row = await edb.selectFrom('wf_templates').select('definition').where('schema_code', '=', instance.schemaCode).where('version', '=', instance.version).executeTakeFirstOrThrow();
  return WorkflowTemplate.parse(row.definition);
}
