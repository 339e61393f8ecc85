import { sql } from 'kysely';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { formTablesOf } from './form-design.repo.ts';
import { fitIdentifier, hash8 } from './table-names.ts';
import { controlTypeByKey } from '@tritium/shared/controls/index';
import type { ColumnModel } from './form-model.ts';
import type { TableWork } from './ddl-planner.ts';

// Trigram indexes for "contains" on short text (docs/decisions/0013-query-engine.md): ILIKE '%…%' cannot use a
// B-tree; a GIN index with pg_trgm's gin_trgm_ops can, Chinese included (the database's ctype is UTF-8, so CJK
// characters are word characters). Written when a form is published: one per searchable text column of the main
// table (the data title Name, the sequence number SeqNo, then text boxes, text areas and the single-choice lists that
// store their item's text, in designer order) up to TRIGRAM_INDEX_LIMIT; indexes for columns that went away are
// dropped. The same columns serve full-text search (modules/search, docs/decisions/0040). pg_trgm is on PostgreSQL 15 (contrib) and on PGlite (@electric-sql/pglite/contrib/pg_trgm,
// loaded in db/database.ts); where it cannot be created the form simply has no trigram indexes.
// Each such column but a text area also has a stored lowered twin (decision 0103), and the index is on the twin: a
// "contains" reads the twin with LIKE instead of ILIKE lowering every row's text, 4× less work for the scan of a
// common word.

/** Trigram indexes a form's main table gets at most (they cost writes; custom indexes have their own limit of 5). */
export const TRIGRAM_INDEX_LIMIT = 12;

/** Control types whose column is text a person reads and searches: typed text, and the item text of a choice. */
export const TRIGRAM_CONTROL_TYPES: ReadonlySet<string> = new Set(['textBox', 'textArea', 'radioList', 'dropDown']);

const PREFIX = 'xt_';
export const trigramIndexName = (table: string, column: string): string => fitIdentifier(`${PREFIX}${table.replace(/^i_/, '')}_${hash8(column)}`);

/**
 * Which text columns a publish indexes (docs/decisions/0119): every index is written by every insert, so beyond
 * Name and SeqNo only the columns people search get one. A text column is searched when its control says so
 * (`searchable`, 支持模糊搜索 in the designer), or, when the control says nothing (forms designed before the choice
 * existed, and new controls left as they came), when a view searches it or filters it by "contains" (`used`) or its
 * table has one now (`present`: a publish keeps what an earlier one laid, so no search gets slower until someone
 * unticks the box). `searchable: false` drops it whatever a view does; a "contains" on it still works, as ILIKE.
 */
export interface TrigramUse {
  /** Columns a view's quick search or fixed filter's "contains" reads. */
  used?: ReadonlySet<string>;
  /** Columns that have a twin or a trigram index now. */
  present?: ReadonlySet<string>;
}

type TrigramColumnModel = Pick<ColumnModel, 'code' | 'typeKey' | 'searchable'>;

/** Whether a text column is searched (see TrigramUse). */
export function isSearched(column: TrigramColumnModel, use: TrigramUse = {}): boolean {
  if (!TRIGRAM_CONTROL_TYPES.has(column.typeKey) || column.searchable === false) return false;
  return column.searchable === true || !!use.used?.has(column.code) || !!use.present?.has(column.code);
}

/** The columns that get an index: Name, SeqNo, then the searched text columns in designer order; first TRIGRAM_INDEX_LIMIT. */
export function trigramColumns(columns: readonly TrigramColumnModel[], use: TrigramUse = {}): string[] {
  return ['Name', 'SeqNo', ...columns.filter((c) => isSearched(c, use)).map((c) => c.code)].slice(0, TRIGRAM_INDEX_LIMIT);
}

/**
 * The schema pg_trgm lives in, creating the extension when it is available and missing; null when it cannot be had.
 * Runs inside the publishing transaction: a savepoint keeps a refused CREATE EXTENSION from aborting it, and an
 * advisory lock keeps two engines publishing at once from racing on it.
 */
export async function ensureTrigram(edb: EngineExecutor): Promise<string | null> {
  const installed = async () => (await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(edb)).rows[0]?.schema ?? null;
  const found = await installed();
  if (found) return found;
  await sql`select pg_advisory_xact_lock(hashtext('tritium:extension:pg_trgm'))`.execute(edb);
  await sql`savepoint tritium_pg_trgm`.execute(edb);
  try {
    await sql`create extension if not exists pg_trgm`.execute(edb);
    await sql`release savepoint tritium_pg_trgm`.execute(edb);
  } catch {
    await sql`rollback to savepoint tritium_pg_trgm`.execute(edb);
    return null;
  }
  return installed();
}

/**
 * A text column's lowered twin: `"~Title" text generated always as (lower("Title")) stored`. '~' is no character of a
 * control code (ASCII letters, digits, underscore), so no control or system column can take the name; a code near 63
 * characters is fitted with a hash, the '~' kept in front.
 */
export const foldedColumnName = (column: string): string => fitIdentifier(`~${column}`);
const FOLDED_PREFIX = '~';

/**
 * The trigram columns that get a twin: all but text areas. A text area's twin would copy the widest text of the row
 * (the peer workload's notes made the table 58 % larger and PGlite's bulk insert 19–25 % slower), while the list
 * filters people type go to short text; a text area's "contains" stays ILIKE, served by a trigram index on its column.
 */
export function twinnedColumns(columns: readonly TrigramColumnModel[], use: TrigramUse = {}): string[] {
  const areas = new Set(columns.filter((c) => c.typeKey === 'textArea').map((c) => c.code));
  return trigramColumns(columns, use).filter((c) => !areas.has(c));
}

/** The twins a main table has, by their own name (generated columns whose name starts with '~'). */
async function twinsOf(edb: EngineExecutor, schema: string, table: string): Promise<Set<string>> {
  const r = await sql<{ name: string }>`select a.attname::text as name from pg_attribute a
    where a.attrelid = to_regclass(${`"${schema}"."${table}"`}) and a.attnum > 0 and not a.attisdropped and a.attgenerated <> '' and left(a.attname, 1) = ${FOLDED_PREFIX}`.execute(edb);
  return new Set(r.rows.map((row) => row.name));
}

/**
 * The columns of a table a row can be written to, in table order: all but the generated ones (the twins), which
 * refuse any value but DEFAULT — for `insert … select` of a whole row (an import's roll back).
 */
export async function writableColumnsOf(edb: EngineExecutor, schema: string, table: string): Promise<string[]> {
  const r = await sql<{ name: string }>`select a.attname::text as name from pg_attribute a
    where a.attrelid = to_regclass(${`"${schema}"."${table}"`}) and a.attnum > 0 and not a.attisdropped and a.attgenerated = '' order by a.attnum`.execute(edb);
  return r.rows.map((row) => row.name);
}

/** The text columns of `columns` that have a twin or a trigram index in the table now (by their current names). */
export async function searchedColumnsPresent(edb: EngineExecutor, schema: string, table: string, columns: readonly Pick<ColumnModel, 'code'>[]): Promise<Set<string>> {
  const twins = await twinsOf(edb, schema, table);
  const r = await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = ${schema} and tablename = ${table} and indexname like ${`${PREFIX}%`}`.execute(edb);
  const indexes = new Set(r.rows.map((row) => row.name));
  const has = (c: string) => twins.has(foldedColumnName(c)) || indexes.has(trigramIndexName(table, c)) || indexes.has(trigramIndexName(table, foldedColumnName(c)));
  return new Set(columns.map((c) => c.code).filter(has));
}

/** searchedColumnsPresent before a publish's plan runs, named as the draft names them (a renamed column keeps its choice). */
export async function presentAfterRenames(edb: EngineExecutor, schema: string, work: Pick<TableWork, 'table' | 'renames'>, columns: readonly Pick<ColumnModel, 'code'>[]): Promise<Set<string>> {
  const before = await searchedColumnsPresent(edb, schema, work.table, columns);
  const renamed = new Map(work.renames.map((r) => [r.from, r.to]));
  return new Set([...before].map((c) => renamed.get(c) ?? c));
}

/**
 * The columns a form's views search (quick search) or filter by a pattern (a fixed filter's Contains, StartWith…):
 * designed views, or the default view's quick search (Name and the first two short-text fields, view-fields.ts)
 * while none is designed.
 */
export async function columnsViewsSearch(edb: EngineExecutor, schemaCode: string, columns: readonly Pick<ColumnModel, 'code' | 'typeKey'>[]): Promise<Set<string>> {
  const rows = await edb.selectFrom('list_views').select('setting').where('schema_code', '=', schemaCode).execute();
  const used = new Set<string>();
  if (!rows.length) {
    for (const c of columns.filter((c) => controlTypeByKey(c.typeKey)?.dataType === 'string').slice(0, 2)) used.add(c.code);
    return used;
  }
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const n = node as { children?: unknown[]; field?: unknown; operator?: unknown };
    if (Array.isArray(n.children)) n.children.forEach(visit);
    else if (typeof n.field === 'string' && typeof n.operator === 'string' && PATTERN_OPERATORS.has(n.operator)) used.add(n.field);
  };
  for (const { setting } of rows) {
    const view = setting as { quickSearch?: unknown; filter?: unknown };
    if (Array.isArray(view.quickSearch)) for (const code of view.quickSearch) if (typeof code === 'string') used.add(code);
    visit(view.filter);
  }
  return used;
}

/** The operators a trigram index serves (filter-compiler.ts caseFreeLike). */
const PATTERN_OPERATORS: ReadonlySet<string> = new Set(['Contains', 'NotContains', 'StartWith', 'EndWith', 'NotStartWith', 'NotEndWith']);

/**
 * Makes the main table's lowered twins and trigram indexes match its searched text columns (inside the publishing
 * transaction), and records which columns have a twin in form_tables (decision 0103): a "contains" then reads the
 * twin with LIKE — the same answers as ILIKE, which lowers the column's text on every row it reads. Twins need no
 * extension; the trigram indexes are on the twins (pg_trgm serves LIKE as it does ILIKE). Which columns are searched:
 * trigramColumns (docs/decisions/0119); `present` is what the table had before the publish altered it (read here
 * when not given).
 */
export async function syncTrigramIndexes(edb: EngineExecutor, schema: string, schemaCode: string, columns: readonly ColumnModel[], present?: ReadonlySet<string>): Promise<void> {
  const table = (await formTablesOf(edb, schemaCode)).get('');
  if (!table) return;
  const use: TrigramUse = { used: await columnsViewsSearch(edb, schemaCode, columns), present: present ?? (await searchedColumnsPresent(edb, schema, table, columns)) };
  const twinned = twinnedColumns(columns, use);
  const twins = new Map(twinned.map((c) => [foldedColumnName(c), c]));
  const have = await twinsOf(edb, schema, table);
  const actions = [
    ...[...have].filter((name) => !twins.has(name)).map((name) => sql`drop column ${sql.id(name)}`),
    ...[...twins].filter(([name]) => !have.has(name)).map(([name, column]) => sql`add column ${sql.id(name)} text generated always as (lower(${sql.id(column)})) stored`),
  ];
  // One ALTER: one rewrite of the table at most.
  if (actions.length) await sql`alter table ${sql.id(schema, table)} ${sql.join(actions)}`.execute(edb);
  await edb.updateTable('form_tables').set({ folded_columns: JSON.stringify(twinned) }).where('table_name', '=', table).where(sql<boolean>`folded_columns <> ${JSON.stringify(twinned)}::jsonb`).execute();
  const indexedColumn = (c: string) => (twins.has(foldedColumnName(c)) ? foldedColumnName(c) : c);
  const wanted = new Map(trigramColumns(columns, use).map((c) => [trigramIndexName(table, indexedColumn(c)), indexedColumn(c)]));
  const existing = await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = ${schema} and tablename = ${table} and indexname like ${`${PREFIX}%`}`.execute(edb);
  for (const { name } of existing.rows) {
    if (!wanted.has(name)) await sql`drop index if exists ${sql.id(schema, name)}`.execute(edb);
  }
  const indexed = new Set(existing.rows.map((r) => r.name));
  const missing = [...wanted].filter(([name]) => !indexed.has(name));
  if (!missing.length) return;
  const trgmSchema = await ensureTrigram(edb);
  if (!trgmSchema) return;
  for (const [name, column] of missing) {
    await sql`create index if not exists ${sql.id(name)} on ${sql.id(schema, table)} using gin (${sql.id(column)} ${sql.id(trgmSchema, 'gin_trgm_ops')})`.execute(edb);
  }
}

/**
 * Before a publish alters the main table: drops the twins of columns it renames, drops or converts (PostgreSQL refuses
 * to drop, or change the type of, a column a generated column reads; a renamed column's twin would keep the old
 * code's name) and the trigram indexes (an ALTER … TYPE to a non-text type would fail on gin_trgm_ops; the table is
 * rewritten anyway). syncTrigramIndexes puts back the twins and indexes still wanted.
 */
export async function dropTextTwinsBeforeAlter(edb: EngineExecutor, schema: string, work: Pick<TableWork, 'table' | 'renames' | 'drops' | 'typeChanges'>): Promise<void> {
  const touched = [...work.renames.map((r) => r.from), ...work.drops, ...work.typeChanges.map((t) => t.column)];
  if (!touched.length) return;
  const have = await twinsOf(edb, schema, work.table);
  const gone = touched.map(foldedColumnName).filter((name) => have.has(name));
  if (gone.length) await sql`alter table ${sql.id(schema, work.table)} ${sql.join(gone.map((name) => sql`drop column ${sql.id(name)}`))}`.execute(edb);
  if (!work.typeChanges.length) return;
  const existing = await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = ${schema} and tablename = ${work.table} and indexname like ${`${PREFIX}%`}`.execute(edb);
  for (const { name } of existing.rows) await sql`drop index if exists ${sql.id(schema, name)}`.execute(edb);
}
