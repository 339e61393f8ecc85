import type { Selectable } from 'kysely';
import type { DataPortTaskTable } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { FilterNode } from '@tritium/shared/query/index';

// data_port_tasks rows (docs/decisions/0020): what a task is about; its state lives in platform.jobs (same id).

export type TaskRow = Selectable<DataPortTaskTable>;

export type ImportDataState = 'Draft' | 'Effective' | 'Processing';

export interface ImportOptions {
  importType: 'Upsert' | 'InsertOnly' | 'UpdateOnly';
  dataState: ImportDataState;
  keyField?: string;
  mapping?: { column: string; field: string }[];
}

export interface ExportOptions {
  filter?: FilterNode;
  status?: number[];
  columns?: string[];
  sort?: { field: string; direction: 'asc' | 'desc' }[];
  /** A list view of the form: its filter, scope and quick search narrow the rows, its columns are the default ones. */
  viewCode?: string;
  /** The list's quick search at the time of the export (with viewCode). */
  keyword?: string;
  /** The origin the caller reached the server at: file links in the workbook are absolute. */
  baseUrl: string;
}

export async function findTask(edb: EngineExecutor, id: string): Promise<TaskRow | undefined> {
  return edb.selectFrom('data_port_tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertTask(edb: EngineExecutor, row: { id: string; type: 'Import' | 'Export'; schema_code: string; created_by: string; file_id?: string | null; file_name?: string | null; options: ImportOptions | ExportOptions }) {
  await edb.insertInto('data_port_tasks').values({ ...row, options: JSON.stringify(row.options) }).execute();
}
