import { sql } from 'kysely';
import type { AutomationTrigger } from '@tritium/shared/automation/index';
import type { FilterGroup } from '@tritium/shared/query/index';
import { newId } from '../../lib/ids.ts';
import { parameterError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import type { RecordEvent } from '../business-data/record-hooks-port.ts';
import { anyDb, type RuntimeForm } from '../business-data/runtime-form.ts';
import { compileFilter, MAIN } from '../query/filter-compiler.ts';
import { FULL_RIGHTS } from '../permission/form-rights.ts';
import { eventAutomations, type StoredAutomation } from './automation.repo.ts';

// Where events become runs (docs/decisions/0041): in the transaction of the save, removal or flow that caused them,
// each automation whose trigger and condition the event meets gets one run row and one job. The unique (automation,
// event key) keeps an event from being queued twice; the job runner's SKIP LOCKED claim runs it once.

export const AUTOMATION_RUN_JOB = 'automation.run';

type Row = Record<string, unknown>;

export interface RunSeed {
  automationId: string;
  schemaCode: string;
  triggerType: string;
  objectId: string | null;
  eventKey: string;
  inputs: Row;
  createdBy?: string | null;
}

/** The automations whose writes led here, per transaction (a run sets it on its executor before its steps write). */
const chains = new WeakMap<EngineExecutor, string[]>();

export function setChain(edb: EngineExecutor, chain: string[]): void {
  chains.set(edb, chain);
}

/** Queues runs and their jobs in one statement; an event already queued for an automation is not queued again. Answers the new runs' ids. */
export async function enqueueRuns(edb: EngineExecutor, engineCode: string, seeds: readonly RunSeed[], chain = chains.get(edb) ?? []): Promise<string[]> {
  if (!seeds.length) return [];
  const rows = seeds.map((s) => ({
    id: newId(),
    automation_id: s.automationId,
    schema_code: s.schemaCode,
    trigger_type: s.triggerType,
    object_id: s.objectId,
    event_key: s.eventKey.slice(0, 300),
    chain: JSON.stringify(chain),
    inputs: JSON.stringify(s.inputs),
    created_by: s.createdBy ?? null,
  }));
  const queued = await edb
    .with('r', (db) => db.insertInto('automation_runs').values(rows).onConflict((oc) => oc.columns(['automation_id', 'event_key']).doNothing()).returning(['id', 'created_by']))
    .insertInto('platform.jobs' as never)
    .columns(['id', 'engine_code', 'kind', 'payload', 'created_by'] as never)
    .expression(
      (db: any) =>
        db
          .selectFrom('r')
          .select([
            sql`gen_random_uuid()::text`.as('id'),
            sql`${engineCode}::text`.as('engine_code'),
            sql`${AUTOMATION_RUN_JOB}::text`.as('kind'),
            sql`jsonb_build_object('runId', r.id)`.as('payload'),
            // Nobody's browser is told of a run's job: its outcome is the run log's.
            sql`null::text`.as('created_by'),
          ]) as never,
    )
    .returning(sql<string>`payload->>'runId'`.as('runId') as never)
    .execute();
  return (queued as unknown as { runId: string }[]).map((q) => q.runId);
}

const loose = (v: unknown) => (v === undefined ? undefined : JSON.stringify(Array.isArray(v) ? [...v].map(String).sort() : v === null ? null : String(v)));

/** A changing trigger: the field changed, from and to the values it names (when it names them). */
function changeMatches(trigger: Extract<AutomationTrigger, { type: 'changing' }>, event: RecordEvent): boolean {
  const change = event.changed?.[trigger.field];
  if (!change) return false;
  if (trigger.from !== undefined && loose(change[0]) !== loose(trigger.from)) return false;
  if (trigger.to !== undefined && loose(change[1]) !== loose(trigger.to)) return false;
  return true;
}

/**
 * The records among `ids` that meet an automation's condition, read as the system sees the form (a condition may
 * name any field). A condition the form no longer answers (a field removed) matches nothing.
 */
export async function meetingCondition(edb: EngineExecutor, form: RuntimeForm, condition: FilterGroup | null, ids: string[], now = new Date()): Promise<Set<string>> {
  if (!condition || !ids.length) return new Set(ids);
  const cc = { edb, form: { ...form, rights: FULL_RIGHTS }, userId: '', now, issues: [] as { path: string; message: string }[] };
  const where = compileFilter(cc, condition, 'condition');
  if (cc.issues.length) return new Set();
  const rows = await anyDb(edb).selectFrom(`${form.mainTable} as ${MAIN}`).select(`${MAIN}.ObjectId`).where(sql.ref(`${MAIN}.ObjectId`), 'in', ids).where(where).execute();
  return new Set(rows.map((r) => String(r.ObjectId)));
}

/** A condition's problems on a form, for the designer's save (the same compile the runs use). */
export function conditionIssues(edb: EngineExecutor, form: RuntimeForm, condition: FilterGroup | null): void {
  if (!condition) return;
  const cc = { edb, form: { ...form, rights: FULL_RIGHTS }, userId: '', now: new Date(), issues: [] as { path: string; message: string }[] };
  compileFilter(cc, condition, 'automation.condition');
  if (cc.issues.length) throw parameterError(cc.issues);
}

/** The record-event sink (registered at start): the form's automations that the events start, queued. */
/** Whether any automation of the form is triggered by its record events (the automations' cache, as queueRecordEvents reads it). */
export async function hasEventAutomations(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm): Promise<boolean> {
  return (await eventAutomations(edb, ctx.context, form.node.code)).length > 0;
}

export async function queueRecordEvents(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, events: RecordEvent[]): Promise<void> {
  const automations = await eventAutomations(edb, ctx.context, form.node.code);
  if (!automations.length) return;
  const seeds: RunSeed[] = [];
  for (const automation of automations) {
    const trigger = automation.model.trigger;
    const hit = events.filter((e) => e.kinds.includes(trigger.type) && (trigger.type !== 'changing' || changeMatches(trigger, e)));
    if (!hit.length) continue;
    const meeting = await meetingCondition(edb, form, automation.model.condition, hit.map((e) => e.objectId));
    for (const event of hit) if (meeting.has(event.objectId)) seeds.push(seedOf(automation, event, ctx.userId));
  }
  await enqueueRuns(edb, ctx.engineCode, seeds);
}

function seedOf(automation: StoredAutomation, event: RecordEvent, userId: string): RunSeed {
  const type = automation.model.trigger.type;
  return {
    automationId: automation.id,
    schemaCode: automation.schemaCode,
    triggerType: type,
    objectId: event.objectId,
    // Each save is its own event.
    eventKey: `${type}:${event.objectId}:${newId()}`,
    inputs: { event: type, ...(event.changed ? { changed: event.changed } : {}), ...(event.snapshot ? { record: event.snapshot } : {}) },
    createdBy: userId,
  };
}
