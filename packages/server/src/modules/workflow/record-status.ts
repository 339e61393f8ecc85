import type { BizObjectStatus } from '@tritium/shared/constants/data-status';
import type { Kysely } from 'kysely';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// The record's data status follows its flow (shared/design/workflow.md; docs/decisions/0014): Running in flow,
// Effective when finished, Canceled when cancelled (or vetoed). The main table comes from form_tables, as the form
// runtime reads it (docs/decisions/0006, 0007); the engine never derives a table name itself.

/** The main table of a published form, or undefined before its first publish. */
export async function mainTableOf(edb: EngineExecutor, schemaCode: string): Promise<string | undefined> {
  const row = await edb.selectFrom('form_tables').select('table_name').where('schema_code', '=', schemaCode).where('grid_key', '=', '').executeTakeFirst();
  return row?.table_name;
}

/** The record's row (every column), optionally locked; undefined when the form or the record does not exist. */
export async function readRecordRow(edb: EngineExecutor, schemaCode: string, objectId: string, options: { forUpdate?: boolean } = {}): Promise<Record<string, unknown> | undefined> {
  const table = await mainTableOf(edb, schemaCode);
  if (!table) return undefined;
  let q = (edb as unknown as Kysely<any>).selectFrom(table).selectAll().where('ObjectId', '=', objectId);
  if (options.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

/**
 * Sets a record's Status (and, when given, the instance it runs in). Answers whether a row was changed. Runs in
 * the caller's transaction, after the instance's row lock.
 */
export async function setRecordStatus(
  edb: EngineExecutor,
  schemaCode: string,
  objectId: string,
  status: BizObjectStatus,
  options: { workflowInstanceId?: string; mainTable?: string } = {},
): Promise<boolean> {
  const table = options.mainTable ?? (await mainTableOf(edb, schemaCode));
  if (!table) return false;
  const r = await recordStatusUpdate(edb, table, objectId, status, options.workflowInstanceId).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The update of a record's Status (and instance) in its main table `table`: a write of the caller's statement. */
export function recordStatusUpdate(edb: EngineExecutor, table: string, objectId: string, status: BizObjectStatus, workflowInstanceId?: string) {
  const set: Record<string, unknown> = { Status: status };
  if (workflowInstanceId) set.WorkflowInstanceId = workflowInstanceId;
  return (edb as unknown as Kysely<any>).updateTable(table).set(set).where('ObjectId', '=', objectId);
}
