import { sql, type Kysely } from 'kysely';

/**
 * Work notifications in the chat apps and the attendance step (issue 44, docs/decisions/0123 "Chat apps"). The
 * notification channels gain the kind `chatApp` (its settings: which of the engine's chat platforms carry personal work
 * messages) and deliveries the channel `chatApp`. `attendance_punches` remembers each punch already written: the
 * platform's punch key → the record made of it, so that a second run over the same days writes nothing twice.
 * Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notification_channels').dropConstraint('notification_channels_kind_check').ifExists().execute();
  await db.schema.alterTable('notification_channels').addCheckConstraint('notification_channels_kind_check', sql`kind in ('email', 'sms', 'chatApp')`).execute();
  await db.schema.alterTable('notification_deliveries').dropConstraint('notification_deliveries_channel_check').ifExists().execute();
  await db.schema.alterTable('notification_deliveries').addCheckConstraint('notification_deliveries_channel_check', sql`channel in ('email', 'sms', 'robot', 'chatApp')`).execute();
  await db.schema
    .createTable('attendance_punches')
    .addColumn('platform', 'text', (c) => c.notNull().check(sql`platform in ('dingtalk', 'wxwork')`))
    .addColumn('punch_key', 'text', (c) => c.notNull())
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('attendance_punches_pkey', ['platform', 'punch_key', 'schema_code'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('attendance_punches').execute();
  await db.deleteFrom('notification_deliveries').where('channel', '=', 'chatApp').execute();
  await db.deleteFrom('notification_channels').where('kind', '=', 'chatApp').execute();
  await db.schema.alterTable('notification_deliveries').dropConstraint('notification_deliveries_channel_check').ifExists().execute();
  await db.schema.alterTable('notification_deliveries').addCheckConstraint('notification_deliveries_channel_check', sql`channel in ('email', 'sms', 'robot')`).execute();
  await db.schema.alterTable('notification_channels').dropConstraint('notification_channels_kind_check').ifExists().execute();
  await db.schema.alterTable('notification_channels').addCheckConstraint('notification_channels_kind_check', sql`kind in ('email', 'sms')`).execute();
}
