import { sql, type Kysely } from 'kysely';

/**
 * Print templates and print tasks (issue 24; docs/decisions/0050). A template belongs to a form (at most 100 a form,
 * counted by the service under a lock of the form's rows); its layout is the shared model's JSON. A print task is a
 * platform job (same id) that makes one PDF: what it prints (the selection or the view) is here, its state in
 * platform.jobs; the PDF is a file of the engine kept until `expires_at`, then swept.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('print_templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('layout', 'jsonb', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('print_templates_name_unique', ['schema_code', 'name'])
    .execute();
  await db.schema
    .createTable('print_tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('template_id', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('selection', 'jsonb', (c) => c.notNull())
    .addColumn('total', 'integer')
    .addColumn('pages', 'integer')
    .addColumn('file_id', 'text')
    .addColumn('expires_at', 'timestamptz')
    .execute();
  // Excel templates (at most 20 a form): the workbook's bytes are kept here, with their placeholders.
  await db.schema
    .createTable('print_excel_templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('schema_code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('workbook', 'bytea', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('print_excel_templates_name_unique', ['schema_code', 'name'])
    .execute();
  await db.schema.createIndex('print_tasks_expiry').on('print_tasks').column('expires_at').where(sql.ref('file_id'), 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('print_excel_templates').execute();
  await db.schema.dropTable('print_tasks').execute();
  await db.schema.dropTable('print_templates').execute();
}
