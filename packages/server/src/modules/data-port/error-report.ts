import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type ExcelJS from 'exceljs';
import { excelJs } from '../../lib/lazy-packages.ts';
import type { Cell } from './cell-values.ts';
import type { FileRow } from './file-rows.ts';

// The error report of an import (docs/decisions/0020): the rejected file rows as they were, the cells at fault
// filled red, and a last column 错误原因 giving each fault as 「column: reason」. Written as a stream to a temp file,
// opened only when the first row is rejected.

export const REASON_HEADER = '错误原因';
const RED = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFC7CE' } } as const;

export interface RowFaults {
  /** column index → reason */
  cells: Map<number, string>;
  /** faults not tied to one cell (a required field without a column, a rule of the whole record) */
  general: string[];
}

export class ErrorReport {
  private writer: ExcelJS.stream.xlsx.WorkbookWriter | null = null;
  private sheet: ExcelJS.Worksheet | null = null;
  private dir: string | null = null;
  rows = 0;

  constructor(private readonly headers: string[]) {}

  get file(): string | null {
    return this.dir ? path.join(this.dir, 'errors.xlsx') : null;
  }

  private async open() {
    this.dir = await mkdtemp(path.join(os.tmpdir(), 'tritium-import-'));
    this.writer = new (await excelJs()).stream.xlsx.WorkbookWriter({ filename: this.file!, useStyles: true, useSharedStrings: false });
    this.sheet = this.writer.addWorksheet('错误数据');
    this.sheet.addRow([...this.headers, REASON_HEADER]).commit();
  }

  async add(row: FileRow, faults: RowFaults): Promise<void> {
    if (!this.writer) await this.open();
    const reasons = [...[...faults.cells].map(([i, m]) => `${this.headers[i] ?? `第${i + 1}列`}：${m}`), ...faults.general];
    const cells: (Cell | string)[] = this.headers.map((_h, i) => row.cells[i] ?? null);
    const excelRow = this.sheet!.addRow([...cells, reasons.join('；')]);
    for (const i of faults.cells.keys()) excelRow.getCell(i + 1).fill = RED;
    excelRow.commit();
    this.rows++;
  }

  /** Finishes the workbook; answers its path (null when nothing was rejected). */
  async finish(): Promise<string | null> {
    if (!this.writer) return null;
    this.sheet!.commit();
    await this.writer.commit();
    return this.file;
  }

  stream() {
    return createReadStream(this.file!);
  }

  async dispose(): Promise<void> {
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}
