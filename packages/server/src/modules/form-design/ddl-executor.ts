import { sql, type RawBuilder } from 'kysely';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { ColumnModel } from './form-model.ts';
import type { PublishPlan, TableWork } from './ddl-planner.ts';
import { deleteCustomIndex, deleteFormTable, insertFormTable, updateCustomIndexFields } from './form-design.repo.ts';
import { parentIndexName, primaryKeyName, systemIndexNames } from './table-names.ts';
import { sqlTypeOf } from './type-conversion.ts';
import { dropPreAggregate } from '../../db/pre-aggregate-names.ts';

// Publishing, step 2 (docs/decisions/0006 "Publishing"): applies a plan inside the caller's transaction. DDL takes no
// bind parameters, so every name goes through sql.id (quoted) and every literal through sql.lit; column types are
// the registry's, checked by sqlTypeOf.

// Main table system columns (architecture.md §2, SYSTEM_FIELDS less ParentObjectId). ObjectId is a UUID (v7 from the
// server; a default so that rows written by SQL get one too). The people, department and flow ids are uuid too
// (16 bytes instead of 37, decision 0128): every writer stores a user's, department's or instance's newId().
const MAIN_SYSTEM_COLUMNS = (table: string): RawBuilder<unknown>[] => [
  sql`"ObjectId" uuid not null default gen_random_uuid()`,
  sql`"Name" text not null default ''`,
  sql`"Status" integer not null default 0`,
  sql`"CreatedBy" uuid`,
  sql`"ModifiedBy" uuid`,
  sql`"OwnerId" uuid`,
  sql`"OwnerDeptId" uuid`,
  sql`"CreatedTime" timestamptz not null default now()`,
  sql`"ModifiedTime" timestamptz not null default now()`,
  sql`"SeqNo" text`,
  sql`"WorkflowInstanceId" uuid`,
  sql`constraint ${sql.id(primaryKeyName(table))} primary key ("ObjectId")`,
];

const dataColumns = (columns: ColumnModel[]) => columns.map((c) => sql`${sql.id(c.code)} ${sqlTypeOf(c.sqlType)}`);

async function createMainTable(edb: EngineExecutor, schema: string, work: TableWork): Promise<void> {
  const columns = [...MAIN_SYSTEM_COLUMNS(work.table), ...dataColumns(work.create ?? [])];
  await sql`create table ${sql.id(schema, work.table)} (${sql.join(columns)})`.execute(edb);
  // Lists page in CreatedTime desc, ObjectId desc order and data scopes filter on the owner, their department and
  // the creator: without these a first page or a scoped count reads the whole table (bench/query-million.ts). A
  // scoped count is a sum of branches, each "its column and none of the columns before it" (permission/scope-sql.ts
  // scopeBranches, docs/decisions/0063): each index carries the columns before its own, so a branch reads its index only.
  const names = systemIndexNames(work.table);
  const table = sql.id(schema, work.table);
  await sql`create index ${sql.id(names.order)} on ${table} ("CreatedTime" desc, "ObjectId" desc)`.execute(edb);
  await sql`create index ${sql.id(names.ownerDept)} on ${table} ("OwnerDeptId")`.execute(edb);
  await sql`create index ${sql.id(names.owner)} on ${table} ("OwnerId") include ("OwnerDeptId")`.execute(edb);
  await sql`create index ${sql.id(names.creator)} on ${table} ("CreatedBy") include ("OwnerDeptId", "OwnerId")`.execute(edb);
}

async function createChildTable(edb: EngineExecutor, schema: string, mainTable: string, work: TableWork): Promise<void> {
  const columns = [
    sql`"ObjectId" uuid not null default gen_random_uuid()`,
    sql`"ParentObjectId" uuid not null references ${sql.id(schema, mainTable)} ("ObjectId") on delete cascade`,
    sql`"SortKey" integer not null default 0`,
    ...dataColumns(work.create ?? []),
    sql`constraint ${sql.id(primaryKeyName(work.table))} primary key ("ObjectId")`,
  ];
  await sql`create table ${sql.id(schema, work.table)} (${sql.join(columns)})`.execute(edb);
  await sql`create index ${sql.id(parentIndexName(work.table))} on ${sql.id(schema, work.table)} ("ParentObjectId", "SortKey")`.execute(edb);
}

/** Renames (one statement each, as PostgreSQL wants), then drops, conversions and additions in one ALTER (one rewrite at most). */
async function alterTable(edb: EngineExecutor, schema: string, work: TableWork): Promise<void> {
  const table = sql.id(schema, work.table);
  // The report pre-aggregation's triggers name the columns: it goes before any of them changes (rebuilt when read again).
  if (work.renames.length || work.drops.length || work.typeChanges.length) await dropPreAggregate(edb as never, schema, work.table);
  for (const r of work.renames) await sql`alter table ${table} rename column ${sql.id(r.from)} to ${sql.id(r.to)}`.execute(edb);
  const actions = [
    ...work.drops.map((code) => sql`drop column ${sql.id(code)}`),
    ...work.typeChanges.map((t) => sql`alter column ${sql.id(t.column)} type ${sqlTypeOf(t.to)} using ${t.conversion.using}`),
    ...work.adds.map((c) => sql`add column ${sql.id(c.code)} ${sqlTypeOf(c.sqlType)}`),
  ];
  if (actions.length) await sql`alter table ${table} ${sql.join(actions)}`.execute(edb);
}

export async function applyPlan(edb: EngineExecutor, schema: string, schemaCode: string, plan: PublishPlan): Promise<void> {
  for (const child of plan.dropChildren) {
    await sql`drop table ${sql.id(schema, child.table)}`.execute(edb);
    await deleteFormTable(edb, child.table);
  }
  if (plan.main.create) {
    await createMainTable(edb, schema, plan.main);
    await insertFormTable(edb, schemaCode, '', plan.main.table);
  } else {
    await alterTable(edb, schema, plan.main);
  }
  for (const child of plan.children) {
    if (child.create) {
      await createChildTable(edb, schema, plan.main.table, child);
      await insertFormTable(edb, schemaCode, child.gridKey, child.table);
    } else {
      await alterTable(edb, schema, child);
    }
  }
  for (const indexName of plan.droppedIndexes) {
    // PostgreSQL dropped the index with its column; drop it here too in case it still stands.
    await sql`drop index if exists ${sql.id(schema, indexName)}`.execute(edb);
    await deleteCustomIndex(edb, indexName);
  }
  for (const r of plan.renamedIndexFields) await updateCustomIndexFields(edb, r.indexName, r.fields);
}

/** Blocks writes to the form's tables (reads go on) until the transaction ends, so counted rows stay counted. */
export async function lockFormTables(edb: EngineExecutor, schema: string, tables: Iterable<string>): Promise<void> {
  const list = [...tables];
  if (list.length) await sql`lock table ${sql.join(list.map((t) => sql.id(schema, t)))} in exclusive mode`.execute(edb);
}

/**
 * Drops the tables of forms whose nodes are being removed (their data goes with the form, as the removal's
 * confirmation says). Sub-tables first: they reference the main table. Their form_tables rows go by cascade.
 */
export async function dropTablesOfForms(edb: EngineExecutor, schema: string, schemaCodes: string[]): Promise<void> {
  if (!schemaCodes.length) return;
  const tables = await edb
    .selectFrom('form_tables')
    .select(['table_name', 'grid_key'])
    .where('schema_code', 'in', schemaCodes)
    .orderBy(sql`case when grid_key = '' then 1 else 0 end`)
    .execute();
  for (const table of tables) await sql`drop table if exists ${sql.id(schema, table.table_name)}`.execute(edb);
}
