import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FileRow } from './file-rows.ts';
import type { FromWorker, ToWorker } from './xlsx-rows.worker.ts';

// An import's .xlsx parsed on the second core (issue 26, docs/decisions/0106): the streaming reader (exceljs, saxes,
// zlib) and its garbage were a quarter of the import's main thread, which converts, checks and writes the records.
// The worker (xlsx-rows.worker.ts) reads the same rows with the same reader (file-rows.ts); this side feeds it the
// file's bytes and hands its rows on one by one, giving it a credit per batch taken so it stays at most two ahead.

/** Batches the worker may have parsed and not yet handed on. */
const AHEAD = 2;
/** How long a stopped worker may take to end its reader before it is ended. */
const STOP_GRACE_MS = 5000;

/**
 * The worker: from the sources (tests, `npm run dev`, benches) its TypeScript entry, loaded through tsx registered in
 * the worker first; from the built server (docs/decisions/0093) the worker module built beside the bundle, named after
 * it (scripts/build-server.mjs).
 */
function startWorker(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    // tsx's ES module API (its package's export, by the "import" condition: require.resolve would find the CommonJS one).
    const manifest = createRequire(here).resolve('tsx/package.json');
    const exported = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api']!.import.default;
    const api = pathToFileURL(path.join(path.dirname(manifest), exported)).href;
    const entry = new URL('./xlsx-rows.worker.ts', here).href;
    return new Worker(`import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`, { eval: true });
  }
  return new Worker(new URL(here.replace(/\.mjs$/, '.xlsx-rows.worker.mjs')));
}

/** The rows of an .xlsx's first worksheet, parsed in a worker thread (as file-rows.ts readFileRows reads them). */
export async function* xlsxRowsInWorker(stream: Readable): AsyncGenerator<FileRow> {
  const worker = startWorker();
  const arrived: FromWorker[] = [];
  let failed: Error | undefined;
  let exited = false;
  let wake: (() => void) | undefined;
  const ring = () => {
    wake?.();
    wake = undefined;
  };
  worker.on('message', (m: FromWorker) => {
    arrived.push(m);
    ring();
  });
  worker.on('error', (error) => {
    failed ??= error;
    ring();
  });
  worker.on('exit', () => {
    exited = true;
    ring();
  });
  const tell = (m: ToWorker, transfer?: ArrayBuffer[]) => worker.postMessage(m, transfer);
  // The bytes go over as they are read; each chunk a copy of its own (a stream's chunks may share one buffer).
  const feeding = (async () => {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const copy = new Uint8Array(chunk);
      tell({ chunk: copy }, [copy.buffer]);
    }
    tell({ end: true });
  })();
  feeding.catch((error: Error) => {
    failed ??= error;
    ring();
  });
  try {
    for (let i = 0; i < AHEAD; i++) tell({ more: true });
    for (;;) {
      while (!arrived.length && !failed && !exited) await new Promise<void>((resolve) => (wake = resolve));
      const m = arrived.shift();
      if (!m) throw failed ?? new Error('The .xlsx reader stopped before the end of the file');
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
    // Asked to stop, the worker ends its reader (which removes its temporary copy of the file) and exits; one that
    // does not within the grace is ended.
    if (!exited) {
      tell({ stop: true });
      const grace = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
      while (!exited) await new Promise<void>((resolve) => (wake = resolve));
      clearTimeout(grace);
    }
  }
}
