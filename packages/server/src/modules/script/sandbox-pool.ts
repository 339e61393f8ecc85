import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../lib/app-error.ts';
import { ScriptCallError } from './sandbox-errors.ts';
import type { SandboxLimits, VmOutcome } from './sandbox-vm.ts';
import type { FromSandboxWorker, ToSandboxWorker } from './sandbox.worker.ts';

// The script sandbox's worker threads (docs/decisions/0118). A script runs on a worker of the pool, never on the
// server's event loop: an endless loop or a memory bomb costs a core for at most its limits while every other request
// goes on. A worker runs one script at a time; its API calls come here as messages and are answered by the run's host
// (in the caller's transaction). Workers start on first use, are unref'd while idle, and are ended and replaced when a
// run breaks their module, fills their memory or outlives its wall-clock bound. Runs beyond the workers wait in a
// bounded queue; past its bound, or waiting too long, a run is refused as busy (410006).

export interface PoolHost {
  /** Log lines, refusal, respond: no answer goes back. */
  immediate(name: string, args: unknown): void;
  /** Throw ScriptCallError for an answer into the script; any other error ends the run and is the outcome's hostError. */
  call(name: string, args: unknown): Promise<unknown>;
}

export interface PoolRun {
  js: string;
  entry: string;
  input: unknown;
  info: unknown;
  host: PoolHost;
  limits: SandboxLimits;
}

export interface PoolOptions {
  /** Worker threads at most. */
  size: number;
  /** Runs that may wait for a worker; one more is refused as busy. */
  maxQueued: number;
  /** How long a run may wait for a worker before it is refused as busy. */
  maxWaitMs: number;
  /** How long past its wall-clock bound a run's worker may stay silent before it is ended (the run: a time-out). */
  graceMs: number;
}

export interface PoolStats {
  workers: number;
  busy: number;
  queued: number;
  /** Workers started since the pool was made (each compiles one QuickJS module). */
  started: number;
}

/** The worker's JavaScript heap (its answers and the values it dumps): past it the worker ends, not the process. */
const WORKER_HEAP_MB = 256;

/**
 * The worker: from the sources (tests, `npm run dev`, benches) its TypeScript entry loaded through tsx registered in
 * the worker first; from the built server (docs/decisions/0093) the module built beside the bundle and named after it
 * (scripts/build-server.mjs workerOf) — as the data-port workers start (data-port/xlsx-worker.ts).
 */
function startSandboxWorker(): Worker {
  const here = import.meta.url;
  const options = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  if (here.endsWith('.ts')) {
    const manifest = createRequire(here).resolve('tsx/package.json');
    const exported = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api']!.import.default;
    const api = pathToFileURL(path.join(path.dirname(manifest), exported)).href;
    const entry = new URL('./sandbox.worker.ts', here).href;
    return new Worker(`import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`, { eval: true, ...options });
  }
  return new Worker(new URL(here.replace(/\.mjs$/, '.script-sandbox.worker.mjs')), options);
}

/** One run on a worker: how its messages are answered and how it ends. */
interface Active {
  run: number;
  onMessage(m: FromSandboxWorker): void;
  /** The worker ended (or failed) during the run. */
  onExit(error: Error | undefined): void;
}

interface PoolWorker {
  worker: Worker;
  /** It compiled its module: a failure after that is the run's, before it the platform's. */
  ready: boolean;
  active?: Active;
  /** Ended once its run is over (the pool closed or replaced it). */
  retired: boolean;
  error?: Error;
  exited: Promise<void>;
}

interface Waiting {
  run: PoolRun;
  resolve(outcome: VmOutcome): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout;
}

const outcomeOf = (status: VmOutcome['status'], message: string): VmOutcome => ({ status, found: false, value: null, record: null, children: null, message, line: null, cpuMs: 0 });

export class SandboxPool {
  private readonly workers = new Set<PoolWorker>();
  private readonly queue: Waiting[] = [];
  private runs = 0;
  private started = 0;

  constructor(readonly options: PoolOptions) {}

  /** Runs a script on a free worker, or after the runs before it; refused as busy when too many wait. */
  run(run: PoolRun): Promise<VmOutcome> {
    const free = this.freeWorker();
    if (free) return this.dispatch(free, run);
    if (this.queue.length >= this.options.maxQueued) return Promise.reject(new AppError('ScriptBusy', { detail: { queued: this.queue.length } }));
    return new Promise((resolve, reject) => {
      const waiting: Waiting = {
        run,
        resolve,
        reject,
        timer: setTimeout(() => {
          const at = this.queue.indexOf(waiting);
          if (at < 0) return;
          this.queue.splice(at, 1);
          reject(new AppError('ScriptBusy', { detail: { queued: this.queue.length } }));
        }, this.options.maxWaitMs),
      };
      this.queue.push(waiting);
    });
  }

  stats(): PoolStats {
    let busy = 0;
    for (const w of this.workers) if (w.active) busy++;
    return { workers: this.workers.size, busy, queued: this.queue.length, started: this.started };
  }

  /**
   * Ends every worker: idle ones now, busy ones once their run is over (waited for). Runs still queued, and runs
   * after the close, start new workers: the pool is the process's and serves whichever app runs next.
   */
  async close(): Promise<void> {
    const all = [...this.workers];
    this.workers.clear();
    for (const w of all) {
      w.retired = true;
      if (!w.active) void w.worker.terminate();
    }
    await Promise.all(all.map((w) => w.exited));
  }

  /** An idle worker, or a new one while the pool is under its size. */
  private freeWorker(): PoolWorker | undefined {
    for (const w of this.workers) if (!w.active) return w;
    return this.workers.size < this.options.size ? this.spawn() : undefined;
  }

  private spawn(): PoolWorker {
    const worker = startSandboxWorker();
    this.started++;
    const w: PoolWorker = { worker, ready: false, retired: false, exited: new Promise((resolve) => worker.once('exit', () => resolve())) };
    worker.on('message', (m: FromSandboxWorker) => {
      if (m.type === 'ready') w.ready = true;
      else if (w.active && m.run === w.active.run) w.active.onMessage(m);
    });
    worker.on('error', (error) => (w.error ??= error));
    worker.on('exit', () => {
      this.workers.delete(w);
      w.active?.onExit(w.error);
      this.next();
    });
    this.workers.add(w);
    return w;
  }

  /** Ends a worker now (it is not used again). */
  private retire(w: PoolWorker): void {
    w.retired = true;
    this.workers.delete(w);
    void w.worker.terminate();
  }

  /** Hands queued runs to free workers. */
  private next(): void {
    while (this.queue.length) {
      const free = this.freeWorker();
      if (!free) return;
      const waiting = this.queue.shift()!;
      clearTimeout(waiting.timer);
      this.dispatch(free, waiting.run).then(waiting.resolve, waiting.reject);
    }
  }

  private dispatch(w: PoolWorker, run: PoolRun): Promise<VmOutcome> {
    const id = ++this.runs;
    w.worker.ref();
    return new Promise((resolve) => {
      const calls = new Set<Promise<void>>();
      let hostError: unknown;
      let ended = false;
      const tell = (m: ToSandboxWorker) => {
        if (!ended) w.worker.postMessage(m);
      };
      const end = (outcome: VmOutcome, replace: boolean) => {
        if (ended) return;
        ended = true;
        clearTimeout(watchdog);
        w.active = undefined;
        if (replace || w.retired) this.retire(w);
        else w.worker.unref();
        // A call still running holds the caller's transaction: the run is over only once it is.
        void Promise.allSettled(calls).then(() => {
          resolve(hostError === undefined ? outcome : { ...outcome, hostError });
          this.next();
        });
      };
      const answer = async (call: number, name: string, args: unknown) => {
        try {
          tell({ type: 'answer', call, json: JSON.stringify((await run.host.call(name, args)) ?? null) });
        } catch (error) {
          if (!(error instanceof ScriptCallError)) hostError ??= error;
          tell(error instanceof ScriptCallError ? { type: 'answer', call, message: error.message, hostFailed: false } : { type: 'answer', call, message: '平台处理脚本的调用时出错', hostFailed: true });
        }
      };
      // The worker stops a run at its wall-clock bound; one that stays silent past it is stuck (or its module is) and ended.
      const watchdog = setTimeout(() => end(outcomeOf('timeout', `脚本运行超时（含等待的总时间超过 ${run.limits.wallMs} 毫秒）`), true), run.limits.wallMs + this.options.graceMs);
      w.active = {
        run: id,
        onMessage(m) {
          if (m.type === 'immediate') run.host.immediate(m.name, m.args);
          else if (m.type === 'call') {
            const call = answer(m.call, m.name, m.args);
            calls.add(call);
            void call.finally(() => calls.delete(call));
          } else if (m.type === 'done') end(m.outcome, m.broken);
          else if (m.type === 'failed') {
            hostError ??= new Error(`The script sandbox failed: ${m.message}`);
            end(outcomeOf('error', '平台处理脚本时出错'), true);
          }
        },
        onExit(error) {
          if (!w.ready) hostError ??= error ?? new Error('The script sandbox worker ended before it started');
          const memory = (error as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
          end(memory ? outcomeOf('memory', '脚本使用的内存超过上限') : outcomeOf('error', '脚本的运行环境意外结束'), true);
        },
      };
      w.worker.postMessage({ type: 'run', run: id, js: run.js, entry: run.entry, input: run.input, info: run.info, limits: run.limits } satisfies ToSandboxWorker);
    });
  }
}
