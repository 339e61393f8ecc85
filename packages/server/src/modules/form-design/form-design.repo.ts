import { sql } from 'kysely';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// Kysely only: form_schemas, form_tables, form_custom_indexes, form_seq_no of one engine schema (docs/decisions/0006).
// Every function takes the executor (engineDb of the root db or of a transaction) first.

export interface FormSchemaRow {
  schema_code: string;
  draft: unknown;
  draft_version: number;
  draft_saved_time: Date;
  published: unknown;
  published_version: number | null;
  published_time: Date | null;
}

const schemaColumns = ['schema_code', 'draft', 'draft_version', 'draft_saved_time', 'published', 'published_version', 'published_time'] as const;

export async function findFormSchema(edb: EngineExecutor, schemaCode: string, options: { forUpdate?: boolean } = {}): Promise<FormSchemaRow | undefined> {
  let q = edb.selectFrom('form_schemas').select(schemaColumns).where('schema_code', '=', schemaCode);
  if (options.forUpdate) q = q.forUpdate();
  return (await q.executeTakeFirst()) as FormSchemaRow | undefined;
}

/** The first draft of a form; a concurrent first load that won keeps its row. */
export async function insertDraftIfMissing(edb: EngineExecutor, schemaCode: string, draft: unknown, userId: string): Promise<void> {
  await edb
    .insertInto('form_schemas')
    .values({ schema_code: schemaCode, draft: JSON.stringify(draft), draft_version: 1, modified_by: userId })
    .onConflict((oc) => oc.column('schema_code').doNothing())
    .execute();
}

/** Saves a draft over `baseVersion` only; answers the new version, or undefined when the base is stale. */
export async function updateDraft(edb: EngineExecutor, schemaCode: string, baseVersion: number, draft: unknown, userId: string) {
  return edb
    .updateTable('form_schemas')
    .set({ draft: JSON.stringify(draft), draft_version: sql`draft_version + 1`, draft_saved_time: sql`now()`, modified_by: userId })
    .where('schema_code', '=', schemaCode)
    .where('draft_version', '=', baseVersion)
    .returning(['draft_version', 'draft_saved_time'])
    .executeTakeFirst();
}

export async function markPublished(edb: EngineExecutor, schemaCode: string, version: number, definition: unknown, touchTime: boolean): Promise<Date> {
  const row = await edb
    .updateTable('form_schemas')
    .set({ published: JSON.stringify(definition), published_version: version, ...(touchTime ? { published_time: sql<Date>`now()` } : {}) })
    .where('schema_code', '=', schemaCode)
    .returning('published_time')
    .executeTakeFirstOrThrow();
  return new Date(row.published_time!);
}

/** The physical tables of a form: grid key ('' main) → table name. */
export async function formTablesOf(edb: EngineExecutor, schemaCode: string): Promise<Map<string, string>> {
  const rows = await edb.selectFrom('form_tables').select(['grid_key', 'table_name']).where('schema_code', '=', schemaCode).execute();
  return new Map(rows.map((r) => [r.grid_key, r.table_name]));
}

/**
 * formTablesOf, the main table's columns that have a lowered twin (trigram-indexes.ts) and whether its system id
 * columns are uuid (decision 0128), in one statement.
 */
export async function formTablesAndTwinsOf(edb: EngineExecutor, schemaCode: string): Promise<{ tables: Map<string, string>; folded: string[]; uuidIds: boolean }> {
  const rows = await edb.selectFrom('form_tables').select(['grid_key', 'table_name', 'folded_columns', 'uuid_ids']).where('schema_code', '=', schemaCode).execute();
  const main = rows.find((r) => r.grid_key === '');
  const folded = typeof main?.folded_columns === 'string' ? (JSON.parse(main.folded_columns) as string[]) : (main?.folded_columns ?? []);
  return { tables: new Map(rows.map((r) => [r.grid_key, r.table_name])), folded, uuidIds: main?.uuid_ids ?? false };
}

/** A table made now: its system id columns are uuid (ddl-executor.ts). */
export async function insertFormTable(edb: EngineExecutor, schemaCode: string, gridKey: string, tableName: string): Promise<void> {
  await edb.insertInto('form_tables').values({ schema_code: schemaCode, grid_key: gridKey, table_name: tableName, uuid_ids: true }).execute();
}

export async function deleteFormTable(edb: EngineExecutor, tableName: string): Promise<void> {
  await edb.deleteFrom('form_tables').where('table_name', '=', tableName).execute();
}

/** Is the name free in the engine schema: no table of a form, and no relation (table, index, …) at all? */
export async function relationNameFree(edb: EngineExecutor, schema: string, name: string): Promise<boolean> {
  if (await edb.selectFrom('form_tables').select('table_name').where('table_name', '=', name).executeTakeFirst()) return false;
  const r = await sql<{ n: number }>`select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${schema} and c.relname = ${name}`.execute(edb);
  return r.rows[0].n === 0;
}

export interface CustomIndexRow {
  index_name: string;
  fields: string[];
  created_time: Date;
}

export async function customIndexesOf(edb: EngineExecutor, schemaCode: string): Promise<CustomIndexRow[]> {
  return edb.selectFrom('form_custom_indexes').select(['index_name', 'fields', 'created_time']).where('schema_code', '=', schemaCode).orderBy('created_time').orderBy('index_name').execute();
}

export async function insertCustomIndex(edb: EngineExecutor, schemaCode: string, indexName: string, fields: string[]): Promise<void> {
  await edb.insertInto('form_custom_indexes').values({ schema_code: schemaCode, index_name: indexName, fields: JSON.stringify(fields) }).execute();
}

export async function deleteCustomIndex(edb: EngineExecutor, indexName: string): Promise<void> {
  await edb.deleteFrom('form_custom_indexes').where('index_name', '=', indexName).execute();
}

export async function updateCustomIndexFields(edb: EngineExecutor, indexName: string, fields: string[]): Promise<void> {
  await edb.updateTable('form_custom_indexes').set({ fields: JSON.stringify(fields) }).where('index_name', '=', indexName).execute();
}

export async function seqNoCountersOf(edb: EngineExecutor, schemaCode: string) {
  return edb.selectFrom('form_seq_no').select(['control_code', 'period', 'value']).where('schema_code', '=', schemaCode).orderBy('control_code').orderBy('period').execute();
}

export async function deleteSeqNoCounters(edb: EngineExecutor, schemaCode: string, controlCode: string): Promise<number> {
  const r = await edb.deleteFrom('form_seq_no').where('schema_code', '=', schemaCode).where('control_code', '=', controlCode).executeTakeFirst();
  return Number(r.numDeletedRows);
}
