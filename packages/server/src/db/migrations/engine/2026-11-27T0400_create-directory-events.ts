import { sql, type Kysely } from 'kysely';

/**
 * Change events a chat platform pushed to the engine's directory callback (issue 25, docs/decisions/0077): which
 * departments or people changed, kept until an incremental sync applies them (applied_time) and then as its log.
 * Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('directory_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('subject_kind', 'text', (c) => c.notNull())
    .addColumn('subjects', 'jsonb', (c) => c.notNull())
    .addColumn('received_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('applied_time', 'timestamptz')
    .execute();
  await db.schema.createIndex('directory_events_pending').on('directory_events').columns(['provider', 'id']).where(sql.ref('applied_time'), 'is', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('directory_events').execute();
}
