import { sql, type Kysely } from 'kysely';

/**
 * List views (issue 8, docs/decisions/0017): the designed views of a form and each user's personal views. Runs inside
 * one engine schema. Both go with the form (cascade from form_schemas).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('list_views')
    .addColumn('schema_code', 'text', (c) => c.notNull().references('form_schemas.schema_code').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('sort_key', 'integer', (c) => c.notNull())
    // The whole ViewSetting (contracts/view), validated by the contract before it is written.
    .addColumn('setting', 'jsonb', (c) => c.notNull())
    .addColumn('modified_by', 'text', (c) => c.notNull())
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('list_views_pk', ['schema_code', 'code'])
    .execute();

  await db.schema
    .createTable('personal_views')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('schema_code', 'text', (c) => c.notNull().references('form_schemas.schema_code').onDelete('cascade'))
    .addColumn('view_page_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull().check(sql`char_length(title) between 1 and 50`))
    .addColumn('scope_type', 'integer', (c) => c.notNull().check(sql`scope_type in (1, 2, 3)`))
    .addColumn('setting_type', 'integer', (c) => c.notNull().check(sql`setting_type in (0, 1)`))
    .addColumn('config', 'jsonb', (c) => c.notNull())
    .addColumn('visible', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('fields', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('sort_key', 'integer', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('personal_views_user_idx').on('personal_views').columns(['user_id', 'schema_code', 'sort_key']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('personal_views').execute();
  await db.schema.dropTable('list_views').execute();
}
