import { sql, type Kysely } from 'kysely';

/**
 * Record share links (issue 19, form scene ExternalShare): one record shown read-only to anyone with the link, as the
 * member who shared it sees it. A record may have several links; each has its own token (in the URL), an optional
 * expiry and password (a scrypt hash). Revoking sets `revoked_time`, and the address is refused from then on.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('record_share_links')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_time', 'timestamptz')
    .execute();
  await db.schema.createIndex('record_share_links_record_idx').on('record_share_links').columns(['schema_code', 'object_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('record_share_links').execute();
}
