import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { retentionSweep, type ScheduledSweep } from '../../scheduler/scheduler.ts';

// Retention of the operation log (docs/decisions/0113): entries older than the retention are removed, oldest first,
// and the hash of the last one removed becomes the chain's anchor, so the check of what is kept still holds.

const DAY_MS = 86_400_000;

/** Removes the engine's entries written before `cutoff`; answers how many. */
export async function removeExpiredOperations(db: Db, engineCode: string, cutoff: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const edb = engineDb(trx as unknown as Db, engineCode);
    await edb.selectFrom('oplog_head').select('id').where('id', '=', 1).forUpdate().executeTakeFirstOrThrow();
    const newest = await edb.selectFrom('oplog').select(['seq', 'hash']).where('time', '<', cutoff).orderBy('seq', 'desc').limit(1).executeTakeFirst();
    if (!newest) return 0;
    const removed = await edb.deleteFrom('oplog').where('seq', '<=', Number(newest.seq)).executeTakeFirst();
    await edb.updateTable('oplog_head').set({ anchor_seq: Number(newest.seq), anchor_hash: newest.hash }).where('id', '=', 1).execute();
    return Number(removed.numDeletedRows);
  });
}

/** The scheduler's sweep: every `everyMs` (an hour by default), each engine's entries past the retention. */
export function oplogRetentionSweep(options: { retentionDays?: number; everyMs?: number } = {}): ScheduledSweep {
  return retentionSweep({
    retentionMs: (options.retentionDays ?? contracts.OPLOG_RETENTION_DAYS) * DAY_MS,
    everyMs: options.everyMs ?? 3_600_000,
    removeBefore: (db, engineCode, cutoff) => removeExpiredOperations(db, engineCode, cutoff).catch(() => 0),
  });
}
