import { sql, type Kysely } from 'kysely';

/**
 * The engine's own recognition templates (docs/decisions/0125): which values a picture's text gives, by labels and
 * patterns or by the chat model. The built-in ones (VAT invoice, ID card, business licence, bank card) are code, not
 * rows. Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('recognition_templates')
    .addColumn('template_code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('rules').check(sql`mode in ('rules', 'model')`))
    .addColumn('fields', 'jsonb', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_by', 'text', (c) => c.notNull())
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('recognition_templates').execute();
}
