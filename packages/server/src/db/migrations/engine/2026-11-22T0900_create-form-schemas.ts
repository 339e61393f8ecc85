import { sql, type Kysely } from 'kysely';

/**
 * Form design (issue "Form designer and schema publishing", docs/decisions/0006): per form node its saved draft and
 * its published definition, the physical tables publishing created (i_… names chosen once and kept), the custom
 * indexes (domain.md §5: up to 5 of 5 fields) and the sequence-number counters. Runs inside one engine schema.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('form_schemas')
    .addColumn('schema_code', 'text', (c) => c.primaryKey().references('function_nodes.code').onDelete('cascade'))
    .addColumn('draft', 'jsonb', (c) => c.notNull())
    .addColumn('draft_version', 'integer', (c) => c.notNull())
    .addColumn('draft_saved_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('published', 'jsonb')
    .addColumn('published_version', 'integer')
    .addColumn('published_time', 'timestamptz')
    .addColumn('modified_by', 'text')
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // One row per physical table of a form: the main table (grid_key '') and one per sub-table (grid_key: the grid
  // view's code, lower-cased). The name is chosen when the table is created and never derived again.
  await db.schema
    .createTable('form_tables')
    .addColumn('table_name', 'text', (c) => c.primaryKey())
    .addColumn('schema_code', 'text', (c) => c.notNull().references('form_schemas.schema_code').onDelete('cascade'))
    .addColumn('grid_key', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('form_tables_grid_uq', ['schema_code', 'grid_key'])
    .execute();

  await db.schema
    .createTable('form_custom_indexes')
    .addColumn('index_name', 'text', (c) => c.primaryKey())
    .addColumn('schema_code', 'text', (c) => c.notNull().references('form_schemas.schema_code').onDelete('cascade'))
    // Column names of the main table, in index order.
    .addColumn('fields', 'jsonb', (c) => c.notNull())
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('form_custom_indexes_schema_idx').on('form_custom_indexes').column('schema_code').execute();

  await db.schema
    .createTable('form_seq_no')
    .addColumn('schema_code', 'text', (c) => c.notNull().references('form_schemas.schema_code').onDelete('cascade'))
    .addColumn('control_code', 'text', (c) => c.notNull())
    // '' for a counter that never resets; yyyy, yyyymm or yyyymmdd for yearly, monthly or daily resets.
    .addColumn('period', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('value', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('form_seq_no_pk', ['schema_code', 'control_code', 'period'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('form_seq_no').execute();
  await db.schema.dropTable('form_custom_indexes').execute();
  await db.schema.dropTable('form_tables').execute();
  await db.schema.dropTable('form_schemas').execute();
}
