import { sql, type Kysely } from 'kysely';

/**
 * Gantt charts (issue 23; docs/decisions/0054). What a chart adds to a form's records beyond their fields: a task's
 * kind (task or milestone) and its place among its siblings, and the finish-to-start links between records. Both are
 * the form's, not one view's: two Gantt views of a form show the same plan. Rows of removed records are skipped on
 * read and dropped when the record is removed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('gantt_tasks')
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('task_type', 'text', (c) => c.notNull().defaultTo('task'))
    .addColumn('sort_order', 'integer')
    .addPrimaryKeyConstraint('gantt_tasks_pkey', ['schema_code', 'object_id'])
    .execute();
  await db.schema
    .createTable('gantt_links')
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('predecessor_id', 'text', (c) => c.notNull())
    .addColumn('successor_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('gantt_links_pkey', ['schema_code', 'successor_id', 'predecessor_id'])
    .execute();
  // The loop check walks links forward from a task: by predecessor.
  await db.schema.createIndex('gantt_links_predecessor').on('gantt_links').columns(['schema_code', 'predecessor_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('gantt_links').execute();
  await db.schema.dropTable('gantt_tasks').execute();
}
