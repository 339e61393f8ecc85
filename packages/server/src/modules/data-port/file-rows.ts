import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse';
import type { Cell } from './cell-values.ts';
import { fixExcelJsUtf8 } from './exceljs-utf8.ts';

fixExcelJsUtf8();

// Rows of an uploaded .xlsx (its first worksheet) or .csv, read as a stream: memory stays flat whatever the size
// (docs/decisions/0020). Each row comes with its row number in the file (1 = the header), cells 0-based.

export interface FileRow {
  rowNo: number;
  cells: Cell[];
}

export type FileKind = 'xlsx' | 'csv';

export function fileKindOf(name: string, contentType: string): FileKind | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.csv') || contentType === 'text/csv') return 'csv';
  if (lower.endsWith('.xlsx') || contentType === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet') return 'xlsx';
  return null;
}

/** An exceljs cell value as a plain cell: rich text joined, a formula's result, a link's text, errors empty. */
function plainCell(value: unknown): Cell {
  if (value == null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) return (v.richText as { text: string }[]).map((r) => r.text).join('');
    if ('result' in v) return plainCell(v.result);
    if ('text' in v) return plainCell(v.text);
    if ('error' in v) return null;
  }
  return String(value);
}

async function* xlsxRows(stream: Readable): AsyncGenerator<FileRow> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(stream, { worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore' });
  for await (const sheet of reader) {
    for await (const row of sheet) {
      const values = row.values as unknown[];
      const cells: Cell[] = [];
      for (let i = 1; i < values.length; i++) cells.push(plainCell(values[i]));
      yield { rowNo: row.number, cells };
    }
    // Only the first worksheet is read; the rest of the file is drained by the reader.
    break;
  }
}

async function* csvRows(stream: Readable): AsyncGenerator<FileRow> {
  const parser = stream.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, trim: false }));
  let rowNo = 0;
  for await (const record of parser as AsyncIterable<string[]>) {
    rowNo++;
    yield { rowNo, cells: record.map((c) => (c === '' ? null : c)) };
  }
}

export function readFileRows(stream: Readable, kind: FileKind): AsyncGenerator<FileRow> {
  return kind === 'csv' ? csvRows(stream) : xlsxRows(stream);
}
