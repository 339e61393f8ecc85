import { sql, type SqlBool } from 'kysely';
import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { UserAuthType } from '@tritium/shared/constants/org';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { ENGINE_DEFAULTS, readPreferences, savePreferences } from './preferences.ts';
import { stillUnreadSql } from './settled-items.ts';

// The message center (消息中心; calls.md "Reminders and messages"): a receiver reads and marks only their own
// messages. Preferences are the caller's own; the engine's defaults and the delivery log are the administrator's.

type Out<T extends z.ZodType> = z.output<T>;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function listMessages(ctx: NodeContext, body: Out<typeof contracts.InternalMessageListBody>): Promise<contracts.InternalMessageListResult> {
  const edb = engineOf(ctx);
  let q = edb.selectFrom('internal_messages as m').where('m.receiver', '=', ctx.userId);
  const unread = stillUnreadSql(edb, 'm', 'state');
  if (body.state === 'unread') q = q.where(unread);
  else if (body.state === 'read') q = q.where(sql<SqlBool>`not ${unread}`);
  if (body.category) q = q.where('m.category', '=', body.category);
  const rows = await q
    .leftJoin('org_users as u', 'u.id', 'm.sender')
    .select(['m.id', 'm.seq', 'm.category', 'm.title', 'm.content', 'm.sender', 'm.state', 'm.schema_code', 'm.object_id', 'm.work_item_id', 'm.instance_id', 'm.created_time', 'm.read_time', 'u.name as sender_name', unread.as('unread')])
    .select(sql<number>`count(*) over ()`.as('total'))
    .orderBy('m.seq', 'desc')
    .limit(body.pageSize)
    .offset(body.pageIndex * body.pageSize)
    .execute();
  const total = rows.length ? Number(rows[0]!.total) : body.pageIndex === 0 ? 0 : Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return {
    list: rows.map((r) => ({
      messageId: r.id,
      seq: Number(r.seq),
      category: r.category as contracts.InternalMessageDto['category'],
      title: r.title,
      content: r.content,
      senderId: r.sender,
      senderName: r.sender_name ?? '',
      state: r.unread ? 'unread' : 'read',
      link: { schemaCode: r.schema_code, objectId: r.object_id, workItemId: r.work_item_id, instanceId: r.instance_id },
      createdTime: iso(r.created_time)!,
      readTime: iso(r.read_time),
    })),
    total,
    hasMore: (body.pageIndex + 1) * body.pageSize < total,
  };
}

/** Marks the named messages, or all of the caller's (of one category), read. An id not the caller's refuses the call. */
export async function markMessagesRead(ctx: NodeContext, body: Out<typeof contracts.InternalMessageReadBody>): Promise<{ updated: number }> {
  const edb = engineOf(ctx);
  if (body.messageIds) {
    const mine = await edb.selectFrom('internal_messages').select('id').where('receiver', '=', ctx.userId).where('id', 'in', body.messageIds).execute();
    const found = new Set(mine.map((r) => r.id));
    const missing = body.messageIds.filter((id) => !found.has(id));
    if (missing.length) throw new AppError('InternalMessageNotFound', { detail: { messageIds: missing } });
  }
  let q = edb.updateTable('internal_messages').set({ state: 'read', read_time: new Date() }).where('receiver', '=', ctx.userId).where('state', '=', 'unread');
  if (body.messageIds) q = q.where('id', 'in', body.messageIds);
  if (body.category) q = q.where('category', '=', body.category);
  const result = await q.executeTakeFirst();
  return { updated: Number(result.numUpdatedRows) };
}

/** The caller's unread messages, in all and per category (one statement on the unread index). */
export async function countMessages(ctx: NodeContext): Promise<contracts.InternalMessageCountResult> {
  const edb = engineOf(ctx);
  const rows = await edb
    .selectFrom('internal_messages as m')
    .select(['m.category', (eb) => eb.fn.countAll<number>().as('n')])
    .where('m.receiver', '=', ctx.userId)
    .where(stillUnreadSql(edb, 'm', 'state'))
    .groupBy('m.category')
    .execute();
  const categories = rows.map((r) => ({ category: r.category as contracts.InternalMessageDto['category'], unread: Number(r.n) }));
  return { unread: categories.reduce((sum, c) => sum + c.unread, 0), categories };
}

export function getPreferences(ctx: NodeContext): Promise<contracts.NotificationPreferenceResult> {
  return readPreferences(engineOf(ctx), ctx.userId);
}

export async function setPreferences(ctx: NodeContext, body: Out<typeof contracts.NotificationPreferenceSaveBody>): Promise<contracts.NotificationPreferenceResult> {
  if (body.engineDefaults && ctx.authType !== UserAuthType.Administrator) throw new AppError('NotificationDefaultsAdminOnly');
  if (new Set(body.preferences.map((p) => p.category)).size !== body.preferences.length) throw new AppError('NotificationCategoryRepeated');
  await savePreferences(engineOf(ctx), body.engineDefaults ? ENGINE_DEFAULTS : ctx.userId, body.preferences);
  return getPreferences(ctx);
}

/** The administrator's delivery log, newest first. */
export async function listDeliveries(ctx: NodeContext, body: Out<typeof contracts.DeliveryListBody>): Promise<contracts.DeliveryListResult> {
  if (ctx.authType !== UserAuthType.Administrator) throw new AppError('Forbidden');
  let q = engineOf(ctx).selectFrom('notification_deliveries as d').innerJoin('internal_messages as m', 'm.id', 'd.message_id');
  if (body.state) q = q.where('d.state', '=', body.state);
  if (body.channel) q = q.where('d.channel', '=', body.channel);
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q
    .leftJoin('org_users as u', 'u.id', 'm.receiver')
    .select(['d.id', 'd.channel', 'd.state', 'd.attempts', 'd.detail', 'd.created_time', 'd.finished_time', 'm.receiver', 'm.title', 'm.category', 'u.name as receiver_name'])
    .orderBy('d.created_time', 'desc')
    .orderBy('d.id', 'desc')
    .limit(body.pageSize)
    .offset(body.pageIndex * body.pageSize)
    .execute();
  return {
    list: rows.map((r) => ({
      deliveryId: r.id,
      channel: r.channel as contracts.DeliveryDto['channel'],
      state: r.state as contracts.DeliveryDto['state'],
      attempts: r.attempts,
      receiverId: r.receiver,
      receiverName: r.receiver_name ?? '',
      title: r.title,
      category: r.category as contracts.DeliveryDto['category'],
      detail: r.detail,
      createdTime: iso(r.created_time)!,
      finishedTime: iso(r.finished_time),
    })),
    total,
    hasMore: (body.pageIndex + 1) * body.pageSize < total,
  };
}
