import { sql, type Transaction } from 'kysely';
import type { Db, PlatformDb } from '../../db/types.ts';
import type { ScheduledSweep } from '../../scheduler/scheduler.ts';
import { handleTimer, type DueTimer } from './time-limit-actions.ts';

// Workflow time limits (issue 21; docs/decisions/0042), the sweep. An item that opens on a node with a time limit
// gets its deadline (the core sets `due_time`) and, in the same transaction, a platform timer row at the deadline
// and one at its first scheduled urge (time-limit-schedule.ts). The sweep reads that one table by `fire_at` — not
// every engine's schema on each tick — and takes each due row under FOR UPDATE SKIP LOCKED in a transaction of its
// own that also acts on the item, so with several processes every timer is handled once. People's actions never touch the rows:
// a timer whose item was closed meanwhile is deleted when it falls due (no lock order between the two).

const HOUR = 3_600_000;
/** Timers handled per tick and process at most (the rest wait for the next tick). */
const MAX_PER_TICK = 200;
/** A timer whose handling keeps failing is retried this many times (5 min, 10 min, 20 min …) and then dropped. */
export const MAX_TIMER_ATTEMPTS = 5;

type TimerRow = { engine_code: string; work_item_id: string; kind: 'timeout' | 'urge'; fire_at: Date; attempts: number };

/** The next due timer nobody else holds, locked until the transaction ends. */
function claimNext(trx: Transaction<PlatformDb>, now: Date): Promise<TimerRow | undefined> {
  return trx
    .selectFrom('platform.workflow_timers')
    .selectAll()
    .where('fire_at', '<=', now)
    .orderBy('fire_at')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst() as Promise<TimerRow | undefined>;
}

/** What a handled timer becomes: deleted, or moved to its next urge. */
async function settle(trx: Transaction<PlatformDb>, timer: TimerRow, next: Date | null): Promise<void> {
  if (next) {
    await trx.updateTable('platform.workflow_timers').set({ fire_at: next, attempts: 0 }).where('engine_code', '=', timer.engine_code).where('work_item_id', '=', timer.work_item_id).where('kind', '=', timer.kind).execute();
  } else {
    await trx.deleteFrom('platform.workflow_timers').where('engine_code', '=', timer.engine_code).where('work_item_id', '=', timer.work_item_id).where('kind', '=', timer.kind).execute();
  }
}

/** A failed handling: tried again later with back-off, dropped after MAX_TIMER_ATTEMPTS (its transaction rolled back). */
async function postpone(db: Db, timer: TimerRow, now: Date): Promise<void> {
  if (timer.attempts + 1 >= MAX_TIMER_ATTEMPTS) {
    await db.deleteFrom('platform.workflow_timers').where('engine_code', '=', timer.engine_code).where('work_item_id', '=', timer.work_item_id).where('kind', '=', timer.kind).execute();
    return;
  }
  await db
    .updateTable('platform.workflow_timers')
    .set({ attempts: sql`attempts + 1`, fire_at: new Date(now.getTime() + 5 * 60_000 * 2 ** timer.attempts) })
    .where('engine_code', '=', timer.engine_code)
    .where('work_item_id', '=', timer.work_item_id)
    .where('kind', '=', timer.kind)
    .execute();
}

/** The next urge after `now` on the grid fire_at + k × every (urges missed while no process ran are not repeated). */
export function nextUrge(fireAt: Date, everyHours: number, now: Date): Date {
  const every = everyHours * HOUR;
  const steps = Math.max(1, Math.floor((now.getTime() - fireAt.getTime()) / every) + 1);
  return new Date(fireAt.getTime() + steps * every);
}

/** The scheduler's sweep of workflow time limits (registered in app.ts as 'workflow.time-limits'). */
export function workflowTimeLimitSweep(): ScheduledSweep {
  return {
    async run(db: Db, now: Date): Promise<number> {
      let handled = 0;
      for (let n = 0; n < MAX_PER_TICK; n++) {
        let claimed: TimerRow | undefined;
        try {
          const done = await db.transaction().execute(async (trx) => {
            claimed = await claimNext(trx, now);
            if (!claimed) return false;
            const timer: DueTimer = { engineCode: claimed.engine_code, workItemId: claimed.work_item_id, kind: claimed.kind, fireAt: new Date(claimed.fire_at) };
            const everyHours = await handleTimer(trx, timer, now);
            await settle(trx, claimed, everyHours ? nextUrge(timer.fireAt, everyHours, now) : null);
            return true;
          });
          if (!done) break;
          handled++;
        } catch (error) {
          if (!claimed) throw error;
          await postpone(db, claimed, now);
        }
      }
      return handled;
    },
  };
}
