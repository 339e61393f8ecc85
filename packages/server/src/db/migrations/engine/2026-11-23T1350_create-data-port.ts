import { sql, type Kysely } from 'kysely';

/**
 * Excel import and export tasks (issue 10, docs/decisions/0020). `data_port_tasks`: one row per task, its id the
 * platform job's id (the job holds the state, progress and lease; this row what the task is about and its counts).
 * `data_import_rows`: every file row an import committed, written in the batch's own transaction, so a retried
 * task skips exactly the rows that are already in (never a row twice).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('data_port_tasks')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('Import', 'Export')`))
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('file_id', 'uuid')
    .addColumn('file_name', 'text')
    .addColumn('options', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('inserted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rejected', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('result_file_id', 'uuid')
    .addColumn('report_file_id', 'uuid')
    .execute();
  await db.schema.createIndex('data_port_tasks_user_idx').on('data_port_tasks').columns(['created_by', 'created_time']).execute();
  await db.schema
    .createTable('data_import_rows')
    .addColumn('task_id', 'uuid', (c) => c.notNull().references('data_port_tasks.id').onDelete('cascade'))
    .addColumn('row_no', 'integer', (c) => c.notNull())
    .addColumn('object_id', 'uuid', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('insert', 'update')`))
    .addPrimaryKeyConstraint('data_import_rows_pk', ['task_id', 'row_no'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('data_import_rows').execute();
  await db.schema.dropTable('data_port_tasks').execute();
}
