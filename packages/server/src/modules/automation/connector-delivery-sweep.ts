import { engineDb } from '../../db/database.ts';
import { retentionSweep, type ScheduledSweep } from '../../scheduler/scheduler.ts';

// Retention of the inbound connector deliveries (docs/decisions/0123): once a day, each engine's deliveries older
// than 30 days go. A delivery id is remembered so that a sender's retries make one run; senders retry within minutes
// or hours, and a month is far past that. A delivery re-sent after its row has gone is still answered with its run
// while the run log keeps that run (its event key `connector:<id>` is unique per automation); once the run is gone
// too, the same delivery runs again. That is accepted: keeping every id forever would grow the table without end for
// the sake of a retry no sender makes a month later.

const DAY_MS = 86_400_000;
export const CONNECTOR_DELIVERY_RETENTION_DAYS = 30;

export function connectorDeliveryRetentionSweep(options: { retentionDays?: number; everyMs?: number } = {}): ScheduledSweep {
  return retentionSweep({
    retentionMs: (options.retentionDays ?? CONNECTOR_DELIVERY_RETENTION_DAYS) * DAY_MS,
    everyMs: options.everyMs ?? DAY_MS,
    removeBefore: async (db, engineCode, cutoff) =>
      Number((await engineDb(db, engineCode).deleteFrom('connector_deliveries').where('created_time', '<', cutoff).executeTakeFirst()).numDeletedRows),
  });
}
