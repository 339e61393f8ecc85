import { sql, type Kysely } from 'kysely';

/**
 * Uploaded files (docs/decisions/0008): one row per file of the engine; the bytes live in the file store under
 * storage_key. A file is pending (schema_code, object_id and control_code all null) until a record claims it.
 * Runs inside one engine schema.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    // The upload scenes of domain.md §9 (text with a CHECK: the set grows).
    .addColumn('scene', 'text', (c) =>
      c.notNull().check(sql`scene in ('image', 'attachment', 'descriptionImage', 'gridImportFile', 'sns', 'handSign', 'ocrAttachment', 'ocrImage')`),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().check(sql`size >= 0`))
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('schema_code', 'text')
    .addColumn('object_id', 'text')
    .addColumn('control_code', 'text')
    .addCheckConstraint('files_claim_whole', sql`(schema_code is null) = (object_id is null) and (schema_code is null) = (control_code is null)`)
    .execute();
  await db.schema.createIndex('files_record_idx').on('files').columns(['schema_code', 'object_id']).execute();
  // Pending files by uploader and age: the clean-up of files never claimed reads this.
  await db.schema.createIndex('files_pending_idx').on('files').columns(['created_by', 'created_time']).where(sql.ref('schema_code'), 'is', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('files').execute();
}
