import { sql, type Kysely } from 'kysely';

/**
 * Open-query pages (issue 19, form scene OpenQuery): anyone with the link looks records of a form up by exact values of
 * the fields the administrator picked, and sees only the result fields picked. Access is public, by password (a scrypt
 * hash), or by identity — a mobile number proved with a code, which is matched against `mobile_field` as well. One
 * page a form; a new token revokes the old address. Queries run with `owner_id`'s rights.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('form_open_queries')
    .addColumn('schema_code', 'text', (c) => c.primaryKey())
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('access', 'text', (c) => c.notNull().check(sql`access in ('public', 'password', 'identity')`))
    .addColumn('password_hash', 'text')
    .addColumn('query_fields', 'jsonb', (c) => c.notNull())
    .addColumn('result_fields', 'jsonb', (c) => c.notNull())
    .addColumn('mobile_field', 'text')
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('form_open_queries').execute();
}
