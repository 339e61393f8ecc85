import { sql, type Kysely } from 'kysely';

/**
 * The open API (docs/decisions/0021): secrets an Administrator issues for POST /OpenApi/Invoke. Only a SHA-256 hash
 * of each secret is kept, with its first and last characters for the list; revoking stamps revoked_time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('engine_secrets')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('masked', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_time', 'timestamptz')
    .addColumn('revoked_time', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('engine_secrets').execute();
}
