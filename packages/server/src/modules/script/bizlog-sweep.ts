import { contracts } from '@tritium/shared';
import { retentionSweep, type ScheduledSweep } from '../../scheduler/scheduler.ts';
import { removeBizLogsBefore } from './bizlog.repo.ts';

// Retention of the business log (docs/decisions/0118): once a day, each engine's rows older than 30 days go.

const DAY_MS = 86_400_000;

export function bizLogRetentionSweep(options: { retentionDays?: number; everyMs?: number } = {}): ScheduledSweep {
  return retentionSweep({
    retentionMs: (options.retentionDays ?? contracts.BIZ_LOG_RETENTION_DAYS) * DAY_MS,
    everyMs: options.everyMs ?? DAY_MS,
    removeBefore: removeBizLogsBefore,
  });
}
