import { sql, type Kysely } from 'kysely';

/**
 * Custom code (docs/decisions/0118): `custom_codes` holds the current source of each part — a form's server script,
 * a form's browser script (with its compiled JavaScript), an app's custom APIs (schema_code null) — and
 * `custom_code_versions` every save. Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('custom_codes')
    .addColumn('app_code', 'text', (c) => c.notNull())
    .addColumn('schema_code', 'text')
    .addColumn('part', 'text', (c) => c.notNull().check(sql`part in ('form-server', 'form-browser', 'app-api')`))
    .addColumn('language', 'text', (c) => c.notNull().check(sql`language in ('ts', 'js')`))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('compiled', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // An app's own part has no schema: nulls count as one value (PostgreSQL 15+).
    .addUniqueConstraint('custom_codes_owner', ['app_code', 'schema_code', 'part'], (u) => u.nullsNotDistinct())
    .execute();
  await db.schema
    .createTable('custom_code_versions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('app_code', 'text', (c) => c.notNull())
    .addColumn('schema_code', 'text')
    .addColumn('part', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('author', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('custom_code_versions_owner', ['app_code', 'schema_code', 'part', 'version'], (u) => u.nullsNotDistinct())
    .execute();
  // The request context caches each form's scripts under the engine's 'forms' version (custom-code/load-script.ts).
  const table = sql.raw(db.selectFrom('custom_codes').selectAll().compile().sql.replace(/^select \* from /, ''));
  await sql`create trigger custom_codes_context_version after insert or update or delete or truncate on ${table}
    for each statement execute function platform.bump_context_version('forms')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('custom_code_versions').execute();
  await db.schema.dropTable('custom_codes').execute();
}
