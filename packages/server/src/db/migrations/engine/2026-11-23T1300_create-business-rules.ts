import { sql, type Kysely } from 'kysely';

/**
 * Business rules and cross-form dependencies (docs/decisions/0015). A form's rules are saved as a draft and go live
 * when the form is published. form_dependencies is written at publish from the published definitions: which forms
 * a form's rollups read (kind 'rollup', item = the rollup control) and which forms its rules write (kind 'rule',
 * item = the rule id). A record's save looks up the rollups to refresh by (depends_on, kind).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('form_business_rules')
    .addColumn('schema_code', 'text', (c) => c.primaryKey())
    .addColumn('draft', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('published', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('saved_by', 'text')
    .addColumn('saved_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('published_time', 'timestamptz')
    .execute();
  await db.schema
    .createTable('form_dependencies')
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('item', 'text', (c) => c.notNull())
    .addColumn('depends_on', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('form_dependencies_pk', ['schema_code', 'kind', 'item', 'depends_on'])
    .execute();
  await db.schema.createIndex('form_dependencies_depends_on').on('form_dependencies').columns(['depends_on', 'kind']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('form_dependencies').execute();
  await db.schema.dropTable('form_business_rules').execute();
}
