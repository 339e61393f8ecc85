import { AppError } from '../../lib/app-error.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import { cellText, type Cell } from './cell-values.ts';
import type { FileRow } from './file-rows.ts';
import { portColumns, type PortColumn } from './port-columns.ts';
import { isSampleRow } from './template-sample.ts';

// File columns → form fields (docs/decisions/0020), and file rows → records: a row whose mapped main-table cells
// are all empty but which has sub-table cells continues the record above (one file row per sub-table row, the
// record's own cells on its first row only — the layout an export writes).

export interface MappedColumn {
  index: number;
  header: string;
  column: PortColumn;
}

export interface Mapping {
  columns: MappedColumn[];
  key: MappedColumn | null;
}

const norm = (s: string) => s.trim().toLowerCase();

/** The header row as texts. */
export const headersOf = (row: FileRow | undefined): string[] => (row?.cells ?? []).map((c) => cellText(c));

/** Mapping given (column header → field code) or, when absent, by header = a field's name or code. */
export function resolveMapping(form: RuntimeForm, headers: string[], given: { column: string; field: string }[] | undefined, keyField?: string): Mapping {
  const importable = portColumns(form).filter((c) => c.importable);
  const byCode = new Map(importable.map((c) => [norm(c.code), c]));
  const columns: MappedColumn[] = [];
  const problems: { column: string; field?: string; message: string }[] = [];
  if (given) {
    for (const m of given) {
      const index = headers.findIndex((h) => h.trim() === m.column.trim());
      const column = byCode.get(norm(m.field));
      if (index < 0) problems.push({ column: m.column, message: '文件中没有这一列' });
      else if (!column) problems.push({ column: m.column, field: m.field, message: '字段不存在或不能导入' });
      else columns.push({ index, header: headers[index]!, column });
    }
  } else {
    const byHeader = new Map<string, PortColumn>();
    for (const c of importable) {
      byHeader.set(norm(c.header), c);
      if (!byHeader.has(norm(c.code))) byHeader.set(norm(c.code), c);
    }
    headers.forEach((h, index) => {
      const column = byHeader.get(norm(h));
      if (column) columns.push({ index, header: h, column });
    });
  }
  const seen = new Set<string>();
  for (const c of columns) {
    if (seen.has(c.column.code)) problems.push({ column: c.header, field: c.column.code, message: '多列对应了同一字段' });
    seen.add(c.column.code);
  }
  if (!columns.some((c) => !c.column.system)) problems.push({ column: '', message: '没有可导入的列' });
  if (problems.length) throw new AppError('DataPortMappingInvalid', { detail: { problems } });
  let key: MappedColumn | null = null;
  if (keyField) {
    key = columns.find((c) => !c.column.grid && norm(c.column.code) === norm(keyField)) ?? null;
    const type = key?.column.field?.type.dataType;
    if (!key || (type && !['string', 'decimal', 'int', 'reference'].includes(type))) throw new AppError('DataPortKeyInvalid', { detail: { keyField } });
  }
  return { columns, key };
}

/** A record of the file: its first row's number, its main cells, and its sub-table rows. */
export interface FileRecord {
  rowNo: number;
  rows: FileRow[];
  main: MappedColumn[];
  /** grid code → rows (each the file row holding it). */
  children: Map<string, FileRow[]>;
}

const hasValue = (cell: Cell | undefined) => cell != null && cellText(cell) !== '';

/** Groups data rows (after the header) into records; the template's sample row is skipped. */
export async function* fileRecords(rows: AsyncIterable<FileRow>, mapping: Mapping): AsyncGenerator<FileRecord> {
  const main = mapping.columns.filter((c) => !c.column.grid);
  const grid = mapping.columns.filter((c) => c.column.grid);
  let current: FileRecord | null = null;
  for await (const row of rows) {
    if (isSampleRow(row)) continue;
    const mainFilled = main.some((c) => hasValue(row.cells[c.index]));
    const gridCodes = [...new Set(grid.filter((c) => hasValue(row.cells[c.index])).map((c) => c.column.grid!.code))];
    if (!mainFilled && !gridCodes.length) continue;
    if (mainFilled || !current) {
      if (current) yield current;
      current = { rowNo: row.rowNo, rows: [row], main, children: new Map() };
    } else current.rows.push(row);
    for (const code of gridCodes) {
      const list = current.children.get(code) ?? [];
      list.push(row);
      current.children.set(code, list);
    }
  }
  if (current) yield current;
}
