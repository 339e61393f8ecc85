import { sql, type Kysely } from 'kysely';

/**
 * Business data (issue "Form runtime and business data", docs/decisions/0007): the data log of forms with
 * attributes.enableDataLog on. One row per save that changed values: who, when, and [{code, from, to}].
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('form_data_logs')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('object_id', 'uuid', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changes', 'jsonb', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('form_data_logs_object_idx').on('form_data_logs').columns(['schema_code', 'object_id', 'time']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('form_data_logs').execute();
}
