import { sql } from 'kysely';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { ContextSnapshot } from '../request-context/context.ts';
import { anyDb, type GridField, type RuntimeForm } from './runtime-form.ts';

// Kysely on the dynamic tables of a published form (i_<schema>, i_<schema>__<grid>; docs/decisions/0006), and the
// counters and logs of the engine schema. Every function takes the executor (root or transaction) first.

export const SYSTEM_COLUMNS = ['ObjectId', 'Name', 'Status', 'CreatedBy', 'ModifiedBy', 'OwnerId', 'OwnerDeptId', 'CreatedTime', 'ModifiedTime', 'SeqNo', 'WorkflowInstanceId'] as const;

export type RecordRow = Record<string, unknown>;

export async function findRecord(edb: EngineExecutor, form: RuntimeForm, objectId: string, options: { forUpdate?: boolean } = {}): Promise<RecordRow | undefined> {
  let q = anyDb(edb).selectFrom(form.mainTable).selectAll().where('ObjectId', '=', objectId);
  if (options.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `ids` as ONE parameter, an array literal cast to uuid[] (a text parameter: the pg and PGlite drivers type array
 * parameters differently): a statement of 1,000 keys sends one value, not 1,000. A text that is no uuid names no
 * record (the key columns are uuid) and is left out.
 */
export const uuidArray = (ids: readonly string[]) => sql`${`{${ids.filter((id) => UUID.test(id)).join(',')}}`}::uuid[]`;

/** The main rows of the records `objectIds` (in no order). */
export async function findRecordsByIds(edb: EngineExecutor, form: RuntimeForm, objectIds: readonly string[]): Promise<RecordRow[]> {
  return anyDb(edb).selectFrom(form.mainTable).selectAll().where(sql<boolean>`"ObjectId" = any(${uuidArray(objectIds)})`).execute();
}

/** The one record of a singleton form, if any. */
export async function findFirstRecord(edb: EngineExecutor, form: RuntimeForm): Promise<RecordRow | undefined> {
  return anyDb(edb).selectFrom(form.mainTable).selectAll().orderBy('CreatedTime').orderBy('ObjectId').limit(1).executeTakeFirst();
}

export async function childRowsOf(edb: EngineExecutor, grid: GridField, parentIds: string[]): Promise<RecordRow[]> {
  if (!parentIds.length) return [];
  return anyDb(edb).selectFrom(grid.table).selectAll().where(sql<boolean>`"ParentObjectId" = any(${uuidArray(parentIds)})`).orderBy('ParentObjectId').orderBy('SortKey').execute();
}

export async function updateRecord(edb: EngineExecutor, form: RuntimeForm, objectId: string, row: Record<string, unknown>): Promise<void> {
  await anyDb(edb).updateTable(form.mainTable).set(row).where('ObjectId', '=', objectId).execute();
}

/** Removes a record; its sub-table rows go with it (foreign key on delete cascade). */
export async function deleteRecord(edb: EngineExecutor, form: RuntimeForm, objectId: string): Promise<boolean> {
  const r = await anyDb(edb).deleteFrom(form.mainTable).where('ObjectId', '=', objectId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Replaces a record's rows of one sub-table (inside the record's transaction). */
export async function replaceChildRows(edb: EngineExecutor, grid: GridField, parentId: string, rows: Record<string, unknown>[]): Promise<void> {
  await anyDb(edb).deleteFrom(grid.table).where('ParentObjectId', '=', parentId).execute();
  if (rows.length) await anyDb(edb).insertInto(grid.table).values(rows).execute();
}

export async function countRecords(edb: EngineExecutor, form: RuntimeForm): Promise<number> {
  const r = await anyDb(edb).selectFrom(form.mainTable).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Another live (Draft or Effective) record holding `value` in `column`? */
export async function duplicateExists(edb: EngineExecutor, form: RuntimeForm, column: string, value: unknown, exceptId: string): Promise<boolean> {
  const row = await anyDb(edb)
    .selectFrom(form.mainTable)
    .select('ObjectId')
    .where(column, '=', value)
    .where('Status', 'in', [0, 1])
    .where('ObjectId', '<>', exceptId)
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

/** Which of `values` (text) live (Draft or Effective) records hold in `column`: one query for a batch's NoRepeat check. */
export async function takenValues(edb: EngineExecutor, form: RuntimeForm, column: string, values: string[]): Promise<Set<string>> {
  const rows = await anyDb(edb)
    .selectFrom(form.mainTable)
    .select(sql<string>`${sql.ref(column)}::text`.as('v'))
    .distinct()
    .where(column, 'in', [...new Set(values)])
    .where('Status', 'in', [0, 1])
    .execute();
  return new Set(rows.map((r) => String(r.v)));
}

/**
 * Serialises the writes of one form's records that must see each other (NoRepeat checks, the singleton's one
 * record): a transaction-scoped advisory lock, released at commit.
 */
export async function lockFormData(edb: EngineExecutor, engineCode: string, schemaCode: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`tritium:data:${engineCode}:${schemaCode}`}))`.execute(edb);
}

/** The user's main department; the request's context statement read it already when the user is the caller. */
export async function mainDepartmentOf(edb: EngineExecutor, userId: string, context?: ContextSnapshot): Promise<string | null> {
  if (context && context.userId === userId && context.mainDepartmentId !== undefined) return context.mainDepartmentId;
  const row = await edb.selectFrom('org_users').select('main_department_id').where('id', '=', userId).executeTakeFirst();
  return row?.main_department_id ?? null;
}

type DataLogRow = { id: string; schema_code: string; object_id: string; user_id: string; changes: unknown[] };

export async function insertDataLog(edb: EngineExecutor, row: DataLogRow): Promise<void> {
  await insertDataLogs(edb, [row]);
}

/** Data-log rows of several saves: one multi-row insert per 5,000 rows. */
export async function insertDataLogs(edb: EngineExecutor, rows: DataLogRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 5000) {
    await edb.insertInto('form_data_logs').values(rows.slice(i, i + 5000).map((row) => ({ ...row, changes: JSON.stringify(row.changes) }))).execute();
  }
}

export async function dataLogsOf(edb: EngineExecutor, schemaCode: string, objectId: string) {
  return edb.selectFrom('form_data_logs').select(['id', 'user_id', 'time', 'changes']).where('schema_code', '=', schemaCode).where('object_id', '=', objectId).orderBy('time', 'desc').orderBy('id', 'desc').execute();
}
