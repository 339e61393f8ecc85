import { Readable } from 'node:stream';
import { csvParse, excelJs } from '../../lib/lazy-packages.ts';
import type { Cell } from './cell-values.ts';
import { fixExcelJsUtf8 } from './exceljs-utf8.ts';
import { readXlsxByDirectory } from './exceljs-zip-directory.ts';

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
  const ExcelJS = await excelJs();
  // The reader's two repairs, applied once, before the first read (each file says why).
  fixExcelJsUtf8();
  readXlsxByDirectory();
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

/**
 * A .csv's text encoding: UTF-8 (a BOM, or bytes that decode as UTF-8) or else GB18030, the superset of GBK that
 * spreadsheet programs on Chinese systems save .csv files in. Judged on the first 64 KB.
 */
export function csvEncodingOf(head: Uint8Array): 'utf-8' | 'gb18030' {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return 'utf-8';
  } catch {
    return 'gb18030';
  }
}

/** The stream as text: its first 64 KB decide the encoding, then every chunk is decoded with a carrying decoder. */
async function* decodedText(stream: Readable): AsyncGenerator<string> {
  let head: Buffer[] = [];
  let size = 0;
  let decoder: TextDecoder | undefined;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (!decoder) {
      head.push(chunk);
      size += chunk.length;
      if (size < 64 * 1024) continue;
      const bytes = Buffer.concat(head);
      head = [];
      decoder = new TextDecoder(csvEncodingOf(bytes));
      yield decoder.decode(bytes, { stream: true });
      continue;
    }
    yield decoder.decode(chunk, { stream: true });
  }
  if (!decoder) {
    const bytes = Buffer.concat(head);
    decoder = new TextDecoder(csvEncodingOf(bytes));
    yield decoder.decode(bytes, { stream: true });
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

async function* csvRows(stream: Readable): AsyncGenerator<FileRow> {
  const { parse } = await csvParse();
  const parser = Readable.from(decodedText(stream)).pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, trim: false }));
  let rowNo = 0;
  for await (const record of parser as AsyncIterable<string[]>) {
    rowNo++;
    yield { rowNo, cells: record.map((c) => (c === '' ? null : c)) };
  }
}

export function readFileRows(stream: Readable, kind: FileKind): AsyncGenerator<FileRow> {
  return kind === 'csv' ? csvRows(stream) : xlsxRows(stream);
}
