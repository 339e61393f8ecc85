import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';

/**
 * Counts one use of `key` in a window of `windowSeconds`, unless `limit` uses were counted in the window already;
 * answers whether it was counted. One upsert that takes the row's lock, so parallel callers (in any number of server
 * processes) count one each and never all pass one check (docs/decisions/0027).
 */
export async function countUnderLimit(executor: Db, key: string, limit: number, windowSeconds: number): Promise<boolean> {
  const expired = sql<boolean>`access_counters.window_start <= now() - ${`${windowSeconds} seconds`}::interval`;
  const row = await executor
    .insertInto('platform.access_counters')
    .values({ key, count: 1 })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({
          count: sql`case when ${expired} then 1 else access_counters.count + 1 end`,
          window_start: sql`case when ${expired} then now() else access_counters.window_start end`,
        })
        .where(sql<boolean>`${expired} or access_counters.count < ${limit}`),
    )
    .returning('count')
    .executeTakeFirst();
  return !!row;
}

/** Gives one use back (the thing counted did not happen, e.g. the text message could not be sent). */
export async function uncount(executor: Db, key: string): Promise<void> {
  await executor
    .updateTable('platform.access_counters')
    .set({ count: sql`greatest(count - 1, 0)` })
    .where('key', '=', key)
    .execute();
}

/** Drops counters whose window ended long ago (every window in use is shorter than a day). */
export async function purgeStaleAccessCounters(db: Db): Promise<void> {
  await db.deleteFrom('platform.access_counters').where('window_start', '<', sql<Date>`now() - interval '1 day'`).execute();
}
