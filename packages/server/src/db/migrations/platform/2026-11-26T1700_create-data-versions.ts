import { sql, type Kysely } from 'kysely';

/**
 * Data versions (issue 22; docs/decisions/0044): one counter per physical table, keyed by its oid, bumped by a
 * statement-level trigger in the transaction of every write — whichever code path writes (saves, imports, batch
 * updates, workflows, rollups). The report cache trusts a result only while the versions of the tables it read are
 * unchanged. A table gets its trigger the first time a report reads it; a table created again has a new oid, so it
 * gets a new row and its trigger again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('platform.data_versions')
    .addColumn('table_oid', 'bigint', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await sql`
    create function platform.bump_data_version() returns trigger language plpgsql as $$
    begin
      insert into platform.data_versions as v (table_oid, version) values (TG_RELID::bigint, 1)
      on conflict (table_oid) do update set version = v.version + 1;
      return null;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function platform.bump_data_version() cascade`.execute(db);
  await db.schema.dropTable('platform.data_versions').execute();
}
