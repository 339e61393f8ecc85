import { sql, type Kysely } from 'kysely';

/**
 * App templates and sharing between engines (docs/decisions/0131). A template names an app package (the package
 * layer's row, docs/decisions/0130) and says who sees it: `Platform` templates every engine (the built-in ones among
 * them, `built_in`), `Engine` templates their publisher engine and the engines in `template_shares`. Names are unique
 * per scope (per publisher engine for `Engine`); publishing the same app again in the same scope makes a new version
 * of the same row. Built-in rows are found by their manifest code and package digest, so registering them again
 * (several processes starting together) changes nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('platform.templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('scope', 'text', (c) => c.notNull().check(sql`scope in ('Engine', 'Platform')`))
    .addColumn('publisher_engine', 'text', (c) => c.references('platform.engines.engine_code').onDelete('cascade'))
    .addColumn('source_app_code', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('icon', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('icon_color', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('pictures', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('package_id', 'text', (c) => c.notNull())
    .addColumn('package_sha256', 'text')
    .addColumn('package_summary', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('built_in', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('published_by', 'text')
    .addColumn('published_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('install_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create unique index templates_platform_name on platform.templates (lower(name)) where scope = 'Platform'`.execute(db);
  await sql`create unique index templates_engine_name on platform.templates (publisher_engine, lower(name)) where scope = 'Engine'`.execute(db);
  await sql`create unique index templates_source_app on platform.templates (publisher_engine, source_app_code, scope) where source_app_code is not null`.execute(db);
  await db.schema
    .createTable('platform.template_shares')
    .addColumn('template_id', 'text', (c) => c.notNull().references('platform.templates.id').onDelete('cascade'))
    .addColumn('engine_code', 'text', (c) => c.notNull().references('platform.engines.engine_code').onDelete('cascade'))
    .addColumn('shared_by', 'text', (c) => c.notNull())
    .addColumn('shared_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('template_shares_pk', ['template_id', 'engine_code'])
    .execute();
  await db.schema.createIndex('template_shares_engine').on('platform.template_shares').column('engine_code').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('platform.template_shares').execute();
  await db.schema.dropTable('platform.templates').execute();
}
