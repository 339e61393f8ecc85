import { sql } from 'kysely';
import { AUTOMATION_CHAIN_MAX_DEPTH, AUTOMATION_MAX_ATTEMPTS, isDataEventTrigger, type Automation, type AutomationRunState } from '@tritium/shared/automation/index';
import { UserAuthType } from '@tritium/shared/constants/org';
import type { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb, engineSchemaName } from '../../db/database.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { AppError } from '../../lib/app-error.ts';
import { RUN_ALONE, type JobContext, type JobHandler } from '../../jobs/job-registry.ts';
import { enqueueJob } from '../../jobs/job-runner.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { findRecord, findRecordsByIds, type RecordRow } from '../business-data/records.repo.ts';
import { childrenOfRecord, FormCache } from '../business-data/record-rollups.ts';
import { getRuntimeFormOrThrow, type RuntimeForm } from '../business-data/runtime-form.ts';
import { memberUnits, readUserContext, version, type UserPart } from '../request-context/context-statement.ts';
import type { ContextCaches, ContextSnapshot } from '../request-context/context.ts';
import { ruleRecordOf, runOf, type RuleRecord } from '../business-rules/rule-runner.ts';
import { AUTOMATION_RUN_JOB, meetingCondition, setChain } from './automation-events.ts';
import { storedOf, type AutomationRow, type StoredAutomation } from './automation.repo.ts';
import { RetryableStepError, runStep, type OutsideChannels, type StepRun } from './automation-steps.ts';

// A run of an automation, as a job (docs/decisions/0041). The run row is claimed Waiting → Running in the transaction
// its steps run in, and marked Succeeded in that same transaction, so a run's writes and its outcome commit
// together. A failure rolls the writes back and is logged with each step's output; a retryable one (an outside
// service's 5xx, the network, the database away) runs again after a pause, up to AUTOMATION_MAX_ATTEMPTS.

type Row = Record<string, unknown>;
type StepLog = contracts.AutomationStepLog;

export interface AutomationRunSettings {
  deliveries: OutsideChannels;
  /** The app's request-context caches: runs read forms, nodes and grants through them (docs/decisions/0032). */
  caches?: ContextCaches;
  fetch?: typeof fetch;
  /** The pause before attempt n+1 (default 60 s × 4^(n-1)). */
  backoffMs?(attempt: number): number;
}

interface RunRow {
  id: string;
  automation_id: string;
  schema_code: string;
  trigger_type: string;
  object_id: string | null;
  state: string;
  attempts: number;
  chain: string[];
  inputs: unknown;
}

/** Thrown to roll a test run's transaction back once its steps have shown what they would do. */
class TestRunRollback extends Error {}

/** Another worker claimed the run first (a second job of the same run). */
class RunTakenElsewhere extends Error {}

/** The trigger's record was removed before its run started (and no snapshot was kept): the run is skipped. */
export class TriggerRecordGone extends AppError {
  constructor(objectId: string | null) {
    super('BizObjectNotFound', { message: '触发的数据在运行前已被删除', detail: { objectId } });
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

/**
 * The person a run acts as: the owner with their rights, or (run as system) the owner's name with an administrator's
 * rights. With the app's caches it carries a context snapshot (one statement), so forms, nodes and grants come from
 * the caches outside the run's transaction.
 */
async function actorFor(db: Db, engineCode: string, owner: string, system: boolean, caches: ContextCaches | undefined, known?: UserPart): Promise<NodeContext> {
  const read = known ?? (await readUserContext(db, engineCode, owner));
  const user = read === 'no-engine' ? undefined : read.user;
  if (!system && (!user || user.state !== 'active')) throw new AppError('AutomationInvalid', { message: '自动化的负责人已不存在或已停用', detail: { reason: 'owner', reasonEn: 'owner' } });
  const authType = system ? UserAuthType.Administrator : user!.authType;
  const context: ContextSnapshot | undefined =
    caches && read !== 'no-engine' ? { engineCode, userId: owner, authType, roleIds: user?.roleIds ?? [], nodesVersion: read.nodesVersion, formsVersion: read.formsVersion, caches } : undefined;
  return { db, engineCode, userId: owner, authType, ...(context ? { context } : {}) };
}

type WaitingRun = { run: RunRow; automation: StoredAutomation | undefined; owner: UserPart };

/**
 * Waiting runs with their automations and their owners' standing (auth type, state, roles and departments, the
 * engine's cache versions) — one statement for what runs need before they start.
 */
async function readWaitingRuns(db: Db, engineCode: string, runIds: readonly string[]): Promise<Map<string, WaitingRun>> {
  const schema = engineSchemaName(engineCode);
  const { rows } = await sql<Record<string, any>>`
    select r.id, r.automation_id, r.schema_code, r.trigger_type, r.object_id, r.state, r.attempts, r.chain, r.inputs,
      to_jsonb(a) as automation, u.id as user_id, u.auth_type, u.state as user_state,
      case when u.id is null then null else ${memberUnits(schema)} end as role_ids,
      ${version(engineCode, 'nodes')} as nodes_version, ${version(engineCode, 'forms')} as forms_version
    from ${sql.table(`${schema}.automation_runs`)} r
    left join ${sql.table(`${schema}.automations`)} a on a.id = r.automation_id
    left join ${sql.table(`${schema}.org_users`)} u on u.id = a.owner
    where r.id in (${sql.join(runIds)}) and r.state = 'Waiting'`.execute(db);
  return new Map(
    rows.map((r) => {
      const a = r.automation as (AutomationRow & { modified_time: string }) | null;
      const read: WaitingRun = {
        run: { id: r.id, automation_id: r.automation_id, schema_code: r.schema_code, trigger_type: r.trigger_type, object_id: r.object_id, state: r.state, attempts: r.attempts, chain: r.chain, inputs: r.inputs },
        automation: a ? storedOf({ ...a, modified_time: new Date(a.modified_time) }) : undefined,
        owner: { user: r.user_id ? { authType: r.auth_type, state: r.user_state, roleIds: r.role_ids ?? [] } : undefined, nodesVersion: Number(r.nodes_version), formsVersion: Number(r.forms_version) },
      };
      return [r.id as string, read];
    }),
  );
}

/** The forms a run reads, before its transaction (from the caches when the actor carries a snapshot). */
async function formsOf(actor: NodeContext, automation: Automation, schemaCode: string) {
  const edb = engineDb(actor.db, actor.engineCode);
  const system = new FormCache(edb, actor.context);
  const form = await system.require(schemaCode);
  const targets = [...new Set(automation.steps.flatMap((s) => ('targetSchemaCode' in s ? [s.targetSchemaCode] : [])))];
  const known = [form, ...(await Promise.all(targets.map((code) => system.get(code)))).filter((f): f is RuntimeForm => f !== null)];
  const owned = new Map<string, RuntimeForm>();
  if (automation.runAs !== 'system') {
    for (const code of [schemaCode, ...targets]) {
      const mine = await getRuntimeFormOrThrow(edb, actor, code).catch(() => undefined);
      if (mine) owned.set(code, mine);
    }
  }
  return { form, known, owned };
}

const emptyRecord = (values: Row = {}): RuleRecord => ({
  objectId: '',
  values,
  // A webhook body's arrays of objects loop like sub-tables.
  children: Object.fromEntries(Object.entries(values).filter(([, v]) => Array.isArray(v) && v.every((r) => r !== null && typeof r === 'object')) as [string, Row[]][]),
  system: {},
});

/** The trigger record as the steps read it: the record now, or the snapshot of one that is gone, or the webhook's body. */
async function triggerRecord(edb: EngineExecutor, form: RuntimeForm, objectId: string | null, inputs: Row, read?: ReadonlyMap<string, RecordRow>): Promise<RuleRecord | null> {
  if (!objectId) return emptyRecord((inputs.body as Row) ?? {});
  const row = read?.get(objectId) ?? (await findRecord(edb, form, objectId));
  if (row) return ruleRecordOf(form, row, await childrenOfRecord(edb, form, objectId));
  const snapshot = inputs.record as Row | undefined;
  if (!snapshot) return null;
  const children = Object.fromEntries(form.grids.filter((g) => Array.isArray(snapshot[g.code])).map((g) => [g.code, snapshot[g.code] as Row[]]));
  return { objectId, values: snapshot, children, system: { ObjectId: objectId } };
}

export interface ExecuteOptions {
  db: Db;
  engineCode: string;
  automation: Automation;
  owner: string;
  schemaCode: string;
  objectId: string | null;
  inputs: Row;
  chain: string[];
  dryRun: boolean;
  /** Checks the condition here (triggers whose events did not: button, custom, date, a test run). */
  checkCondition: boolean;
  settings: AutomationRunSettings;
  /** The owner's standing already read (with the run); read here otherwise. */
  ownerStanding?: UserPart;
  /** Trigger records a batch read together in this transaction, by ObjectId. */
  triggerRows?: ReadonlyMap<string, RecordRow>;
  /** Called first inside the transaction (the run claims itself there). */
  claim?(edb: EngineExecutor): Promise<void>;
  /** Called inside the transaction before it commits (the run marks itself Succeeded there). */
  beforeCommit?(edb: EngineExecutor, logs: StepLog[]): Promise<void>;
}

interface Prepared {
  base: NodeContext;
  system: boolean;
  form: RuntimeForm;
  known: RuntimeForm[];
  owned: Map<string, RuntimeForm>;
}

/** What a run reads before its transaction: the person it acts as and the forms it touches (from the caches). */
async function prepare(options: ExecuteOptions): Promise<Prepared> {
  const system = options.automation.runAs === 'system';
  const base = await actorFor(options.db, options.engineCode, options.owner, system, options.settings.caches, options.ownerStanding);
  return { base, system, ...(await formsOf(base, options.automation, options.schemaCode)) };
}

/** A run's steps inside a transaction (`trx`); answers whether the condition matched. Throws the failing step's error (logs filled). */
async function stepsIn(trx: Db, prepared: Prepared, options: ExecuteOptions, logs: StepLog[], dropped: string[]): Promise<boolean> {
  const { base, system, form, known, owned } = prepared;
  // A fresh executor per run: the business rules' run and the automation chain are kept per executor.
  const edb = engineDb(trx, options.engineCode);
  const actor: NodeContext = { ...base, db: trx };
  // The business rules' run of this transaction answers the forms read above without reading them again.
  runOf(edb, actor).forms.seed(known);
  const record = await triggerRecord(edb, form, options.objectId, options.inputs, options.triggerRows);
  if (!record) throw new TriggerRecordGone(options.objectId);
  if (options.checkCondition && options.objectId && options.automation.condition) {
    if (!(await meetingCondition(edb, form, options.automation.condition, [options.objectId])).has(options.objectId)) return false;
  }
  setChain(edb, [...options.chain, options.automation.id ?? 'test']);
  const run: StepRun = {
    edb,
    actor,
    system,
    record,
    form,
    ownerForms: owned,
    queries: new Map(),
    dryRun: options.dryRun,
    deliveries: options.settings.deliveries,
    fetch: options.settings.fetch ?? fetch,
    dropped,
  };
  for (const step of options.automation.steps) {
    const started = Date.now();
    try {
      const output = await runStep(run, step);
      logs.push({ stepId: step.id, type: step.type, name: step.name, ok: true, output, error: null, durationMs: Date.now() - started });
    } catch (error) {
      logs.push({ stepId: step.id, type: step.type, name: step.name, ok: false, output: null, error: messageOf(error), durationMs: Date.now() - started });
      throw error;
    }
  }
  return true;
}

/** Runs the steps in one transaction; answers whether the condition matched and each step's log. Throws the failing step's error (logs filled). */
export async function executeSteps(options: ExecuteOptions, logs: StepLog[]): Promise<{ matched: boolean; dropped: string[] }> {
  let matched = true;
  const dropped: string[] = [];
  const prepared = await prepare(options);
  try {
    await options.db.transaction().execute(async (trx) => {
      await options.claim?.(engineDb(trx, options.engineCode));
      matched = await stepsIn(trx as unknown as Db, prepared, options, logs, dropped);
      if (!matched) return;
      if (options.dryRun) throw new TestRunRollback();
      await options.beforeCommit?.(engineDb(trx, options.engineCode), logs);
    });
  } catch (error) {
    if (!(error instanceof TestRunRollback)) throw error;
  }
  return { matched, dropped };
}

const retryable = (error: unknown) => error instanceof RetryableStepError || isDatabaseUnavailable(error);
const defaultBackoff = (attempt: number) => 60_000 * 4 ** (attempt - 1);

/** Why a run must not start: its automation is already in the chain that led here, or the chain is too deep. */
const chainAllows = (chain: readonly string[], automationId: string) => !chain.includes(automationId) && chain.length < AUTOMATION_CHAIN_MAX_DEPTH;

async function chainProblem(edb: EngineExecutor, chain: string[], automationId: string): Promise<string | null> {
  if (chainAllows(chain, automationId)) return null;
  const ids = [...new Set([...chain, automationId])];
  const names = new Map((await edb.selectFrom('automations').select(['id', 'name']).where('id', 'in', ids).execute()).map((r) => [r.id, r.name]));
  const path = [...chain, automationId].map((id) => `“${names.get(id) ?? id}”`).join(' → ');
  return chain.includes(automationId) ? `检测到自动化循环：${path}，已停止执行` : `自动化连锁触发超过${AUTOMATION_CHAIN_MAX_DEPTH}层：${path}，已停止执行`;
}

/** Step types whose effects are all inside the run's transaction: runs made only of them may share one. */
const TRANSACTIONAL_STEPS: ReadonlySet<string> = new Set(['insert', 'update', 'remove', 'query']);

/** How many runs of one engine may share a transaction (the job runner claims them together). */
export const AUTOMATION_BATCH_MAX = 32;

const optionsOf = (read: WaitingRun, automation: StoredAutomation, db: Db, engineCode: string, settings: AutomationRunSettings): ExecuteOptions => ({
  db,
  engineCode,
  automation: automation.model,
  owner: automation.owner,
  ownerStanding: read.owner,
  schemaCode: read.run.schema_code,
  objectId: read.run.object_id,
  inputs: (read.run.inputs as Row) ?? {},
  chain: read.run.chain,
  dryRun: false,
  checkCondition: !isDataEventTrigger(read.run.trigger_type as never),
  settings,
});

/**
 * The trigger records of a batch's runs, one read per form, inside its transaction. A form the batch's steps write to
 * is left out: an earlier run may change a later run's record, which is then read when its turn comes.
 */
async function readTriggerRows(edb: EngineExecutor, batch: readonly (WaitingRun & { automation: StoredAutomation })[], prepared: readonly Prepared[]): Promise<Map<string, RecordRow>> {
  const written = new Set(batch.flatMap((read) => read.automation.model.steps.flatMap((step) => ('targetSchemaCode' in step ? [step.targetSchemaCode] : []))));
  const byForm = new Map<string, { form: RuntimeForm; ids: string[] }>();
  batch.forEach((read, i) => {
    const { form } = prepared[i]!;
    if (!read.run.object_id || written.has(form.node.code)) return;
    const entry = byForm.get(form.node.code) ?? { form, ids: [] };
    entry.ids.push(read.run.object_id);
    byForm.set(form.node.code, entry);
  });
  const rows = new Map<string, RecordRow>();
  for (const { form, ids } of byForm.values()) for (const row of await findRecordsByIds(edb, form, [...new Set(ids)])) rows.set(String(row.ObjectId), row);
  return rows;
}

export function automationRunHandler(settings: AutomationRunSettings): JobHandler {
  async function runAlone(ctx: JobContext): Promise<unknown> {
    const { runId } = ctx.payload as { runId: string };
    const edb = engineDb(ctx.db, ctx.engineCode);
    // Read here, claimed inside the steps' transaction (Waiting → Running): the claim, the writes and the outcome
    // commit together, and a second worker's claim of the same run waits for that commit, then finds nothing.
    const read = (await readWaitingRuns(ctx.db, ctx.engineCode, [runId])).get(runId);
    if (!read) return { skipped: true };
    const claimed = read.run;
    const attempt = claimed.attempts + 1;
    const started = Date.now();
    const finish = (state: AutomationRunState, error: string | null, logs: StepLog[], executor: EngineExecutor = edb) =>
      executor
        .updateTable('automation_runs')
        .set({ state, error, attempts: attempt, steps: JSON.stringify(logs), duration_ms: Date.now() - started, finished_time: state === 'Waiting' ? null : new Date() })
        .where('id', '=', runId)
        .execute();
    const claim = async (trx: EngineExecutor) => {
      const r = await trx.updateTable('automation_runs').set({ state: 'Running', attempts: attempt }).where('id', '=', runId).where('state', '=', 'Waiting').executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw new RunTakenElsewhere();
    };

    const automation = read.automation;
    if (!automation) return finish('Stopped', '自动化已删除', []).then(() => ({ state: 'Stopped' }));
    if (!automation.enabled) return finish('Skipped', '自动化已停用', []).then(() => ({ state: 'Skipped' }));
    const problem = await chainProblem(edb, claimed.chain, automation.id);
    if (problem) return finish('Stopped', problem, []).then(() => ({ state: 'Stopped' }));

    const logs: StepLog[] = [];
    try {
      const { matched } = await executeSteps(
        { ...optionsOf(read, automation, ctx.db, ctx.engineCode, settings), claim, beforeCommit: (trx, done) => finish('Succeeded', null, done, trx).then(() => undefined) },
        logs,
      );
      if (!matched) await finish('Skipped', '数据不满足触发条件', logs);
      return { state: matched ? 'Succeeded' : 'Skipped' };
    } catch (error) {
      if (error instanceof RunTakenElsewhere) return { skipped: true };
      if (error instanceof TriggerRecordGone) return finish('Skipped', error.message, logs).then(() => ({ state: 'Skipped' }));
      const again = retryable(error) && attempt < AUTOMATION_MAX_ATTEMPTS;
      await finish(again ? 'Waiting' : 'Failed', messageOf(error), logs);
      if (again) await enqueueJob(ctx.db, { engineCode: ctx.engineCode, kind: AUTOMATION_RUN_JOB, payload: { runId }, delayMs: (settings.backoffMs ?? defaultBackoff)(attempt) });
      return { state: again ? 'Waiting' : 'Failed' };
    }
  }

  /**
   * Runs of one engine in one transaction (issue 21's runs-per-second goal): one read, one claim and one outcome
   * statement for all of them, each run's steps in turn, seeing the runs before it. Only plain runs share it — an
   * enabled automation, no chain problem, steps that act only on data; the others run alone after it (RUN_ALONE).
   * Any failure rolls the whole batch back and the job runner runs each alone, where failures are logged and retried.
   */
  async function runBatch(ctxs: JobContext[]): Promise<unknown[]> {
    const { db, engineCode } = ctxs[0]!;
    const ids = ctxs.map((ctx) => (ctx.payload as { runId: string }).runId);
    const reads = await readWaitingRuns(db, engineCode, ids);
    const plain = (read: WaitingRun | undefined): read is WaitingRun & { automation: StoredAutomation } =>
      !!read?.automation &&
      read.automation.enabled &&
      chainAllows(read.run.chain, read.automation.id) &&
      read.automation.model.steps.every((step) => TRANSACTIONAL_STEPS.has(step.type));
    const batch = ids.map((id) => reads.get(id)).filter(plain);
    if (batch.length < 2) return ids.map(() => RUN_ALONE);
    const prepared = await Promise.all(batch.map((read) => prepare(optionsOf(read, read.automation, db, engineCode, settings))));
    const outcomes = await db.transaction().execute(async (trx) => {
      const edb = engineDb(trx, engineCode);
      const claimed = await edb
        .updateTable('automation_runs')
        .set({ state: 'Running', attempts: sql`attempts + 1` })
        .where('id', 'in', batch.map((read) => read.run.id))
        .where('state', '=', 'Waiting')
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== batch.length) throw new RunTakenElsewhere();
      const triggerRows = await readTriggerRows(edb, batch, prepared);
      const done: { id: string; attempts: number; state: AutomationRunState; error: string | null; logs: StepLog[]; ms: number }[] = [];
      for (const [i, read] of batch.entries()) {
        const started = Date.now();
        const logs: StepLog[] = [];
        const matched = await stepsIn(trx as unknown as Db, prepared[i]!, { ...optionsOf(read, read.automation, db, engineCode, settings), triggerRows }, logs, []);
        done.push({ id: read.run.id, attempts: read.run.attempts + 1, state: matched ? 'Succeeded' : 'Skipped', error: matched ? null : '数据不满足触发条件', logs, ms: Date.now() - started });
      }
      const values = done.map((o) => sql`(${o.id}::uuid, ${o.state}, ${o.error}::text, ${o.attempts}::int, ${JSON.stringify(o.logs)}::jsonb, ${o.ms}::int)`);
      await sql`
        update ${sql.table(`${engineSchemaName(engineCode)}.automation_runs`)} r
        set state = v.state, error = v.error, attempts = v.attempts, steps = v.steps, duration_ms = v.ms, finished_time = now()
        from (values ${sql.join(values)}) as v(id, state, error, attempts, steps, ms)
        where r.id = v.id`.execute(trx);
      return new Map(done.map((o) => [o.id, { state: o.state }]));
    });
    return ids.map((id) => outcomes.get(id) ?? RUN_ALONE);
  }

  return { run: runAlone, batch: { max: AUTOMATION_BATCH_MAX, run: runBatch } };
}
