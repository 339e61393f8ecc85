import { sql, type Kysely } from 'kysely';

/**
 * Reports and dashboards (issue 22; docs/decisions/0044): the board of a report (220) or dashboard (270) node — its
 * widgets, filters and refresh — as one JSON document validated by the shared model on every save.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('boards')
    .addColumn('node_code', 'text', (c) => c.primaryKey())
    .addColumn('definition', 'jsonb', (c) => c.notNull())
    .addColumn('modified_by', 'text', (c) => c.notNull())
    .addColumn('modified_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('boards').execute();
}
