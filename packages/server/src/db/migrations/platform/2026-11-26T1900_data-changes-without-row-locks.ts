import { sql, type Kysely } from 'kysely';

/**
 * Data versions without a shared row to lock (docs/decisions/0044, "Cost"). The trigger of
 * 2026-11-26T1700_create-data-versions bumped one counter row per table in the writing transaction, so every writer of
 * a table waited for the previous writer's commit on that row (and two transactions writing two such tables in opposite
 * orders could deadlock). Now each writing transaction adds one row of its own — its table and transaction id — which
 * no other transaction touches; a table's version is its folded base (`data_versions.version`) plus the number of its
 * committed change rows, so it grows by one with every commit that wrote the table and never moves back.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('platform.data_changes')
    .addColumn('table_oid', 'bigint', (c) => c.notNull())
    .addColumn('tx', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('data_changes_pkey', ['table_oid', 'tx'])
    .execute();
  await sql`
    create or replace function platform.bump_data_version() returns trigger language plpgsql as $$
    begin
      insert into platform.data_changes (table_oid, tx) values (TG_RELID::bigint, txid_current())
      on conflict do nothing;
      return null;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function platform.bump_data_version() returns trigger language plpgsql as $$
    begin
      insert into platform.data_versions as v (table_oid, version) values (TG_RELID::bigint, 1)
      on conflict (table_oid) do update set version = v.version + 1;
      return null;
    end $$`.execute(db);
  await db.schema.dropTable('platform.data_changes').execute();
}
