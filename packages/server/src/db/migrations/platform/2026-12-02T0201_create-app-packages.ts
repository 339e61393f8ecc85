import { sql, type Kysely } from 'kysely';

/**
 * App packages (issue 46; docs/decisions/0130): a package built from an app or uploaded as a file, checked when it was
 * stored. Its bytes live in the file store under `app-packages/<id>`; the owner is the engine that made or uploaded it
 * (null: the platform's own, such as built-in templates shipped with the code).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .withSchema('platform')
    .schema.createTable('app_packages')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('engine_code', 'text')
    .addColumn('format_version', 'integer', (c) => c.notNull())
    .addColumn('byte_size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('summary', 'jsonb', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.withSchema('platform').schema.createIndex('app_packages_engine_idx').on('app_packages').columns(['engine_code', 'created_time']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.withSchema('platform').schema.dropTable('app_packages').execute();
}
