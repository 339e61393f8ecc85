import type { Kysely } from 'kysely';

/**
 * When each pending task tip falls due (issues 20 and 21): one platform table, so the scheduler of any process finds
 * the due tips of every engine with one indexed read and claims them with FOR UPDATE SKIP LOCKED.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const p = db.withSchema('platform');
  await p.schema
    .createTable('task_tip_timers')
    .addColumn('engine_code', 'text', (c) => c.notNull().references('platform.engines.engine_code').onDelete('cascade'))
    .addColumn('tip_id', 'uuid', (c) => c.notNull())
    .addColumn('due_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('task_tip_timers_pk', ['engine_code', 'tip_id'])
    .execute();
  await p.schema.createIndex('task_tip_timers_due_idx').on('task_tip_timers').column('due_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.withSchema('platform').schema.dropTable('task_tip_timers').execute();
}
