import { sql, type Kysely } from 'kysely';

/**
 * Face check (issue 44, docs/decisions/0123 "Face check"): each person's reference photo (one per user, a file of the
 * files module) and every comparison made for a form's face-recognition control. A check row is what a record's value
 * is set from: the save presents its id, and the row then names the record it went to.
 * Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('face_photos')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('file_id', 'uuid', (c) => c.notNull())
    .addColumn('uploaded_by', 'text', (c) => c.notNull())
    .addColumn('uploaded_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('face_checks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('control_code', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('matched', 'boolean', (c) => c.notNull())
    .addColumn('score', 'numeric', (c) => c.notNull())
    .addColumn('threshold', 'numeric', (c) => c.notNull())
    .addColumn('photo_file_id', 'uuid', (c) => c.notNull())
    .addColumn('provider_request_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('checked_by', 'text', (c) => c.notNull())
    .addColumn('checked_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('object_id', 'text')
    .execute();
  await db.schema.createIndex('face_checks_record').on('face_checks').columns(['schema_code', 'object_id', 'control_code']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('face_checks').execute();
  await db.schema.dropTable('face_photos').execute();
}
