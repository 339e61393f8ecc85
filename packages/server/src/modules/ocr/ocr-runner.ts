import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../lib/app-error.ts';
import type { OcrResult } from './ocr-engine.ts';
import type { FromOcrWorker, ToOcrWorker } from './ocr.worker.ts';

// The main thread's side of OCR (docs/decisions/0125): one worker thread per process, started at the first picture
// (the models take seconds and about 200 MB to load) and ended after a while idle. Pictures are read one at a time —
// two requests never hold two copies of the models' working memory — and a few more may wait their turn; beyond that
// the caller is told to try again. A picture taking too long ends the worker (the next picture starts a new one).

/** A whole number of at least `min` from the environment, else the default. */
const envNumber = (name: string, fallback: number, min = 1) => {
  const value = Number(process.env[name]);
  return process.env[name] && Number.isInteger(value) && value >= min ? value : fallback;
};

/** Pictures that may wait behind the one being read. */
const MAX_WAITING = 6;
/** One picture's longest reading, in ms. */
const READ_TIMEOUT_MS = envNumber('TRITIUM_OCR_TIMEOUT_MS', 120_000);
/** The worker (and its models) goes after this long without a picture. */
const IDLE_MS = envNumber('TRITIUM_OCR_IDLE_MS', 10 * 60_000);
/** WebAssembly threads the models use (the worker itself is already off the request thread). */
const THREADS = envNumber('TRITIUM_OCR_THREADS', 1);

/**
 * The worker's entry: from the sources (tests, development) its TypeScript through tsx registered in the worker; from
 * the built server the worker module beside the bundle (scripts/build-server.mjs names it).
 */
function startWorker(): Worker {
  const here = import.meta.url;
  const workerData = { threads: THREADS };
  if (here.endsWith('.ts')) {
    const manifest = createRequire(here).resolve('tsx/package.json');
    const exported = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api']!.import.default;
    const api = pathToFileURL(path.join(path.dirname(manifest), exported)).href;
    const entry = new URL('./ocr.worker.ts', here).href;
    return new Worker(`import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`, { eval: true, workerData });
  }
  return new Worker(new URL(here.replace(/\.mjs$/, '.ocr.worker.mjs')), { workerData });
}

let worker: Worker | undefined;
let nextId = 1;
let idleTimer: NodeJS.Timeout | undefined;
const pending = new Map<number, { resolve: (r: OcrResult) => void; reject: (e: Error) => void }>();
/** The reading in progress, which the next one waits for. */
let queue: Promise<unknown> = Promise.resolve();
let waiting = 0;

function workerOf(): Worker {
  if (worker) return worker;
  const started = startWorker();
  started.on('message', (m: FromOcrWorker) => {
    const waiter = pending.get(m.id);
    if (!waiter) return;
    pending.delete(m.id);
    // Idle, the worker does not keep the process alive; reading, it does.
    if (!pending.size) started.unref();
    if ('result' in m) waiter.resolve(m.result);
    else waiter.reject(m.invalidImage ? new AppError('OcrImageInvalid', { detail: { limitMb: 20 } }) : new AppError('OcrFailed', { detail: { message: m.error.slice(0, 200) } }));
  });
  const fail = (error: Error) => {
    if (worker === started) worker = undefined;
    for (const [id, waiter] of pending) {
      pending.delete(id);
      waiter.reject(new AppError('OcrFailed', { detail: { message: error.message.slice(0, 200) } }));
    }
  };
  started.on('error', fail);
  started.on('exit', () => fail(new Error('the recognition worker stopped')));
  started.unref();
  worker = started;
  return started;
}

function readOnce(bytes: Buffer): Promise<OcrResult> {
  const target = workerOf();
  const id = nextId++;
  return new Promise<OcrResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new AppError('OcrFailed', { detail: { message: 'timed out' } }));
      void target.terminate();
    }, READ_TIMEOUT_MS);
    timer.unref();
    pending.set(id, {
      resolve: (r) => (clearTimeout(timer), resolve(r)),
      reject: (e) => (clearTimeout(timer), reject(e)),
    });
    target.ref();
    const copy = new Uint8Array(bytes);
    target.postMessage({ id, bytes: copy } satisfies ToOcrWorker, [copy.buffer]);
  });
}

/** A picture's text lines, read in the OCR worker, one picture at a time. */
export async function readPictureText(bytes: Buffer): Promise<OcrResult> {
  // `waiting` counts the picture being read too.
  if (waiting > MAX_WAITING) throw new AppError('OcrBusy');
  waiting++;
  clearTimeout(idleTimer);
  const turn = queue.then(() => readOnce(bytes));
  queue = turn.catch(() => undefined);
  try {
    return await turn;
  } finally {
    waiting--;
    if (!waiting) {
      idleTimer = setTimeout(() => void stopOcr(), IDLE_MS);
      idleTimer.unref();
    }
  }
}

/** Ends the worker (tests, shutdown); the next picture starts another. */
export async function stopOcr(): Promise<void> {
  const running = worker;
  worker = undefined;
  if (running) await running.terminate();
}
