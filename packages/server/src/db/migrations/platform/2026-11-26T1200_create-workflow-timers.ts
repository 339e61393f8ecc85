import { sql, type Kysely } from 'kysely';

/**
 * The workflow's timers across engines (issue 21; docs/decisions/0042): one row per work item and kind — `timeout`
 * at the item's deadline, `urge` at its next scheduled urge. The scheduler's sweep takes the rows due (fire_at ≤ now,
 * FOR UPDATE SKIP LOCKED), acts on the item in the same transaction and deletes or moves the row; a row whose item
 * was closed meanwhile is just deleted. `attempts` counts failed runs (each pushes fire_at back).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const p = db.withSchema('platform');
  await p.schema
    .createTable('workflow_timers')
    .addColumn('engine_code', 'text', (c) => c.notNull())
    .addColumn('work_item_id', 'uuid', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('timeout', 'urge')`))
    .addColumn('fire_at', 'timestamptz', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('workflow_timers_pk', ['engine_code', 'work_item_id', 'kind'])
    .execute();
  await p.schema.createIndex('workflow_timers_fire_at_idx').on('workflow_timers').column('fire_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.withSchema('platform').schema.dropTable('workflow_timers').execute();
}
