import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FileRow } from './file-rows.ts';
import type { FromWorker, ToWorker } from './xlsx-rows.worker.ts';
import type { FromSheetWorker, SheetWorkerData, ToSheetWorker } from './xlsx-sheet.worker.ts';
import type { Cell, CellLink } from './cell-values.ts';

// An import's .xlsx parsed, an export's sheet written, on another core (issue 26, docs/decisions/0106): the streaming
// reader (exceljs, saxes, zlib) and its garbage were a quarter of the import's main thread, the writer a third of the
// export's. Used when TRITIUM_XLSX_WORKER_FROM_ROWS says so (off by default: with the database on the same two cores
// a worker added CPU and memory and gained nothing). The reader's worker (xlsx-rows.worker.ts) reads the same rows
// with the same reader (file-rows.ts); this side feeds it the file's bytes and hands its rows on one by one, giving it
// a credit per batch taken so it stays at most two ahead.

/** Batches the worker may have parsed and not yet handed on. */
const AHEAD = 2;
/** How long a stopped worker may take to end its reader before it is ended. */
const STOP_GRACE_MS = 5000;

/**
 * A data-port worker (`name`.worker.ts): from the sources (tests, `npm run dev`, benches) its TypeScript entry, loaded
 * through tsx registered in the worker first; from the built server (docs/decisions/0093) the worker module built
 * beside the bundle, named after it (scripts/build-server.mjs workerOf).
 */
function startWorker(name: 'xlsx-rows' | 'xlsx-sheet', workerData?: unknown): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    // tsx's ES module API (its package's export, by the "import" condition: require.resolve would find the CommonJS one).
    const manifest = createRequire(here).resolve('tsx/package.json');
    const exported = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api']!.import.default;
    const api = pathToFileURL(path.join(path.dirname(manifest), exported)).href;
    const entry = new URL(`./${name}.worker.ts`, here).href;
    return new Worker(`import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`, { eval: true, workerData });
  }
  return new Worker(new URL(here.replace(/\.mjs$/, `.${name}.worker.mjs`)), { workerData });
}

/** A worker's messages as they arrive, its failure and its end, for one consumer to wait on. */
class Inbox<T> {
  readonly arrived: T[] = [];
  failed: Error | undefined;
  exited = false;
  private wake: (() => void) | undefined;
  constructor(readonly worker: Worker) {
    worker.on('message', (m: T) => {
      this.arrived.push(m);
      this.ring();
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', () => {
      this.exited = true;
      this.ring();
    });
  }
  fail(error: Error) {
    this.failed ??= error;
    this.ring();
  }
  private ring() {
    this.wake?.();
    this.wake = undefined;
  }
  /** The next message; undefined once the worker failed or ended with none left. */
  async next(): Promise<T | undefined> {
    while (!this.arrived.length && !this.failed && !this.exited) await new Promise<void>((resolve) => (this.wake = resolve));
    return this.arrived.shift();
  }
  /** Waits until the worker has ended. */
  async ended(): Promise<void> {
    while (!this.exited) await new Promise<void>((resolve) => (this.wake = resolve));
  }
}

/** The rows of an .xlsx's first worksheet, parsed in a worker thread (as file-rows.ts readFileRows reads them). */
export async function* xlsxRowsInWorker(stream: Readable): AsyncGenerator<FileRow> {
  const inbox = new Inbox<FromWorker>(startWorker('xlsx-rows'));
  const { worker } = inbox;
  const tell = (m: ToWorker, transfer?: ArrayBuffer[]) => worker.postMessage(m, transfer);
  // The bytes go over as they are read; each chunk a copy of its own (a stream's chunks may share one buffer).
  const feeding = (async () => {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const copy = new Uint8Array(chunk);
      tell({ chunk: copy }, [copy.buffer]);
    }
    tell({ end: true });
  })();
  feeding.catch((error: Error) => inbox.fail(error));
  try {
    for (let i = 0; i < AHEAD; i++) tell({ more: true });
    for (;;) {
      const m = await inbox.next();
      if (!m) throw inbox.failed ?? new Error('The .xlsx reader stopped before the end of the file');
      if ('error' in m) throw new Error(m.error);
      if ('done' in m) return;
      tell({ more: true });
      let from = 0;
      for (let i = 0; i < m.rowNos.length; i++) {
        const to = m.ends[i]!;
        yield { rowNo: m.rowNos[i]!, cells: m.cells.slice(from, to) };
        from = to;
      }
    }
  } finally {
    stream.destroy();
    await stopped(inbox, () => tell({ stop: true }));
  }
}

/**
 * Asked to stop, a worker ends what it has open (the reader removes its temporary copy of the file) and exits; one that
 * does not within the grace is ended.
 */
async function stopped(inbox: Inbox<unknown>, ask: () => void): Promise<void> {
  if (inbox.exited) return;
  ask();
  const grace = setTimeout(() => void inbox.worker.terminate(), STOP_GRACE_MS);
  await inbox.ended();
  clearTimeout(grace);
}

/** Rows per message to the sheet writer. */
const SHEET_ROWS = 500;

/**
 * An export's sheet written by exceljs's streaming writer in a worker thread (xlsx-sheet.worker.ts): rows are added
 * here, sent in batches, each batch acknowledged once written; `add` waits while AHEAD batches are unacknowledged.
 */
export class SheetWriter {
  private readonly inbox: Inbox<FromSheetWorker>;
  private cells: (Cell | CellLink)[] = [];
  private ends: number[] = [];
  private unacknowledged = 0;
  constructor(data: SheetWorkerData) {
    this.inbox = new Inbox(startWorker('xlsx-sheet', data));
  }

  async add(cells: (Cell | CellLink)[]): Promise<void> {
    for (const cell of cells) this.cells.push(cell);
    this.ends.push(this.cells.length);
    if (this.ends.length >= SHEET_ROWS) await this.send();
  }

  private async send(): Promise<void> {
    while (this.unacknowledged >= AHEAD) await this.expect('written');
    const ends = Int32Array.from(this.ends);
    this.inbox.worker.postMessage({ cells: this.cells, ends } satisfies ToSheetWorker, [ends.buffer as ArrayBuffer]);
    this.unacknowledged++;
    this.cells = [];
    this.ends = [];
  }

  private async expect(what: 'written' | 'finished'): Promise<void> {
    const m = await this.inbox.next();
    if (!m) throw this.inbox.failed ?? new Error('The .xlsx writer stopped');
    if ('error' in m) throw new Error(m.error);
    if (what in m) {
      if (what === 'written') this.unacknowledged--;
      return;
    }
    if ('written' in m) this.unacknowledged--;
    return this.expect(what);
  }

  /** Writes the rest and closes the workbook (its file complete once this settles). */
  async finish(): Promise<void> {
    if (this.ends.length) await this.send();
    this.inbox.worker.postMessage({ finish: true } satisfies ToSheetWorker);
    await this.expect('finished');
    await this.inbox.ended();
  }

  /** Ends the worker, finished or not. */
  async close(): Promise<void> {
    if (!this.inbox.exited) await this.inbox.worker.terminate();
  }
}
