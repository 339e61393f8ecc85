import type { Kysely } from 'kysely';

/**
 * The per-address request limits' counters when several server processes share one PostgreSQL database: one row per
 * route and address, bumped by one upsert, so every process counts against the same allowance (docs/decisions/0121).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .withSchema('platform')
    .schema.createTable('rate_limit_counters')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('reset_time', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.withSchema('platform').schema.createIndex('rate_limit_counters_reset_idx').on('rate_limit_counters').column('reset_time').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.withSchema('platform').schema.dropTable('rate_limit_counters').execute();
}
