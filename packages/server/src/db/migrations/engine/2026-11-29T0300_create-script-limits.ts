import { sql, type Kysely } from 'kysely';

/**
 * The engine's own limits of a script run (docs/decisions/0118): one row at most; without it the platform's
 * defaults (2,000 ms of CPU, 64 MB). Frozen: repeats what it needs rather than importing application code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('script_limits')
    .addColumn('id', 'smallint', (c) => c.primaryKey().defaultTo(1).check(sql`id = 1`))
    .addColumn('cpu_ms', 'integer', (c) => c.notNull())
    .addColumn('memory_mb', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Read on every run from the request context's cache, under the engine's 'forms' version.
  const table = sql.raw(db.selectFrom('script_limits').selectAll().compile().sql.replace(/^select \* from /, ''));
  await sql`create trigger script_limits_context_version after insert or update or delete or truncate on ${table}
    for each statement execute function platform.bump_context_version('forms')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('script_limits').execute();
}
