import { PassThrough } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import { readFileRows } from './file-rows.ts';
import type { Cell } from './cell-values.ts';

// The worker thread that parses an import's .xlsx (docs/decisions/0106; the main thread's side: xlsx-worker.ts). The
// file's bytes arrive as messages; its rows go back in batches of flat arrays — row numbers, where each row's cells
// end, the cells one after another — one batch per credit the main thread gives, so the worker runs at most a few
// batches ahead and memory stays flat whatever the file's size.

/** Rows per message. */
const ROWS = 500;

export type ToWorker = { chunk: Uint8Array } | { end: true } | { more: true } | { stop: true };
export type FromWorker = { rowNos: Int32Array; ends: Int32Array; cells: Cell[] } | { done: true } | { error: string };

const port = parentPort!;
const input = new PassThrough();
let credit = 0;
let stopping = false;
let wake: (() => void) | undefined;
port.on('message', (m: ToWorker) => {
  if ('chunk' in m) input.write(Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength));
  else if ('end' in m) input.end();
  else if ('stop' in m) {
    // The import stopped reading: the reader ends (its temporary copy removed) and the thread with it.
    stopping = true;
    input.destroy();
    wake?.();
  } else {
    credit++;
    wake?.();
  }
});

async function send(rowNos: number[], ends: number[], cells: Cell[]): Promise<void> {
  while (credit <= 0 && !stopping) await new Promise<void>((resolve) => (wake = resolve));
  if (stopping) throw new Error('stopped');
  credit--;
  const numbers = Int32Array.from(rowNos);
  const cellEnds = Int32Array.from(ends);
  port.postMessage({ rowNos: numbers, ends: cellEnds, cells } satisfies FromWorker, [numbers.buffer as ArrayBuffer, cellEnds.buffer as ArrayBuffer]);
}

try {
  let rowNos: number[] = [];
  let ends: number[] = [];
  let cells: Cell[] = [];
  for await (const row of readFileRows(input, 'xlsx')) {
    rowNos.push(row.rowNo);
    for (const cell of row.cells) cells.push(cell);
    ends.push(cells.length);
    if (rowNos.length < ROWS) continue;
    await send(rowNos, ends, cells);
    rowNos = [];
    ends = [];
    cells = [];
  }
  if (rowNos.length) await send(rowNos, ends, cells);
  port.postMessage({ done: true } satisfies FromWorker);
} catch (error) {
  if (!stopping) port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies FromWorker);
}
port.close();
