import { sql, type Kysely } from 'kysely';

/**
 * Public fill-in links (issue 19, form scene ExternalForm): anyone with the link submits the form without an account.
 * One link a form; its token is in the URL (a new token revokes the old at once). `submissions` counts what came in
 * against `max_submissions`, changed in the transaction that stores the submission. The password is kept as a scrypt
 * hash. Submissions are owned by `owner_id`, with that person's rights.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('form_public_links')
    .addColumn('schema_code', 'text', (c) => c.primaryKey())
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('max_submissions', 'integer', (c) => c.check(sql`max_submissions is null or max_submissions > 0`))
    .addColumn('submissions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('form_public_links').execute();
}
