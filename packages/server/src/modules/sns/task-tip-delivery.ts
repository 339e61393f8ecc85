import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import type { ScheduledSweep } from '../../scheduler/scheduler.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { notifyEach } from '../notification/notify.ts';

// Task tips reach their receivers when they fall due (issues 20 and 21): a tip's timer row is written with the tip;
// the scheduler's sweep claims the due timers of every engine (SKIP LOCKED, so with several processes each tip is
// sent once), marks the tips that are still pending done and sends them through the notification service — in one
// transaction, so a tip is either sent and done, or neither.

const BATCH = 200;

/** Sets a new tip's timer (in the caller's transaction). */
export async function setTaskTipTimer(edb: EngineExecutor, engineCode: string, tipId: string, dueAt: Date): Promise<void> {
  await edb.insertInto('platform.task_tip_timers' as never).values({ engine_code: engineCode, tip_id: tipId, due_at: dueAt } as never).execute();
}

export function taskTipSweep(): ScheduledSweep {
  return {
    async run(db: Db, now: Date) {
      return db.transaction().execute(async (trx) => {
        const due = await trx
          .selectFrom('platform.task_tip_timers')
          .select(['engine_code', 'tip_id'])
          .where('due_at', '<=', now)
          .orderBy('due_at')
          .limit(BATCH)
          .forUpdate()
          .skipLocked()
          .execute();
        if (!due.length) return 0;
        await trx
          .deleteFrom('platform.task_tip_timers')
          .where(sql<boolean>`(engine_code, tip_id) in (${sql.join(due.map((d) => sql`(${d.engine_code}, ${d.tip_id}::uuid)`))})`)
          .execute();
        let sent = 0;
        const byEngine = new Map<string, typeof due>();
        for (const d of due) byEngine.set(d.engine_code, [...(byEngine.get(d.engine_code) ?? []), d]);
        for (const [engineCode, timers] of byEngine) {
          const edb = engineDb(trx as unknown as Db, engineCode);
          // Cancelled or removed tips are gone from here: only pending ones move to done, and only they are sent.
          const tips = await edb
            .updateTable('form_task_tips')
            .set({ state: 'done', modified_time: now })
            .where('id', 'in', timers.map((t) => t.tip_id))
            .where('state', '=', 'pending')
            .returning(['id', 'schema_code', 'object_id', 'content', 'receiver_ids', 'created_by'])
            .execute();
          const items = tips.flatMap((tip) => {
            const receivers = (typeof tip.receiver_ids === 'string' ? JSON.parse(tip.receiver_ids) : tip.receiver_ids) as string[];
            const notice = { category: 'tasktip' as const, title: `任务提醒：${tip.content}`, content: tip.content, sender: tip.created_by, link: { schemaCode: tip.schema_code, objectId: tip.object_id } };
            return receivers.map((receiver) => ({ receiver, notice }));
          });
          await notifyEach(edb, engineCode, items);
          sent += tips.length;
        }
        return sent;
      });
    },
  };
}
