import { sql, type Kysely } from 'kysely';

/**
 * Rolling back an import (issue 17, docs/decisions/0031). `data_import_objects`: one row per record an import
 * created or updated, written in the batch's own transaction: what it did (insert wins over a later update of the
 * same record), the before-image of an updated record (its main row and its sub-table rows as the database's own
 * JSON, taken before the import's first write to it), and a fingerprint of the record after the import's last
 * write (main row, sub-table rows, workflow instance) — a roll back refuses a record whose fingerprint changed
 * since. `rollback`/`rollback_note` say what the roll back did with it (null: not yet), so a roll back that died
 * goes on where it stopped. `data_port_tasks.rollback_job_id`: the roll back's platform job (one per task, ever).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('data_import_objects')
    .addColumn('task_id', 'uuid', (c) => c.notNull().references('data_port_tasks.id').onDelete('cascade'))
    .addColumn('object_id', 'uuid', (c) => c.notNull())
    .addColumn('row_no', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('insert', 'update')`))
    .addColumn('before_main', 'jsonb')
    .addColumn('before_children', 'jsonb')
    .addColumn('after_hash', 'text', (c) => c.notNull())
    .addColumn('rollback', 'text', (c) => c.check(sql`rollback in ('deleted', 'restored', 'refused', 'gone')`))
    .addColumn('rollback_note', 'text')
    .addPrimaryKeyConstraint('data_import_objects_pk', ['task_id', 'object_id'])
    .execute();
  await db.schema.alterTable('data_port_tasks').addColumn('rollback_job_id', 'uuid').execute();
  await db.schema.alterTable('data_port_tasks').addColumn('rollback_by', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('data_port_tasks').dropColumn('rollback_by').execute();
  await db.schema.alterTable('data_port_tasks').dropColumn('rollback_job_id').execute();
  await db.schema.dropTable('data_import_objects').execute();
}
