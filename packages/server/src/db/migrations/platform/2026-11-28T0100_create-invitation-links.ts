import { sql, type Kysely } from 'kysely';

/**
 * Invitation links (邀请链接, docs/decisions/0112): an engine's Administrator issues a link that lets whoever opens it
 * join the engine as a member of `department_id` until `expires_time`, unless revoked. Only the SHA-256 of the
 * token is kept (unique); `join_count` counts the people who joined through the link.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('platform.invitation_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('engine_code', 'text', (c) => c.notNull().references('platform.engines.engine_code').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('department_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('expires_time', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_time', 'timestamptz')
    .addColumn('revoked_by', 'text')
    .addColumn('join_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('invitation_links_engine').on('platform.invitation_links').columns(['engine_code', 'created_time']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('platform.invitation_links').execute();
}
