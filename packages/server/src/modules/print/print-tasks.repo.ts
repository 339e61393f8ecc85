import type { Selectable } from 'kysely';
import type { PrintTaskTable } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { FilterNode } from '@tritium/shared/query/index';

// print_tasks rows (docs/decisions/0050): what a print job prints; its state lives in platform.jobs (same id).

export type PrintTaskRow = Selectable<PrintTaskTable>;

/** The records of a print: chosen ids, or a list view's rows (its filter, quick search, sort) with the caller's filter. */
export interface PrintSelection {
  objectIds?: string[];
  filter?: FilterNode;
  viewCode?: string;
  keyword?: string;
  status?: number[];
  sort?: { field: string; direction: 'asc' | 'desc' }[];
  /** The origin the caller reached the server at: record links in QR codes are absolute. */
  baseUrl: string;
  /** Print with this Excel template of the form (each record's filled workbook) instead of a print template. */
  excelTemplateId?: string;
}

export function findPrintTask(edb: EngineExecutor, id: string): Promise<PrintTaskRow | undefined> {
  return edb.selectFrom('print_tasks').selectAll().where('id', '=', id).executeTakeFirst();
}
