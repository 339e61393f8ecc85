import { sql, type Kysely } from 'kysely';

/**
 * Sample records an app package's install wrote (issue 46; docs/decisions/0130): found and cleared exactly by
 * them, whatever else was saved in the app's forms since. The install job is recorded too, so that removing a dead
 * attempt's rows and a retry finish it once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('app_sample_records')
    .addColumn('app_code', 'text', (c) => c.notNull())
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('app_sample_records_pk', ['schema_code', 'object_id'])
    .execute();
  await db.schema.createIndex('app_sample_records_app_idx').on('app_sample_records').column('app_code').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('app_sample_records').execute();
}
