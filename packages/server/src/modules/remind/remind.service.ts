import { sql, type SqlBool } from 'kysely';
import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, type NodeContext } from '../function-node/node-context.ts';
import { stillUnreadSql } from '../notification/settled-items.ts';

// Reminders (提醒; calls.md "Reminders and messages"; docs/decisions/0019): a receiver reads only their own rows.
// A to-do's reminder is settled once its work item is handled (notification/settled-items.ts).

type Out<T extends z.ZodType> = z.output<T>;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function listReminders(ctx: NodeContext, body: Out<typeof contracts.RemindTaskListBody>): Promise<Out<typeof contracts.RemindTaskListResult>> {
  const edb = engineOf(ctx);
  let q = edb.selectFrom('remind_tasks as r').where('r.receiver', '=', ctx.userId);
  const unread = stillUnreadSql(edb, 'r', 'task_state');
  if (body.taskState === 'unread') q = q.where(unread);
  else if (body.taskState === 'read') q = q.where(sql<SqlBool>`not ${unread}`);
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q
    .leftJoin('org_users as u', 'u.id', 'r.sender')
    .leftJoin('wf_instances as i', 'i.id', 'r.instance_id')
    .select(['r.id', 'r.kind', 'r.content', 'r.task_state', 'r.sender', 'r.instance_id', 'r.work_item_id', 'r.schema_code', 'r.object_id', 'r.created_time', 'r.read_time', 'u.name as sender_name', 'i.name as instance_name', unread.as('unread')])
    .orderBy('r.created_time', 'desc')
    .orderBy('r.id', 'desc')
    .limit(body.pageSize)
    .offset(body.pageIndex * body.pageSize)
    .execute();
  return {
    list: rows.map((r) => ({
      taskId: r.id,
      kind: r.kind as Out<typeof contracts.RemindTaskDto>['kind'],
      content: r.content,
      taskState: r.unread ? 'unread' : 'read',
      senderId: r.sender,
      senderName: r.sender_name ?? '',
      instanceId: r.instance_id,
      workItemId: r.work_item_id,
      schemaCode: r.schema_code,
      objectId: r.object_id,
      instanceName: r.instance_name ?? '',
      createdTime: iso(r.created_time)!,
      readTime: iso(r.read_time),
    })),
    total,
    hasMore: (body.pageIndex + 1) * body.pageSize < total,
  };
}

/** Marks the named reminders, or all of the caller's, as read. An id that is not the caller's refuses the whole call. */
export async function markRead(ctx: NodeContext, body: Out<typeof contracts.RemindTaskReadBody>): Promise<Out<typeof contracts.RemindTaskReadResult>> {
  const edb = engineOf(ctx);
  if (body.taskIds) {
    const mine = await edb.selectFrom('remind_tasks').select('id').where('receiver', '=', ctx.userId).where('id', 'in', body.taskIds).execute();
    const found = new Set(mine.map((r) => r.id));
    const missing = body.taskIds.filter((id) => !found.has(id));
    if (missing.length) throw new AppError('RemindTaskNotFound', { detail: { taskIds: missing } });
  }
  let q = edb.updateTable('remind_tasks').set({ task_state: 'read', read_time: new Date() }).where('receiver', '=', ctx.userId).where('task_state', '=', 'unread');
  if (body.taskIds) q = q.where('id', 'in', body.taskIds);
  const result = await q.executeTakeFirst();
  return { updated: Number(result.numUpdatedRows) };
}

export async function unreadCount(ctx: NodeContext): Promise<Out<typeof contracts.RemindUnreadCountResult>> {
  const edb = engineOf(ctx);
  const row = await edb
    .selectFrom('remind_tasks as r')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('r.receiver', '=', ctx.userId)
    .where(stillUnreadSql(edb, 'r', 'task_state'))
    .executeTakeFirstOrThrow();
  return { count: Number(row.n) };
}
