import { sql, type Kysely } from 'kysely';

/**
 * The business log (docs/decisions/0118): every script run writes a summary row (its outcome, duration_ms set) and one
 * row per line the script logged (duration_ms null). Read newest first by app, form, level, time and text; kept 30
 * days by a daily clean-up. Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('biz_logs')
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('app_code', 'text', (c) => c.notNull())
    .addColumn('schema_code', 'text')
    .addColumn('part', 'text', (c) => c.notNull().check(sql`part in ('form-server', 'app-api', 'form-browser')`))
    .addColumn('handler', 'text', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull().check(sql`level in ('info', 'warn', 'error')`))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('line', 'integer')
    .addColumn('duration_ms', 'integer')
    .addColumn('request_id', 'text')
    .addColumn('user_id', 'text')
    .execute();
  // Newest first, within the engine, an app or a form; the clean-up deletes by time.
  await db.schema.createIndex('biz_logs_at').on('biz_logs').columns(['at', 'id']).execute();
  await db.schema.createIndex('biz_logs_app_at').on('biz_logs').columns(['app_code', 'at', 'id']).execute();
  await db.schema.createIndex('biz_logs_schema_at').on('biz_logs').columns(['schema_code', 'at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('biz_logs').execute();
}
