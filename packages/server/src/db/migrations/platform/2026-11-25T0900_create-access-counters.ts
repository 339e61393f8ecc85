import { sql, type Kysely } from 'kysely';

/**
 * Counters that guard access and have no row of their own to count on (code sends per client address): one row per
 * key and window, bumped with a single upsert so that parallel requests count one each (docs/decisions/0027).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .withSchema('platform')
    .schema.createTable('access_counters')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.withSchema('platform').schema.dropTable('access_counters').execute();
}
