import { contracts } from '@tritium/shared';
import type { ScheduledSweep } from '../../scheduler/scheduler.ts';
import { removeBizLogsBefore } from './bizlog.repo.ts';

// Retention of the business log (docs/decisions/0118): once a day, each engine's rows older than 30 days go.

const DAY_MS = 86_400_000;

export function bizLogRetentionSweep(options: { retentionDays?: number; everyMs?: number } = {}): ScheduledSweep {
  const retentionMs = (options.retentionDays ?? contracts.BIZ_LOG_RETENTION_DAYS) * DAY_MS;
  const everyMs = options.everyMs ?? DAY_MS;
  let last = -Infinity;
  return {
    async run(db, now) {
      if (now.getTime() - last < everyMs) return 0;
      last = now.getTime();
      const cutoff = new Date(now.getTime() - retentionMs);
      const engines = await db.selectFrom('platform.engines').select('engine_code').where('state', '!=', 'allocating').execute();
      let removed = 0;
      for (const { engine_code } of engines) removed += await removeBizLogsBefore(db, engine_code, cutoff);
      return removed;
    },
  };
}
