import { sql, type Kysely } from 'kysely';

/**
 * The message center (消息中心) and notification deliveries (issue 20; docs/decisions/0038). A message goes to one
 * receiver; `seq` orders an engine's messages and is the live stream's event id, so a browser that reconnects with
 * Last-Event-ID is sent what it missed. A delivery is one message over one outside channel (e-mail, SMS, a robot),
 * with its attempts: the administrator's delivery log. Preferences: which outside channels carry a category, per user
 * over the engine's defaults (owner '*').
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('internal_messages')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('receiver', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull().check(sql`category in ('workflow', 'comment', 'tasktip', 'dataport', 'automation', 'system')`))
    .addColumn('title', 'text', (c) => c.notNull().check(sql`char_length(title) <= 200`))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo('').check(sql`char_length(content) <= 2000`))
    .addColumn('sender', 'text')
    .addColumn('schema_code', 'text')
    .addColumn('object_id', 'text')
    .addColumn('work_item_id', 'uuid')
    .addColumn('instance_id', 'uuid')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('unread').check(sql`state in ('unread', 'read')`))
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('read_time', 'timestamptz')
    .execute();
  // A receiver's list newest first (and the replay after a Last-Event-ID), and their unread count by category.
  await db.schema.createIndex('internal_messages_receiver_idx').on('internal_messages').columns(['receiver', 'seq']).execute();
  await db.schema.createIndex('internal_messages_unread_idx').on('internal_messages').columns(['receiver', 'category']).where(sql<boolean>`state = 'unread'`).execute();

  await db.schema
    .createTable('notification_deliveries')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('message_id', 'uuid', (c) => c.notNull().references('internal_messages.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('email', 'sms', 'robot')`))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('Waiting').check(sql`state in ('Waiting', 'Succeeded', 'Retrying', 'Failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('detail', 'text')
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_time', 'timestamptz')
    .execute();
  await db.schema.createIndex('notification_deliveries_log_idx').on('notification_deliveries').columns(['created_time', 'id']).execute();
  await db.schema.createIndex('notification_deliveries_message_idx').on('notification_deliveries').column('message_id').execute();

  await db.schema
    .createTable('notification_preferences')
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('channels', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addPrimaryKeyConstraint('notification_preferences_pk', ['owner', 'category'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_preferences').execute();
  await db.schema.dropTable('notification_deliveries').execute();
  await db.schema.dropTable('internal_messages').execute();
}
