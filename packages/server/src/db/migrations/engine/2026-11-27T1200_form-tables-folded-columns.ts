import { sql, type Kysely } from 'kysely';

/**
 * The text columns of a form's main table that have a lowered twin (docs/decisions/0103): written by the publish (and
 * the search index backfill) in the transaction that makes the twins, read with the form's tables. Forms published
 * before it list none, and their "contains" filters stay ILIKE until the backfill or their next publish lays the twins.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('form_tables').addColumn('folded_columns', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('form_tables').dropColumn('folded_columns').execute();
}
