import { sql } from 'kysely';
import { MAX_DELIVERY_ATTEMPTS, type OutsideChannel } from '@tritium/shared/constants/messages';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import type { JobHandler } from '../../jobs/job-registry.ts';
import { enqueueJob } from '../../jobs/job-runner.ts';
import { ChannelError, type ChannelAdapter, type OutgoingMessage } from './channels/channel.ts';
import { linkPath, NOTIFICATION_DELIVERY_JOB } from './notify.ts';

// One delivery over one outside channel, as a job (issue 20; docs/decisions/0038). A retryable failure (network,
// the provider's 5xx) is tried again after a growing pause, as a new job, up to MAX_DELIVERY_ATTEMPTS in all; then,
// or at once for a failure no retry can mend, the delivery shows as Failed in the administrator's log. The job itself
// finishes either way: the delivery row is its outcome.

export interface DeliverySettings {
  /** The channels' adapters by kind. */
  adapters: ReadonlyMap<OutsideChannel, ChannelAdapter>;
  /** The engine's settings of a channel, decrypted; null when it is not set up or switched off. */
  settingsOf(db: Db, engineCode: string, channel: OutsideChannel): Promise<unknown | null>;
  /** The web app's address, for links back to the record. */
  publicUrl: string;
  /** The pause before attempt n+1 (default 30 s × 4^(n-1)). */
  backoffMs?(attempt: number): number;
}

const defaultBackoff = (attempt: number) => 30_000 * 4 ** (attempt - 1);

export function deliveryHandler(settings: DeliverySettings): JobHandler {
  return {
    async run(ctx) {
      const { deliveryId } = ctx.payload as { deliveryId: string };
      const edb = engineDb(ctx.db, ctx.engineCode);
      const row = await edb
        .selectFrom('notification_deliveries as d')
        .innerJoin('internal_messages as m', 'm.id', 'd.message_id')
        .leftJoin('org_users as u', 'u.id', 'm.receiver')
        .select(['d.id', 'd.channel', 'd.state', 'd.attempts', 'm.category', 'm.title', 'm.content', 'm.schema_code', 'm.object_id', 'm.receiver', 'u.name', 'u.mobile', 'u.email'])
        .where('d.id', '=', deliveryId)
        .executeTakeFirst();
      if (!row || row.state === 'Succeeded' || row.state === 'Failed') return { skipped: true };
      const channel = row.channel as OutsideChannel;
      const attempt = row.attempts + 1;
      const finish = (state: 'Succeeded' | 'Retrying' | 'Failed', detail: string) =>
        edb
          .updateTable('notification_deliveries')
          .set({ state, attempts: attempt, detail: detail.slice(0, 500), finished_time: state === 'Retrying' ? null : sql<Date>`now()` })
          .where('id', '=', deliveryId)
          .execute();

      const adapter = settings.adapters.get(channel);
      const config = adapter ? await settings.settingsOf(ctx.db, ctx.engineCode, channel) : null;
      if (!adapter || config === null) {
        await finish('Failed', '渠道未配置或已停用');
        return { state: 'Failed' };
      }
      const path = linkPath({ schemaCode: row.schema_code, objectId: row.object_id });
      const message: OutgoingMessage = {
        category: row.category,
        title: row.title,
        content: row.content,
        link: path ? new URL(path, settings.publicUrl).toString() : null,
        recipient: { userId: row.receiver, name: row.name ?? '', email: row.email ?? null, mobile: row.mobile ?? null },
      };
      try {
        const detail = await adapter.send(config, message);
        await finish('Succeeded', detail);
        return { state: 'Succeeded' };
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        const retryable = error instanceof ChannelError ? error.retryable : true;
        if (retryable && attempt < MAX_DELIVERY_ATTEMPTS) {
          await ctx.db.transaction().execute(async (trx) => {
            await ctx.assertOwned(trx as unknown as Db);
            await engineDb(trx as unknown as Db, ctx.engineCode)
              .updateTable('notification_deliveries')
              .set({ state: 'Retrying', attempts: attempt, detail: text.slice(0, 500) })
              .where('id', '=', deliveryId)
              .execute();
            await enqueueJob(trx as unknown as Db, {
              engineCode: ctx.engineCode,
              kind: NOTIFICATION_DELIVERY_JOB,
              payload: { deliveryId },
              delayMs: (settings.backoffMs ?? defaultBackoff)(attempt),
            });
          });
          return { state: 'Retrying' };
        }
        await finish('Failed', text);
        return { state: 'Failed' };
      }
    },
  };
}
