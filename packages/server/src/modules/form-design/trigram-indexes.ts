import { sql } from 'kysely';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { formTablesOf } from './form-design.repo.ts';
import { fitIdentifier, hash8 } from './table-names.ts';
import type { ColumnModel } from './form-model.ts';

// Trigram indexes for "contains" on short text (docs/decisions/0013-query-engine.md): ILIKE '%…%' cannot use a
// B-tree; a GIN index with pg_trgm's gin_trgm_ops can, Chinese included (the database's ctype is UTF-8, so CJK
// characters are word characters). Written when a form is published: one per searchable text column of the main
// table (the data title Name, the sequence number SeqNo, then text boxes, text areas and the single-choice lists that
// store their item's text, in designer order) up to TRIGRAM_INDEX_LIMIT; indexes for columns that went away are
// dropped. The same columns serve full-text search (modules/search, docs/decisions/0040). pg_trgm is on PostgreSQL 15 (contrib) and on PGlite (@electric-sql/pglite/contrib/pg_trgm,
// loaded in db/database.ts); where it cannot be created the form simply has no trigram indexes.

/** Trigram indexes a form's main table gets at most (they cost writes; custom indexes have their own limit of 5). */
export const TRIGRAM_INDEX_LIMIT = 12;

/** Control types whose column is text a person reads and searches: typed text, and the item text of a choice. */
export const TRIGRAM_CONTROL_TYPES: ReadonlySet<string> = new Set(['textBox', 'textArea', 'radioList', 'dropDown']);

const PREFIX = 'xt_';
export const trigramIndexName = (table: string, column: string): string => fitIdentifier(`${PREFIX}${table.replace(/^i_/, '')}_${hash8(column)}`);

/** The columns that get an index: Name, SeqNo, then the TRIGRAM_CONTROL_TYPES columns; first TRIGRAM_INDEX_LIMIT. */
export function trigramColumns(columns: readonly Pick<ColumnModel, 'code' | 'typeKey'>[]): string[] {
  return ['Name', 'SeqNo', ...columns.filter((c) => TRIGRAM_CONTROL_TYPES.has(c.typeKey)).map((c) => c.code)].slice(0, TRIGRAM_INDEX_LIMIT);
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

/** Makes the main table's trigram indexes match its short-text columns (inside the publishing transaction). */
export async function syncTrigramIndexes(edb: EngineExecutor, schema: string, schemaCode: string, columns: readonly ColumnModel[]): Promise<void> {
  const table = (await formTablesOf(edb, schemaCode)).get('');
  if (!table) return;
  const wanted = new Map(trigramColumns(columns).map((c) => [trigramIndexName(table, c), c]));
  const existing = await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = ${schema} and tablename = ${table} and indexname like ${`${PREFIX}%`}`.execute(edb);
  for (const { name } of existing.rows) {
    if (!wanted.has(name)) await sql`drop index if exists ${sql.id(schema, name)}`.execute(edb);
  }
  const have = new Set(existing.rows.map((r) => r.name));
  const missing = [...wanted].filter(([name]) => !have.has(name));
  if (!missing.length) return;
  const trgmSchema = await ensureTrigram(edb);
  if (!trgmSchema) return;
  for (const [name, column] of missing) {
    await sql`create index if not exists ${sql.id(name)} on ${sql.id(schema, table)} using gin (${sql.id(column)} ${sql.id(trgmSchema, 'gin_trgm_ops')})`.execute(edb);
  }
}

/**
 * Before a publish changes column types of the main table: drops its trigram indexes (an ALTER … TYPE to a non-text
 * type would fail on gin_trgm_ops; the table is rewritten anyway). syncTrigramIndexes puts back the ones still wanted.
 */
export async function dropTrigramIndexesBeforeTypeChanges(edb: EngineExecutor, schema: string, table: string, typeChanges: readonly unknown[]): Promise<void> {
  if (!typeChanges.length) return;
  const existing = await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = ${schema} and tablename = ${table} and indexname like ${`${PREFIX}%`}`.execute(edb);
  for (const { name } of existing.rows) await sql`drop index if exists ${sql.id(schema, name)}`.execute(edb);
}
