import { sql, type Kysely } from 'kysely';

/**
 * Outside notification channels (issue 20): the engine's e-mail (SMTP) and SMS provider settings, one row per kind,
 * and its chat-platform robots. Secrets (SMTP password, provider token, robot webhook address and signing secret)
 * are kept only as AES-256-GCM ciphertext in `secrets`; `settings` holds the rest. Users get an e-mail address for
 * the mail channel. Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_channels')
    .addColumn('kind', 'text', (c) => c.primaryKey().check(sql`kind in ('email', 'sms')`))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('secrets', 'text')
    .addColumn('modified_by', 'text', (c) => c.notNull())
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('notification_robots')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('platform', 'text', (c) => c.notNull().check(sql`platform in ('dingtalk', 'wecom', 'feishu')`))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('secrets', 'text', (c) => c.notNull())
    .addColumn('masked_url', 'text', (c) => c.notNull())
    .addColumn('has_secret', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.alterTable('org_users').addColumn('email', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('org_users').dropColumn('email').execute();
  await db.schema.dropTable('notification_robots').execute();
  await db.schema.dropTable('notification_channels').execute();
}
