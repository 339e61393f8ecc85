import type ExcelJS from 'exceljs';
import { excelJs } from '../../lib/lazy-packages.ts';
import type { PrintDocument } from '@tritium/shared/print/index';

// Excel print templates (issue 24; docs/decisions/0050): a workbook whose cells hold `{Field}` placeholders (a field or
// system field's text) and rows that hold `{Grid.Column}` placeholders — such a row is a sub-table row marker: it is
// repeated once per row of that sub-table (styles kept), each copy filled from its row. Filled with ExcelJS.

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?\}/g;

/** The sub-table a row marks (its first `{Grid.Column}` placeholder), if any. */
function markedGrid(row: ExcelJS.Row): string | undefined {
  let grid: string | undefined;
  row.eachCell((cell) => {
    if (grid || typeof cell.value !== 'string') return;
    for (const m of cell.value.matchAll(PLACEHOLDER)) if (m[2]) return void (grid = m[1]);
  });
  return grid;
}

function fillRow(row: ExcelJS.Row, values: Record<string, string>, gridRow: Record<string, string> | undefined) {
  row.eachCell((cell) => {
    if (typeof cell.value !== 'string') return;
    cell.value = cell.value.replace(PLACEHOLDER, (_all, code: string, column?: string) => (column ? (gridRow?.[column] ?? '') : (values[code] ?? '')));
  });
}

/** Whether bytes are a workbook ExcelJS reads. */
export async function isReadableWorkbook(bytes: Buffer): Promise<boolean> {
  try {
    await new (await excelJs()).Workbook().xlsx.load(bytes as unknown as ArrayBuffer);
    return true;
  } catch {
    return false;
  }
}

/** The template filled with one record, as an .xlsx file. */
export async function fillWorkbook(bytes: Buffer, doc: PrintDocument): Promise<Buffer> {
  return Buffer.from(await (await filledWorkbook(bytes, doc)).xlsx.writeBuffer());
}

/** The template filled with one record (the workbook, for the .xlsx file or its PDF). */
export async function filledWorkbook(bytes: Buffer, doc: PrintDocument): Promise<ExcelJS.Workbook> {
  const workbook = new (await excelJs()).Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  for (const sheet of workbook.worksheets) {
    const markers: { row: number; grid: string }[] = [];
    sheet.eachRow((row, number) => {
      const grid = markedGrid(row);
      if (grid) markers.push({ row: number, grid });
    });
    // Bottom-up, so that inserting copies does not move the markers still to do.
    for (const { row, grid } of markers.reverse()) {
      const rows = doc.grids[grid]?.rows ?? [];
      if (rows.length > 1) sheet.duplicateRow(row, rows.length - 1, true);
      if (!rows.length) fillRow(sheet.getRow(row), doc.values, {});
      rows.forEach((r, i) => fillRow(sheet.getRow(row + i), doc.values, r));
    }
    sheet.eachRow((row) => fillRow(row, doc.values, undefined));
  }
  return workbook;
}
