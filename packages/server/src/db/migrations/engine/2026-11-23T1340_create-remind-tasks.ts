import { sql, type Kysely } from 'kysely';

/**
 * Reminders (提醒, calls.md "Reminders and messages") and the flow center's list indexes (docs/decisions/0019).
 * A reminder goes to one receiver: a new todo, an urge, a CC, a transfer, added signers or a consult request. Read or
 * unread (taskState); nothing is deleted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('remind_tasks')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('receiver', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('todo', 'urge', 'circulate', 'forward', 'addsign', 'consult')`))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo('').check(sql`char_length(content) <= 1000`))
    .addColumn('sender', 'text')
    .addColumn('instance_id', 'uuid')
    .addColumn('work_item_id', 'uuid')
    .addColumn('schema_code', 'text')
    .addColumn('object_id', 'uuid')
    .addColumn('task_state', 'text', (c) => c.notNull().defaultTo('unread').check(sql`task_state in ('unread', 'read')`))
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('read_time', 'timestamptz')
    .execute();
  // The list (newest first) and the unread count of one receiver.
  await db.schema.createIndex('remind_tasks_receiver_idx').on('remind_tasks').columns(['receiver', 'created_time', 'id']).execute();
  await db.schema.createIndex('remind_tasks_unread_idx').on('remind_tasks').columns(['receiver']).where(sql<boolean>`task_state = 'unread'`).execute();
  // One "new todo" reminder per work item.
  await db.schema.createIndex('remind_tasks_todo_uq').on('remind_tasks').columns(['work_item_id']).unique().where(sql<boolean>`kind = 'todo'`).execute();

  // The flow center's tabs (the counts use wf_work_items_participant_idx): todo/toRead newest first, done by finish
  // time, apply by start time, and the instance tabs' "every instance I take part in".
  await db.schema.createIndex('wf_work_items_received_idx').on('wf_work_items').columns(['participant', 'item_type', 'created_time']).execute();
  await db.schema.createIndex('wf_work_items_done_idx').on('wf_work_items').columns(['participant', 'finished_time']).where(sql<boolean>`state in ('Finished', 'Forwarded', 'FinishedAndForwarded')`).execute();
  await db.schema.createIndex('wf_instances_started_idx').on('wf_instances').columns(['originator', 'created_time']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('wf_instances_started_idx').execute();
  await db.schema.dropIndex('wf_work_items_done_idx').execute();
  await db.schema.dropIndex('wf_work_items_received_idx').execute();
  await db.schema.dropTable('remind_tasks').execute();
}
