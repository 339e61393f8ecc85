import { sql, type Kysely } from 'kysely';

/**
 * Plugin instances of an engine (docs/decisions/0123): one row per template installed or once installed, and one per
 * plugin the engine authors. Secret settings are sealed (AES-256-GCM, the notification channels' box).
 * Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('plugin_instances')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('template_code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('notInstalled').check(sql`status in ('notInstalled', 'installing', 'installed')`))
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('secrets', 'text')
    .addColumn('publication', 'text', (c) => c.check(sql`publication is null or publication in ('prePublish', 'underReview', 'published')`))
    .addColumn('definition', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('last_error', 'text')
    .addColumn('installed_by', 'text')
    .addColumn('installed_time', 'timestamptz')
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('plugin_instances_template').on('plugin_instances').column('template_code').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('plugin_instances').execute();
}
