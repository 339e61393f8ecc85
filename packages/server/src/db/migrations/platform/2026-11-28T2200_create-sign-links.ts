import { sql, type Kysely } from 'kysely';

/**
 * Phone signing links (手机签名, docs/decisions/0114): a member asks for a one-use link that lets a phone sign one
 * hand-sign field of a record (`object_id`) or of a new record (null) until `expires_time`. Only the SHA-256 of the
 * token is kept. The names shown on the phone are taken when the link is made; `file` is the signature's file value
 * once signed (`used_time`). Kept in the platform schema: the phone names no engine.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('platform.sign_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('engine_code', 'text', (c) => c.notNull().references('platform.engines.engine_code').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('control_code', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text')
    .addColumn('form_name', 'text', (c) => c.notNull())
    .addColumn('field_name', 'text', (c) => c.notNull())
    .addColumn('record_title', 'text')
    .addColumn('expires_time', 'timestamptz', (c) => c.notNull())
    .addColumn('used_time', 'timestamptz')
    .addColumn('file', 'jsonb')
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sign_links_expires').on('platform.sign_links').column('expires_time').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('platform.sign_links').execute();
}
