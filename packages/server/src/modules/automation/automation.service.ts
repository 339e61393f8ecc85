import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { AUTOMATIONS_MAX, type Automation } from '@tritium/shared/automation/index';
import type { contracts } from '@tritium/shared';
import { UserAuthType } from '@tritium/shared/constants/org';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { engineOf, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { getFormNodeOrThrow } from '../form-design/form-access.ts';
import { FormCache } from '../business-data/record-rollups.ts';
import { openSecrets, sealSecrets } from '../notification/channels/secret-box.ts';
import { getConnectorRowOrThrow } from '../connectors/connectors.service.ts';
import { requireInstalledPlugin } from '../plugin-instances/plugin-instances.ts';
import { pluginStepDefinition } from './plugin-steps.ts';
import { conditionIssues } from './automation-events.ts';
import { countAutomations, definitionJson, findAutomation, listAutomationRows, storedOf, type StoredAutomation } from './automation.repo.ts';
import { nextRunTimes, scheduleAutomation } from './automation-schedules.ts';
import { executeSteps, type AutomationRunSettings } from './automation-runner.ts';
import { recordOperation } from '../audit/oplog.ts';
import { INBOUND_PATH } from '@tritium/shared/contracts/connector-ends/index';

// The automation designer's calls (docs/decisions/0041): like business rules, an automation belongs to its form's app
// and needs that app administered to be listed, saved, switched, tested or read in the log.

export const WEBHOOK_PATH = '/v1/automatic/webhook';

export async function designedForm(ctx: NodeContext, schemaCode: string) {
  const edb = engineOf(ctx);
  const node = await getFormNodeOrThrow(edb, await viewerOf(edb, ctx), schemaCode, 'administer');
  return { edb, node };
}

const tokenOf = (stored: { webhookToken: string | null }) => (stored.webhookToken ? (openSecrets(stored.webhookToken)?.token ?? null) : null);

function dtoOf(engineCode: string, s: StoredAutomation, ownerName: string, next: Date | undefined): contracts.AutomationDto {
  const token = s.model.trigger.type === 'webhook' ? tokenOf(s) : null;
  return {
    id: s.id,
    schemaCode: s.schemaCode,
    name: s.model.name,
    enabled: s.enabled,
    trigger: s.model.trigger,
    condition: s.model.condition,
    steps: s.model.steps,
    runAs: s.runAs,
    ownerId: s.owner,
    ownerName,
    // The connector trigger's URL carries no secret: deliveries are signed with it (connector-trigger.ts).
    webhookUrl: token ? `${WEBHOOK_PATH}/${encodeURIComponent(engineCode)}/${s.id}?token=${token}` : s.model.trigger.type === 'connector' ? `${INBOUND_PATH}/${encodeURIComponent(engineCode)}/${s.id}` : null,
    nextRunTime: next?.toISOString() ?? null,
    modifiedTime: new Date(s.modifiedTime).toISOString(),
  };
}

async function present(ctx: NodeContext, edb: EngineExecutor, list: StoredAutomation[]): Promise<contracts.AutomationDto[]> {
  const owners = [...new Set(list.map((a) => a.owner))];
  const names = new Map(owners.length ? (await edb.selectFrom('org_users').select(['id', 'name']).where('id', 'in', owners).execute()).map((u) => [u.id, u.name]) : []);
  const next = await nextRunTimes(ctx.db, ctx.engineCode, list.map((a) => a.id));
  return list.map((a) => dtoOf(ctx.engineCode, a, names.get(a.owner) ?? '', next.get(a.id)));
}

export async function listAutomations(ctx: NodeContext, schemaCode: string): Promise<contracts.AutomationListResult> {
  const { edb, node } = await designedForm(ctx, schemaCode);
  return { automations: await present(ctx, edb, (await listAutomationRows(edb, node.code)).map(storedOf)) };
}

const invalid = (reason: string, reasonEn: string) => new AppError('AutomationInvalid', { detail: { reason, reasonEn } });

/** What the form and the engine say about a model the contract already shaped: fields, target forms, plugins. */
async function check(edb: EngineExecutor, schemaCode: string, model: Automation): Promise<void> {
  const forms = new FormCache(edb);
  const form = await forms.require(schemaCode);
  const codes = new Set([...form.fields.map((f) => f.code), ...form.grids.map((g) => g.code)]);
  const trigger = model.trigger;
  // Signed deliveries from outside systems (docs/decisions/0123): offered while the connector plugin is installed.
  if (trigger.type === 'connector') await requireInstalledPlugin(edb, 'connector');
  if (trigger.type === 'changing' && !codes.has(trigger.field)) throw invalid(`字段“${trigger.field}”不存在`, `field ${trigger.field} does not exist`);
  if (trigger.type === 'date' && !form.fields.some((f) => f.code === trigger.field && f.sqlType === 'timestamptz')) throw invalid('请选择日期字段', 'choose a date field');
  conditionIssues(edb, form, model.condition);
  for (const step of model.steps) {
    if (step.type === 'attendance' || step.type === 'payment') {
      // A plugin's step (docs/decisions/0123): the plugin installed, then the step's own check of its settings.
      const definition = pluginStepDefinition(step.type);
      if (!definition) throw new AppError('AutomationPluginMissing', { detail: { action: step.type } });
      await requireInstalledPlugin(edb, definition.templates);
      await definition.check(edb, form, step.settings);
    }
    if ('targetSchemaCode' in step) await forms.require(step.targetSchemaCode);
    const loop = 'forEach' in step ? step.forEach : null;
    if (loop?.type === 'subtable' && trigger.type !== 'webhook' && !form.grids.some((g) => g.code === loop.code)) throw invalid(`子表“${loop.code}”不存在`, `sub-table ${loop.code} does not exist`);
    if (step.type === 'http') for (const m of step.responseMappings) if (!codes.has(m.field)) throw invalid(`字段“${m.field}”不存在`, `field ${m.field} does not exist`);
    if (step.type === 'connector') {
      // The connector must exist (420005 names it); outputs are written only to the form's own fields.
      await requireInstalledPlugin(edb, 'connector');
      const connector = await getConnectorRowOrThrow(edb, step.connectorCode);
      const outputs = new Set(connector.outputs.map((o) => o.name));
      for (const m of step.outputMappings) {
        if (!form.fields.some((f) => f.code === m.field)) throw invalid(`字段“${m.field}”不存在`, `field ${m.field} does not exist`);
        if (!outputs.has(m.output)) throw invalid(`连接器“${connector.name}”没有输出“${m.output}”`, `the connector ${connector.code} has no output ${m.output}`);
      }
    }
  }
}

export async function saveAutomation(ctx: NodeContext, body: { schemaCode: string; automation: Automation }, now = new Date()): Promise<{ automation: contracts.AutomationDto }> {
  const { node } = await designedForm(ctx, body.schemaCode);
  const model = body.automation;
  const saved = await ctx.db.transaction().execute(async (trx) => {
    const edb = engineDb(trx, ctx.engineCode);
    await check(edb, node.code, model);
    const existing = model.id ? await findAutomation(edb, model.id, { forUpdate: true }) : undefined;
    if (model.id && (!existing || existing.schemaCode !== node.code)) throw new AppError('AutomationNotFound');
    // Running as the system passes every permission: only an engine administrator sets it up or changes such a one
    // (an app's administrator would otherwise reach other apps' data through it).
    if ((model.runAs === 'system' || existing?.runAs === 'system') && ctx.authType !== UserAuthType.Administrator) throw new AppError('AutomationSystemAdminOnly');
    // The webhook's token, or the connector trigger's signing secret: kept while the trigger type stays.
    const keeps = model.trigger.type === 'webhook' || model.trigger.type === 'connector';
    const token = keeps ? (existing?.model.trigger.type === model.trigger.type && tokenOf(existing)) || randomBytes(24).toString('hex') : null;
    const values = {
      name: model.name,
      enabled: model.enabled,
      trigger_type: model.trigger.type,
      definition: definitionJson(model),
      run_as: model.runAs,
      webhook_token: token ? sealSecrets({ token }) : null,
      modified_time: new Date(),
    };
    const id = existing?.id ?? newId();
    if (existing) await edb.updateTable('automations').set(values).where('id', '=', id).execute();
    else {
      // One statement that counts and inserts would still race; the form's automations are few, the lock is short.
      await sql`select pg_advisory_xact_lock(hashtext(${`automations:${node.code}`}))`.execute(edb);
      if ((await countAutomations(edb, node.code)) >= AUTOMATIONS_MAX) throw new AppError('AutomationLimit', { detail: { max: AUTOMATIONS_MAX } });
      await edb.insertInto('automations').values({ id, schema_code: node.code, owner: ctx.userId, ...values }).execute();
    }
    const stored = (await findAutomation(edb, id))!;
    await scheduleAutomation(trx as never, ctx.engineCode, stored, now);
    const logged = (a: StoredAutomation) => ({ enabled: a.enabled, runAs: a.runAs, model: a.model });
    await recordOperation(edb, ctx, { kind: 'automation', action: existing ? 'update' : 'create', objectId: id, objectName: model.name, before: existing ? logged(existing) : null, after: logged(stored) });
    return stored;
  });
  const [dto] = await present(ctx, engineOf(ctx), [saved]);
  return { automation: dto! };
}

/**
 * The automation of a form the caller designs (404 otherwise). `empowering`: the call gives it power (switching it on,
 * a new webhook secret) — one that runs as the system needs an engine administrator for that (360011).
 */
export async function designedAutomation(ctx: NodeContext, id: string, empowering = false): Promise<{ edb: EngineExecutor; automation: StoredAutomation }> {
  const edb = engineOf(ctx);
  const automation = await findAutomation(edb, id);
  if (!automation) throw new AppError('AutomationNotFound');
  await designedForm(ctx, automation.schemaCode);
  if (empowering && automation.runAs === 'system' && ctx.authType !== UserAuthType.Administrator) throw new AppError('AutomationSystemAdminOnly');
  return { edb, automation };
}

export async function switchAutomation(ctx: NodeContext, id: string, enabled: boolean, now = new Date()): Promise<{ automation: contracts.AutomationDto }> {
  const { edb } = await designedAutomation(ctx, id, enabled);
  await edb.updateTable('automations').set({ enabled, modified_time: new Date() }).where('id', '=', id).execute();
  const stored = (await findAutomation(edb, id))!;
  await scheduleAutomation(ctx.db, ctx.engineCode, stored, now);
  const [dto] = await present(ctx, edb, [stored]);
  return { automation: dto! };
}

export async function deleteAutomation(ctx: NodeContext, id: string): Promise<void> {
  const { edb } = await designedAutomation(ctx, id);
  await edb.deleteFrom('automations').where('id', '=', id).execute();
  await ctx.db.deleteFrom('platform.automation_schedules').where('engine_code', '=', ctx.engineCode).where('automation_id', '=', id).execute();
}

/** A new webhook secret: the old URL stops working. */
export async function resetWebhookSecret(ctx: NodeContext, id: string): Promise<{ automation: contracts.AutomationDto }> {
  const { edb, automation } = await designedAutomation(ctx, id, true);
  if (automation.model.trigger.type !== 'webhook') throw invalid('只有Webhook触发的自动化有调用凭证', 'only webhook automations have a token');
  await edb.updateTable('automations').set({ webhook_token: sealSecrets({ token: randomBytes(24).toString('hex') }) }).where('id', '=', id).execute();
  const [dto] = await present(ctx, edb, [(await findAutomation(edb, id))!]);
  return { automation: dto! };
}

/** The webhook's automation when the token is its own (timing-safe); 401 otherwise, whatever is wrong. */
export async function webhookAutomation(db: NodeContext['db'], engineCode: string, id: string, token: string): Promise<StoredAutomation> {
  const exists = await db.selectFrom('platform.engines').select('engine_code').where('engine_code', '=', engineCode).executeTakeFirst();
  const automation = exists ? await findAutomation(engineDb(db, engineCode), id) : undefined;
  const expected = automation && automation.model.trigger.type === 'webhook' ? tokenOf(automation) : null;
  const given = Buffer.from(token);
  if (!automation || !expected || given.length !== Buffer.from(expected).length || !timingSafeEqual(given, Buffer.from(expected))) throw new AppError('AutomationWebhookToken');
  if (!automation.enabled) throw new AppError('AutomationDisabled');
  return automation;
}

/** Runs an unsaved automation against a record in a transaction that is rolled back: what each step would do. */
export async function testRun(ctx: NodeContext, body: { schemaCode: string; automation: Automation; objectId?: string }, settings: AutomationRunSettings): Promise<contracts.AutomationTestRunResult> {
  const { node } = await designedForm(ctx, body.schemaCode);
  await check(engineOf(ctx), node.code, body.automation);
  const logs: contracts.AutomationStepLog[] = [];
  try {
    const { matched } = await executeSteps(
      {
        db: ctx.db,
        engineCode: ctx.engineCode,
        automation: body.automation,
        owner: ctx.userId,
        schemaCode: node.code,
        objectId: body.objectId ?? null,
        inputs: {},
        chain: [],
        dryRun: true,
        checkCondition: true,
        settings,
      },
      logs,
    );
    return { matched, steps: logs, error: null };
  } catch (error) {
    if (error instanceof AppError && error.errorName === 'BizObjectNotFound') throw error;
    return { matched: true, steps: logs, error: error instanceof Error ? error.message : String(error) };
  }
}
