import { sql, type Kysely } from 'kysely';

/**
 * Short links (POST /v1/bizdata/shortlink; issue 19): a short code that stands for a path of this site (a record, a
 * share or fill-in page), answered by GET /s/<code> with a redirect. Only paths of the site are kept, never another
 * host, so a short link cannot send anyone elsewhere. The same path of an engine keeps its one code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('platform.short_links')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('engine_code', 'text', (c) => c.notNull().references('platform.engines.engine_code').onDelete('cascade'))
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('short_links_target_key', ['engine_code', 'target'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('platform.short_links').execute();
}
