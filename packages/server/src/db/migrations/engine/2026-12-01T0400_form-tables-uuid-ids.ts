import { type Kysely } from 'kysely';

/**
 * Whether a form table's system id columns (CreatedBy, ModifiedBy, OwnerId, OwnerDeptId, WorkflowInstanceId) are
 * `uuid` (docs/decisions/0128). Tables made before it hold them as text and are marked false until the storage job
 * (form-design/uuid-ids.job.ts) converts them, one table a transaction; tables made after it are uuid at once. The
 * query compiler and the data scopes read the mark with the form's tables: a text column and a uuid column compare
 * with a department list or a text parameter differently.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('form_tables').addColumn('uuid_ids', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('form_tables').dropColumn('uuid_ids').execute();
}
