import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';
import { engineSchemaName } from '../../db/database.ts';

// Data versions (docs/decisions/0044; migrations 2026-11-26T1700_create-data-versions and
// 2026-11-26T1900_data-changes-without-row-locks): a statement trigger adds one row per writing transaction and table to
// platform.data_changes, which no other transaction touches; a table's version is its folded base plus the number of
// its committed change rows. A cached report result is answered only while the versions of every table its statement
// read are the ones it was stored under.

/** Change rows of one table past which a read folds them into the base (keeps the count an index scan of a few rows). */
export const FOLD_AFTER = 200;

/** Engine tables a statement may read through the scope conditions (own department, relevant, department subtrees). */
const SCOPE_TABLES = ['org_user_departments', 'org_units', 'wf_instances', 'wf_work_items'];

const qualified = (engineCode: string, table: string) => `"${engineSchemaName(engineCode)}"."${table}"`;

/** The form tables given, and the scope tables the compiled statement names. */
export function tablesRead(statementSql: string, formTables: string[]): string[] {
  return [...formTables, ...SCOPE_TABLES.filter((t) => statementSql.includes(`"${t}"`))];
}

/**
 * The current version of each table ("oid:version" joined, in the order given). A table read for the first time gets
 * its trigger and a row, in one transaction: from then on every write bumps it.
 */
export async function dataVersionsOf(db: Db, engineCode: string, tables: string[]): Promise<string> {
  const names = tables.map((t) => qualified(engineCode, t));
  const read = async () =>
    (
      await sql<{ name: string; oid: string | null; version: string | null; changes: number }>`
        select t.name, c.oid::bigint::text as oid, v.version::text as version,
          (select count(*)::int from platform.data_changes d where d.table_oid = c.oid::bigint) as changes
        from jsonb_array_elements_text(${JSON.stringify(names)}::jsonb) with ordinality as t(name, n)
        left join pg_class c on c.oid = to_regclass(t.name)
        left join platform.data_versions v on v.table_oid = c.oid::bigint
        order by t.n`.execute(db)
    ).rows;
  let rows = await read();
  const missing = rows.filter((r) => r.oid && r.version === null);
  if (missing.length) {
    await db.transaction().execute(async (trx) => {
      for (const r of missing) {
        await sql`create or replace trigger tritium_data_version after insert or update or delete or truncate on ${sql.raw(r.name)}
          for each statement execute function platform.bump_data_version()`.execute(trx);
        await sql`insert into platform.data_versions (table_oid, version) values (${r.oid}::bigint, 0) on conflict (table_oid) do nothing`.execute(trx);
      }
    });
    rows = await read();
  }
  const crowded = rows.filter((r) => r.oid && r.changes > FOLD_AFTER);
  if (crowded.length) await fold(db, crowded.map((r) => r.oid!));
  return rows.map((r) => `${r.oid}:${BigInt(r.version ?? 0) + BigInt(r.changes)}`).join(',');
}

/**
 * Moves the committed change rows of the tables into their base counters, in one transaction, so the sum a reader sees
 * is the same before and after (rows committed meanwhile are not in this statement's snapshot and stay). One folder at a
 * time per table (a transaction-scoped advisory lock tried, not waited on); writers never wait for it.
 */
async function fold(db: Db, oids: string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const oid of oids) {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(hashtext(${`tritium:data-versions:${oid}`})) as locked`.execute(trx);
      if (!rows[0]?.locked) continue;
      await sql`
        with gone as (delete from platform.data_changes where table_oid = ${oid}::bigint returning 1)
        update platform.data_versions set version = version + (select count(*) from gone) where table_oid = ${oid}::bigint`.execute(trx);
    }
  });
}
