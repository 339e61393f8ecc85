import { sql } from 'kysely';
import type { contracts } from '@tritium/shared';
import { UserAuthType } from '@tritium/shared/constants/org';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { enqueueJob } from '../../jobs/job-runner.ts';
import { engineDb } from '../../db/database.ts';
import { engineOf, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { getRuntimeFormOrThrow } from '../business-data/runtime-form.ts';
import { readableIds } from '../business-data/record-policy.ts';
import { AUTOMATION_RUN_JOB, enqueueRuns } from './automation-events.ts';
import { findAutomation, listAutomationRows, storedOf, type StoredAutomation } from './automation.repo.ts';
import { designedAutomation, designedForm, webhookAutomation } from './automation.service.ts';

// Runs: the log, a retry, the runs people start (buttons, custom triggers, smart actions) and the webhook's
// (docs/decisions/0041).

type Row = Record<string, unknown>;

const dtoOf = (r: Row): contracts.AutomationRunDto => ({
  runId: String(r.id),
  automationId: String(r.automation_id),
  automationName: String(r.name ?? ''),
  triggerType: String(r.trigger_type),
  objectId: (r.object_id as string | null) ?? null,
  state: r.state as contracts.AutomationRunDto['state'],
  attempts: Number(r.attempts),
  depth: (r.chain as unknown[]).length,
  inputs: r.inputs,
  steps: (r.steps as contracts.AutomationStepLog[]) ?? [],
  error: (r.error as string | null) ?? null,
  durationMs: (r.duration_ms as number | null) ?? null,
  createdTime: new Date(r.created_time as Date).toISOString(),
  finishedTime: r.finished_time ? new Date(r.finished_time as Date).toISOString() : null,
});

export async function runLogs(ctx: NodeContext, body: contracts.AutomationLogsBody & { pageIndex: number; pageSize: number }): Promise<contracts.AutomationLogsResult> {
  const { edb, node } = await designedForm(ctx, body.schemaCode);
  let q = edb.selectFrom('automation_runs as r').innerJoin('automations as a', 'a.id', 'r.automation_id').where('r.schema_code', '=', node.code);
  if (body.automationId) q = q.where('r.automation_id', '=', body.automationId as never);
  if (body.state) q = q.where('r.state', '=', body.state);
  if (body.keyword) {
    const like = `%${body.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => eb.or([eb('r.object_id', 'ilike', like), eb('r.error', 'ilike', like), eb(sql`r.steps::text`, 'ilike', like), eb(sql`r.inputs::text`, 'ilike', like)]));
  }
  const rows = await q
    .select(['r.id', 'r.automation_id', 'a.name', 'r.trigger_type', 'r.object_id', 'r.state', 'r.attempts', 'r.chain', 'r.inputs', 'r.steps', 'r.error', 'r.duration_ms', 'r.created_time', 'r.finished_time', sql<number>`count(*) over ()::int`.as('total')])
    .orderBy('r.created_time', 'desc')
    .orderBy('r.id', 'desc')
    .limit(body.pageSize)
    .offset(body.pageIndex * body.pageSize)
    .execute();
  const total = rows.length ? Number(rows[0]!.total) : body.pageIndex === 0 ? 0 : Number((await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n);
  return { total, runs: rows.map((r) => dtoOf(r as Row)) };
}

/** A Failed run goes back to Waiting with a new job: the same event, a new attempt. */
export async function retryRun(ctx: NodeContext, runId: string): Promise<{ runId: string }> {
  const edb = engineOf(ctx);
  const run = /^[0-9a-f-]{36}$/i.test(runId) ? await edb.selectFrom('automation_runs').select(['id', 'automation_id', 'state']).where('id', '=', runId).executeTakeFirst() : undefined;
  if (!run) throw new AppError('AutomationRunNotFound');
  await designedAutomation(ctx, run.automation_id);
  await ctx.db.transaction().execute(async (trx) => {
    const r = await engineDb(trx, ctx.engineCode).updateTable('automation_runs').set({ state: 'Waiting', error: null, finished_time: null }).where('id', '=', runId).where('state', '=', 'Failed').executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new AppError('AutomationRunNotRetryable');
    await enqueueJob(trx, { engineCode: ctx.engineCode, kind: AUTOMATION_RUN_JOB, payload: { runId }, createdBy: ctx.userId });
  });
  return { runId };
}

/** Whether the caller holds one of the button's roles (none named: everyone who may view the form). */
async function mayPress(ctx: NodeContext, automation: StoredAutomation): Promise<boolean> {
  const trigger = automation.model.trigger;
  if (trigger.type !== 'button') return false;
  if (!trigger.roleIds.length) return true;
  const viewer = await viewerOf(engineOf(ctx), ctx);
  return ctx.authType === UserAuthType.Administrator || viewer.unitIds.some((id) => trigger.roleIds.includes(id));
}

/**
 * Queues a button's or custom automation's runs for records the caller can read (POST /v1/bizdata/action/automation,
 * /v1/smartaction/run). A button checks its roles; a custom trigger needs the form administered.
 */
export async function startRuns(ctx: NodeContext, body: { schemaCode: string; automationId: string; objectIds: string[] }): Promise<{ runIds: string[] }> {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  const automation = await findAutomation(edb, body.automationId);
  if (!automation || automation.schemaCode !== form.node.code) throw new AppError('AutomationNotFound');
  const type = automation.model.trigger.type;
  if (type !== 'button' && type !== 'custom') throw new AppError('AutomationNotRunnable');
  if (type === 'custom') await designedForm(ctx, form.node.code);
  else if (!(await mayPress(ctx, automation))) throw new AppError('SmartActionForbidden');
  if (!automation.enabled) throw new AppError('AutomationDisabled');
  const readable = body.objectIds.length ? await readableIds(edb, form, body.objectIds, ctx.userId) : new Set<string>();
  const missing = body.objectIds.find((id) => !readable.has(id));
  if (missing) throw new AppError('BizObjectNotFound', { detail: { objectId: missing } });
  const targets: (string | null)[] = body.objectIds.length ? body.objectIds : [null];
  const runIds = await ctx.db.transaction().execute((trx) =>
    enqueueRuns(
      engineDb(trx, ctx.engineCode),
      ctx.engineCode,
      targets.map((objectId) => ({ automationId: automation.id, schemaCode: form.node.code, triggerType: type, objectId, eventKey: `${type}:${objectId ?? '-'}:${newId()}`, inputs: { event: type, by: ctx.userId }, createdBy: ctx.userId })),
      [],
    ),
  );
  return { runIds };
}

/** The buttons of a form the caller may press at a location. */
export async function smartActions(ctx: NodeContext, body: { schemaCode: string; location: 'form' | 'list' }): Promise<contracts.SmartActionListResult> {
  const edb = engineOf(ctx);
  const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
  const actions: contracts.SmartActionDto[] = [];
  for (const automation of (await listAutomationRows(edb, form.node.code)).filter((r) => r.enabled && r.trigger_type === 'button').map(storedOf)) {
    const t = automation.model.trigger;
    if (t.type !== 'button' || !t.locations.includes(body.location) || !(await mayPress(ctx, automation))) continue;
    actions.push({ actionCode: automation.id, label: t.label, roleIds: t.roleIds, locations: t.locations, confirmText: t.confirmText, resultMessage: t.resultMessage });
  }
  return { actions };
}

/** A webhook call: its JSON body is the run's input (the steps read its top-level keys). */
export async function webhookRun(db: NodeContext['db'], engineCode: string, id: string, token: string, body: unknown): Promise<{ runId: string }> {
  const automation = await webhookAutomation(db, engineCode, id, token);
  const values = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : { body };
  const [runId] = await db.transaction().execute((trx) =>
    enqueueRuns(engineDb(trx, engineCode), engineCode, [{ automationId: automation.id, schemaCode: automation.schemaCode, triggerType: 'webhook', objectId: null, eventKey: `webhook:${newId()}`, inputs: { event: 'webhook', body: values } }], []),
  );
  return { runId: runId! };
}

/** The caller's background tasks (GET /v1/toolkit/asynctask/list, /get). */
export async function asyncTasks(ctx: NodeContext, page: { pageIndex: number; pageSize: number }, taskId?: string) {
  let q = ctx.db.selectFrom('platform.jobs').where('engine_code', '=', ctx.engineCode).where('created_by', '=', ctx.userId);
  if (taskId) q = q.where('id', '=', taskId);
  const rows = await q
    .select(['id', 'kind', 'state', 'progress', 'message', 'created_time', 'finished_time', sql<number>`count(*) over ()::int`.as('total')])
    .orderBy('created_time', 'desc')
    .limit(page.pageSize)
    .offset(page.pageIndex * page.pageSize)
    .execute();
  const tasks = rows.map((r) => ({
    taskId: r.id,
    kind: r.kind,
    state: r.state,
    progress: r.progress,
    message: r.message,
    createdTime: new Date(r.created_time).toISOString(),
    finishedTime: r.finished_time ? new Date(r.finished_time).toISOString() : null,
  }));
  return { total: rows.length ? Number(rows[0]!.total) : 0, tasks };
}
