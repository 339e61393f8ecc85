import { sql, type Kysely } from 'kysely';

/**
 * Comments and task tips on records (issue "Form runtime and business data", docs/decisions/0009). Runs inside one
 * engine schema. A reply points at the comment it answers (reply_to) and at the top-level comment it is shown under
 * (root_id); both cascade, so removing a comment removes every reply under it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('form_comments')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('object_id', 'uuid', (c) => c.notNull())
    .addColumn('root_id', 'uuid', (c) => c.references('form_comments.id').onDelete('cascade'))
    .addColumn('reply_to', 'uuid', (c) => c.references('form_comments.id').onDelete('cascade'))
    // domain.md §9: a form comment holds up to 2000 characters (trimmed by the contract).
    .addColumn('text', 'text', (c) => c.notNull().check(sql`char_length(text) between 1 and 2000`))
    // The claimed files [{id, name, size, contentType}], at most 8 (scene sns).
    .addColumn('files', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('form_comments_reply_whole', sql`(root_id is null) = (reply_to is null)`)
    .execute();
  await db.schema.createIndex('form_comments_record_idx').on('form_comments').columns(['schema_code', 'object_id', 'created_time']).execute();
  await db.schema.createIndex('form_comments_root_idx').on('form_comments').column('root_id').execute();
  await db.schema.createIndex('form_comments_reply_to_idx').on('form_comments').column('reply_to').execute();

  await db.schema
    .createTable('form_task_tips')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('object_id', 'uuid', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull().check(sql`char_length(content) between 1 and 500`))
    .addColumn('remind_time', 'timestamptz', (c) => c.notNull())
    // Org user ids, as a JSON array.
    .addColumn('receiver_ids', 'jsonb', (c) => c.notNull())
    // Text with a CHECK rather than an enum type: the set may grow (conventions.md §7).
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending').check(sql`state in ('pending', 'cancelled', 'done')`))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('form_task_tips_record_idx').on('form_task_tips').columns(['schema_code', 'object_id', 'remind_time']).execute();
  // What a reminder scheduler reads: pending tips by time.
  await db.schema.createIndex('form_task_tips_due_idx').on('form_task_tips').column('remind_time').where(sql.ref('state'), '=', 'pending').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('form_task_tips').execute();
  await db.schema.dropTable('form_comments').execute();
}
