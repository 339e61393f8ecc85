import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';
import { engineSchemaName } from '../../db/database.ts';

// Data versions (docs/decisions/0044; migration 2026-11-26T1700_create-data-versions): a counter per physical table
// bumped by a statement trigger in the writing transaction. A cached report result is answered only while the
// versions of every table its statement read are the ones it was stored under.

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
      await sql<{ name: string; oid: string | null; version: string | null }>`
        select t.name, c.oid::bigint::text as oid, v.version::text as version
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
  return rows.map((r) => `${r.oid}:${r.version}`).join(',');
}
