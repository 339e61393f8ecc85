import { sql } from 'kysely';
import type { ScheduledSweep } from '../../scheduler/scheduler.ts';
import { engineDb } from '../../db/database.ts';
import type { FileStore } from '../files/file-store.ts';
import { deleteFiles } from '../files/files.repo.ts';

// Printed PDFs are kept for a set time (docs/decisions/0050): each scheduler tick removes the files of print tasks past
// their expiry, engine by engine, a batch at a time; the task stays (its progress answers "expired"). Visiting every
// engine's schema is done at most every `everyMs` of the scheduler's clock (the first tick after a start always).

const BATCH = 200;

export function printFileSweep(store: FileStore, everyMs = 10 * 60_000): ScheduledSweep {
  let last = -Infinity;
  return {
    async run(db, now) {
      if (now.getTime() - last < everyMs) return 0;
      last = now.getTime();
      const engines = await db.selectFrom('platform.engines').select('engine_code').execute();
      let handled = 0;
      for (const { engine_code } of engines) {
        const edb = engineDb(db, engine_code);
        const due = await edb
          .selectFrom('print_tasks')
          .select(['id', 'file_id'])
          .where('file_id', 'is not', null)
          .where('expires_at', '<=', sql<Date>`${now.toISOString()}::timestamptz`)
          .limit(BATCH)
          .execute()
          .catch(() => []);
        if (!due.length) continue;
        const keys = await db.transaction().execute(async (trx) => {
          const tedb = engineDb(trx as never, engine_code);
          await tedb.updateTable('print_tasks').set({ file_id: null }).where('id', 'in', due.map((d) => d.id)).execute();
          return deleteFiles(tedb, due.map((d) => d.file_id!));
        });
        for (const key of keys) await store.delete(key).catch(() => undefined);
        handled += due.length;
      }
      return handled;
    },
  };
}
