import { Cron } from 'croner';
import { sql } from 'kysely';
import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import type { AutomationTrigger } from '@tritium/shared/automation/index';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import type { ScheduledSweep } from '../../scheduler/scheduler.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { anyDb } from '../business-data/runtime-form.ts';
import { FormCache } from '../business-data/record-rollups.ts';
import { MAIN } from '../query/filter-compiler.ts';
import { enqueueRuns, meetingCondition, type RunSeed } from './automation-events.ts';
import { findAutomation, type StoredAutomation } from './automation.repo.ts';

// Timed and date triggers (docs/decisions/0041). Each has a row in platform.automation_schedules saying when it is
// next looked at; every process's scheduler reads the due rows of all engines with one indexed statement and claims
// them FOR UPDATE SKIP LOCKED, so each occurrence is queued once. An occurrence is the run's event key: a timed
// automation whose time passed while no process ran runs once at the next tick, then goes on from the present.

const TIME_ZONE = 'Asia/Shanghai';
/** A date trigger looks for records that fell due this often. */
const DATE_SCAN_MS = 60_000;
/** Due schedules claimed per tick. */
const CLAIM_BATCH = 200;

type Timing = Extract<AutomationTrigger, { type: 'timing' }>;

/** The parts of the start in China time: the cycle keeps its second, minute, hour, weekday, day and month. */
function partsOf(start: Date) {
  const f = new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short', hourCycle: 'h23' });
  const p = Object.fromEntries(f.formatToParts(start).map((x) => [x.type, x.value]));
  return { s: Number(p.second), m: Number(p.minute), h: Number(p.hour), day: Number(p.day), month: Number(p.month), dow: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(p.weekday!) };
}

/** The cron pattern (with seconds) of a cycle, from its start. */
function patternOf(trigger: Timing): string {
  const { s, m, h, day, month, dow } = partsOf(new Date(trigger.start));
  const months = (step: number) => [...Array(12 / step).keys()].map((i) => ((month - 1 + i * step) % 12) + 1).sort((a, b) => a - b).join(',');
  switch (trigger.cycle) {
    case 'secondly':
      return `*/${trigger.every} * * * * *`;
    case 'minutely':
      return `${s} */${trigger.every} * * * *`;
    case 'hourly':
      return `${s} ${m} */${trigger.every} * * *`;
    case 'daily':
    case 'once':
      return `${s} ${m} ${h} * * *`;
    case 'weekly':
    case 'biweekly':
      return `${s} ${m} ${h} * * ${dow}`;
    case 'weekdays':
      return `${s} ${m} ${h} * * 1-5`;
    case 'weekends':
      return `${s} ${m} ${h} * * 0,6`;
    case 'monthly':
      return `${s} ${m} ${h} ${day} * *`;
    case 'quarterly':
      return `${s} ${m} ${h} ${day} ${months(3)} *`;
    case 'semiannual':
      return `${s} ${m} ${h} ${day} ${months(6)} *`;
    case 'yearly':
      return `${s} ${m} ${h} ${day} ${month} *`;
  }
}

const WEEK_MS = 7 * 86_400_000;

/** The first occurrence of a timed trigger after `after` (never before its start, never past its end); null when none is left. */
export function nextOccurrence(trigger: Timing, after: Date): Date | null {
  const start = new Date(trigger.start);
  const end = trigger.end ? new Date(trigger.end) : null;
  if (trigger.cycle === 'once') return start > after ? start : null;
  const from = new Date(Math.max(after.getTime(), start.getTime() - 1));
  const cron = new Cron(patternOf(trigger), { timezone: TIME_ZONE, paused: true });
  let next = cron.nextRun(from);
  // Every other week from the start's week.
  while (next && trigger.cycle === 'biweekly' && Math.floor((next.getTime() - start.getTime() + 1000) / WEEK_MS) % 2 === 1) next = cron.nextRun(next);
  if (!next || (end && next > end)) return null;
  return next;
}

/** Puts a timed or date-triggered automation on the schedule (or takes it off when it is neither, or disabled). */
export async function scheduleAutomation(db: Db, engineCode: string, automation: StoredAutomation, now: Date): Promise<void> {
  const trigger = automation.model.trigger;
  const off = () => db.deleteFrom('platform.automation_schedules').where('engine_code', '=', engineCode).where('automation_id', '=', automation.id).execute();
  if (!automation.enabled || (trigger.type !== 'timing' && trigger.type !== 'date')) return void (await off());
  const next = trigger.type === 'timing' ? nextOccurrence(trigger, now) : now;
  if (!next) return void (await off());
  await db
    .insertInto('platform.automation_schedules')
    .values({ engine_code: engineCode, automation_id: automation.id, next_run_at: next, scanned_until: trigger.type === 'date' ? now : null })
    .onConflict((oc) =>
      oc.columns(['engine_code', 'automation_id']).doUpdateSet({
        next_run_at: next,
        // A date trigger changed now fires for record times from now on, not for those already past.
        scanned_until: trigger.type === 'date' ? now : null,
      }),
    )
    .execute();
}

/** When the automation next runs (timed) or is next looked at (date), for the designer's list. */
export async function nextRunTimes(db: Db, engineCode: string, ids: string[]): Promise<Map<string, Date>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('platform.automation_schedules').select(['automation_id', 'next_run_at']).where('engine_code', '=', engineCode).where('automation_id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.automation_id, new Date(r.next_run_at)]));
}

/** Records of a date trigger whose moment (the date field's day ± offset, at the time, China time) is in (from, to]. */
async function dueRecords(edb: EngineExecutor, automation: StoredAutomation, from: Date, to: Date): Promise<{ objectId: string; at: string }[]> {
  const trigger = automation.model.trigger as Extract<AutomationTrigger, { type: 'date' }>;
  const form = await new FormCache(edb).get(automation.schemaCode);
  if (!form || !form.fields.some((f) => f.code === trigger.field && f.sqlType === 'timestamptz')) return [];
  const column = sql.ref(`${MAIN}.${trigger.field}`);
  const moment = sql<Date>`((((${column} at time zone ${TIME_ZONE})::date + ${trigger.offsetDays}::int)::timestamp + ${trigger.time}::time) at time zone ${TIME_ZONE})`;
  const rows = await anyDb(edb)
    .selectFrom(`${form.mainTable} as ${MAIN}`)
    .select([sql<string>`${sql.ref(`${MAIN}.ObjectId`)}`.as('objectId'), moment.as('at')])
    .where(sql.ref(`${MAIN}.Status`), 'in', [BizObjectStatus.Effective, BizObjectStatus.Running])
    // The day range first (an index on the field serves it), then the exact moment.
    .where(column, '>=', new Date(from.getTime() - (trigger.offsetDays + 2) * 86_400_000))
    .where(column, '<', new Date(to.getTime() - (trigger.offsetDays - 2) * 86_400_000))
    .where(moment, '>', from)
    .where(moment, '<=', to)
    .limit(10_000)
    .execute();
  const meeting = await meetingCondition(edb, form, automation.model.condition, rows.map((r) => String(r.objectId)), to);
  return rows.filter((r) => meeting.has(String(r.objectId))).map((r) => ({ objectId: String(r.objectId), at: new Date(r.at).toISOString() }));
}

/** The sweep the scheduler runs: due schedules claimed, their runs queued, their next time set. */
export function automationScheduleSweep(): ScheduledSweep {
  return {
    async run(db, now) {
      return db.transaction().execute(async (trx) => {
        const due = await trx
          .selectFrom('platform.automation_schedules')
          .selectAll()
          .where('next_run_at', '<=', now)
          .orderBy('next_run_at')
          .limit(CLAIM_BATCH)
          .forUpdate()
          .skipLocked()
          .execute();
        let queued = 0;
        for (const row of due) {
          const edb = engineDb(trx as unknown as Db, row.engine_code);
          const where = (q: any) => q.where('engine_code', '=', row.engine_code).where('automation_id', '=', row.automation_id);
          const automation = await findAutomation(edb, row.automation_id);
          const trigger = automation?.model.trigger;
          if (!automation || !automation.enabled || (trigger?.type !== 'timing' && trigger?.type !== 'date')) {
            await where(trx.deleteFrom('platform.automation_schedules')).execute();
            continue;
          }
          const base = { automationId: automation.id, schemaCode: automation.schemaCode, triggerType: trigger.type, createdBy: null };
          let seeds: RunSeed[];
          if (trigger.type === 'timing') {
            const at = new Date(row.next_run_at).toISOString();
            seeds = [{ ...base, objectId: null, eventKey: `timing:${at}`, inputs: { event: 'timing', due: at } }];
            const next = nextOccurrence(trigger, now);
            if (next) await where(trx.updateTable('platform.automation_schedules').set({ next_run_at: next })).execute();
            else await where(trx.deleteFrom('platform.automation_schedules')).execute();
          } else {
            const from = new Date(row.scanned_until ?? row.next_run_at);
            seeds = (await dueRecords(edb, automation, from, now)).map((r) => ({ ...base, objectId: r.objectId, eventKey: `date:${r.objectId}:${r.at}`, inputs: { event: 'date', due: r.at } }));
            await where(trx.updateTable('platform.automation_schedules').set({ scanned_until: now, next_run_at: new Date(now.getTime() + DATE_SCAN_MS) })).execute();
          }
          queued += (await enqueueRuns(edb, row.engine_code, seeds, [])).length;
        }
        return queued;
      });
    },
  };
}
