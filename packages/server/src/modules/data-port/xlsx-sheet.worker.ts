import { parentPort, workerData } from 'node:worker_threads';
import { excelJs } from '../../lib/lazy-packages.ts';
import type { Cell, CellLink } from './cell-values.ts';

// The worker thread that writes an export's sheet (docs/decisions/0106; the main thread's side: xlsx-worker.ts
// SheetWriter): exceljs's streaming writer (row models, their XML, the zip) was a third of the export's main thread.
// Rows arrive in batches of flat arrays — the cells one after another and where each row's cells end; each batch
// written is acknowledged, so the main thread stays at most a few batches ahead.

export interface SheetWorkerData {
  file: string;
  sheetName: string;
  header: string[];
}
export type ToSheetWorker = { cells: (Cell | CellLink)[]; ends: Int32Array } | { finish: true };
export type FromSheetWorker = { written: true } | { finished: true } | { error: string };

const port = parentPort!;
const { file, sheetName, header } = workerData as SheetWorkerData;
const workbook = new (await excelJs()).stream.xlsx.WorkbookWriter({ filename: file, useStyles: false, useSharedStrings: false });
const sheet = workbook.addWorksheet(sheetName);
sheet.addRow(header).commit();

let failed = false;
port.on('message', (m: ToSheetWorker) => {
  if (failed) return;
  try {
    if ('finish' in m) {
      sheet.commit();
      workbook.commit().then(
        () => {
          port.postMessage({ finished: true } satisfies FromSheetWorker);
          port.close();
        },
        (error: unknown) => fail(error),
      );
      return;
    }
    let from = 0;
    for (const to of m.ends) {
      sheet.addRow(m.cells.slice(from, to)).commit();
      from = to;
    }
    port.postMessage({ written: true } satisfies FromSheetWorker);
  } catch (error) {
    fail(error);
  }
});

function fail(error: unknown) {
  failed = true;
  port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies FromSheetWorker);
  port.close();
}
