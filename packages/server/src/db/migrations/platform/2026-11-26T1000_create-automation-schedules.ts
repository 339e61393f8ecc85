import { sql, type Kysely } from 'kysely';

/**
 * When each timed and date-triggered automation is next looked at (issue 21; docs/decisions/0041): one platform
 * table, so the scheduler of any process finds what fell due in every engine with one indexed read and claims it with
 * FOR UPDATE SKIP LOCKED. `scanned_until`: a date trigger has fired for every record time up to it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const p = db.withSchema('platform');
  await p.schema
    .createTable('automation_schedules')
    .addColumn('engine_code', 'text', (c) => c.notNull().references('platform.engines.engine_code').onDelete('cascade'))
    .addColumn('automation_id', 'uuid', (c) => c.notNull())
    .addColumn('next_run_at', 'timestamptz', (c) => c.notNull())
    .addColumn('scanned_until', 'timestamptz')
    .addPrimaryKeyConstraint('automation_schedules_pk', ['engine_code', 'automation_id'])
    .execute();
  await p.schema.createIndex('automation_schedules_due_idx').on('automation_schedules').column('next_run_at').execute();
  void sql;
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.withSchema('platform').schema.dropTable('automation_schedules').execute();
}
