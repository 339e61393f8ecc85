import { performance } from 'node:perf_hooks';
import { newQuickJSWASMModule, RELEASE_SYNC, type QuickJSContext, type QuickJSDeferredPromise, type QuickJSHandle, type QuickJSRuntime, type QuickJSWASMModule } from 'quickjs-emscripten';
import { PRELUDE_FILE, SERVER_PRELUDE } from './prelude.ts';
import { describeVmError, parseHostArgs, SCRIPT_FILE, ScriptCallError, type SandboxStatus, type VmError } from './sandbox-errors.ts';

// One run of the script sandbox (docs/decisions/0118) on the thread that calls it: a worker thread of the pool
// (sandbox.worker.ts), or the calling thread when the pool has no workers. QuickJS compiled to WebAssembly, one module
// per thread, a fresh runtime and context per run. The VM sees one host function, `__host(name, json)`; the prelude
// builds `ctx` from it. CPU time is counted over the VM's own slices (evaluation, calls, pending jobs), not while the
// host awaits the database. Nothing here knows the database: the host answers each call with JSON text.

export interface SandboxLimits {
  cpuMs: number;
  memoryBytes: number;
  stackBytes: number;
  /** The whole run, host calls included (10 × cpuMs unless given). */
  wallMs: number;
}

/**
 * The defaults. The stack is 256 kB, not more: QuickJS measures its stack in WebAssembly's linear memory while the
 * frames themselves use Node's own stack, and a deeper limit let plain recursion exhaust Node's stack first (measured
 * on the main thread: 512 kB already did). A run that still exhausts it (JSON.stringify of a very deep object) ends as
 * an error and the module is replaced.
 */
export const DEFAULT_LIMITS: Readonly<SandboxLimits> = { cpuMs: 2_000, memoryBytes: 64 * 1024 * 1024, stackBytes: 256 * 1024, wallMs: 20_000 };
/** What an engine may set (docs/decisions/0118). */
export const LIMIT_BOUNDS = { cpuMs: { min: 100, max: 10_000 }, memoryBytes: { min: 8 * 1024 * 1024, max: 256 * 1024 * 1024 } } as const;

/** The limits of a run: the defaults under what it asks, the wall-clock bound 10 × its CPU time unless given. */
export function limitsOf(asked: Partial<SandboxLimits> | undefined): SandboxLimits {
  const cpuMs = asked?.cpuMs ?? DEFAULT_LIMITS.cpuMs;
  return { ...DEFAULT_LIMITS, wallMs: cpuMs * 10, ...asked, cpuMs };
}

/** The calls a script's prelude sends without waiting for an answer (`send` in prelude.ts). */
export const IMMEDIATE_CALLS: ReadonlySet<string> = new Set(['log', 'refuse', 'respond']);

/** The host as the VM sees it. */
export interface VmHost {
  /** The calls answered at once (log lines, refusal, respond): true when handled. */
  immediate(name: string, args: unknown): boolean;
  /** An API call's answer as JSON text. Throw ScriptCallError for an answer into the script; any other error ends the run. */
  call(name: string, args: unknown): Promise<string>;
}

export interface VmRun {
  js: string;
  /** 'onSubmit', 'actions.createOrder', … */
  entry: string;
  input: unknown;
  /** engine, user, appCode, schemaCode, requestId: what ctx shows of the run. */
  info: unknown;
  host: VmHost;
  limits: SandboxLimits;
}

/** How a run ended, as the VM saw it. `line` is the line of the compiled script (the caller maps it to the source's). */
export interface VmOutcome {
  status: SandboxStatus;
  /** The handler exists (a script without it does nothing: ok). */
  found: boolean;
  value: unknown;
  record: unknown;
  children: unknown;
  message: string | null;
  line: number | null;
  cpuMs: number;
  /** A failure of the host itself (the database, a bug), not of the script. */
  hostError?: unknown;
}

let current: Promise<QuickJSWASMModule> | undefined;
let modulesMade = 0;
/** This thread's module, made on first use (a worker makes it as it starts). */
export const quickJs = () => (current ??= (modulesMade++, newQuickJSWASMModule(RELEASE_SYNC)));

/** How many WebAssembly modules this thread has made (one, unless a run broke one). */
export const vmModulesMade = () => modulesMade;

/**
 * The module's WebAssembly memory. QuickJS's own limit refuses any one allocation past it but, built without
 * malloc_usable_size, does not add allocations up: a run whose heap grows the module's memory by more than its limit is
 * stopped here (checked at every interrupt and after every slice), and the module, which never gives memory back, is
 * replaced (in a worker: the worker is).
 */
const memoryOf = (module: QuickJSWASMModule): number => (module as unknown as { module: { HEAPU8: Uint8Array } }).module.HEAPU8.buffer.byteLength;

class HostCrash extends Error {}

/**
 * Runs one handler in a fresh runtime and context. `broken`: the module may be damaged or holds memory it will not give
 * back (a Node stack overflow inside it, a memory bomb, handles QuickJS would not free); it is not used again.
 */
export async function runVm(run: VmRun): Promise<{ outcome: VmOutcome; broken: boolean }> {
  const { limits } = run;
  const module = quickJs();
  const wasm = await module;
  const rt = wasm.newRuntime();
  rt.setMemoryLimit(limits.memoryBytes);
  rt.setMaxStackSize(limits.stackBytes);
  const vm = rt.newContext();
  const session = new Session(rt, vm, run, limits, () => memoryOf(wasm));
  let outcome: VmOutcome;
  try {
    outcome = await session.execute();
  } catch (error) {
    if (!(error instanceof HostCrash)) throw error;
    session.broken = true;
    outcome = session.outcome('error', { message: '脚本调用层级过深，超出了运行栈的限制' });
  } finally {
    await session.settleCalls();
  }
  const broken = session.broken || outcome.status === 'memory' || !session.dispose();
  if (broken && current === module) current = undefined;
  return { outcome, broken };
}

class Session {
  broken = false;
  private cpu = 0;
  private sliceStart = 0;
  private tripped: 'timeout' | 'memory' | null = null;
  private readonly memoryAtStart: number;
  private finished = false;
  private hostError: unknown;
  private queue: Promise<void> = Promise.resolve();
  private pendingCalls = 0;
  private wake: (() => void) | null = null;
  private readonly deferreds = new Set<QuickJSDeferredPromise>();
  private readonly handles: QuickJSHandle[] = [];
  private readonly deadline: number;

  constructor(
    private readonly rt: QuickJSRuntime,
    private readonly vm: QuickJSContext,
    private readonly run: VmRun,
    private readonly limits: SandboxLimits,
    private readonly memory: () => number,
  ) {
    this.deadline = performance.now() + limits.wallMs;
    this.memoryAtStart = memory();
    rt.setInterruptHandler(() => {
      if (this.overMemory()) return true;
      const now = performance.now();
      if (this.cpu + (now - this.sliceStart) <= limits.cpuMs && now <= this.deadline) return false;
      this.tripped = 'timeout';
      return true;
    });
  }

  private overMemory(): boolean {
    if (this.memory() - this.memoryAtStart <= this.limits.memoryBytes) return false;
    this.tripped = 'memory';
    return true;
  }

  /** Runs VM work as one slice of the run's CPU time; a JavaScript exception out of the VM means the module broke. */
  private slice<T>(work: () => T): T {
    this.sliceStart = performance.now();
    try {
      return work();
    } catch (error) {
      throw new HostCrash(error instanceof Error ? error.message : String(error));
    } finally {
      this.cpu += performance.now() - this.sliceStart;
      this.overMemory();
    }
  }

  private keep(handle: QuickJSHandle): QuickJSHandle {
    this.handles.push(handle);
    return handle;
  }

  outcome(status: SandboxStatus, more: Partial<VmOutcome> = {}): VmOutcome {
    return { status, found: false, value: null, record: null, children: null, message: null, line: null, cpuMs: Math.round(this.cpu), ...more, ...(this.hostError !== undefined ? { hostError: this.hostError } : {}) };
  }

  /** The outcome of an error the VM answered (a handle, disposed here). */
  private failed(errorHandle: QuickJSHandle): VmOutcome {
    const dumped = this.vm.dump(errorHandle) as VmError;
    errorHandle.dispose();
    if (this.tripped) return this.trippedOutcome();
    const described = describeVmError(dumped);
    return this.outcome(described.status, { message: described.message, line: described.line });
  }

  private trippedOutcome(): VmOutcome {
    return this.tripped === 'memory' ? this.outcome('memory', { message: '脚本使用的内存超过上限' }) : this.outcome('timeout', { message: `脚本运行超时（超过 ${this.limits.cpuMs} 毫秒）` });
  }

  async execute(): Promise<VmOutcome> {
    const { vm } = this;
    const hostFn = vm.newFunction('__host', (nameHandle, jsonHandle) => this.hostCall(nameHandle, jsonHandle));
    vm.setProp(vm.global, '__host', hostFn);
    hostFn.dispose();
    const prelude = this.slice(() => vm.evalCode(SERVER_PRELUDE, PRELUDE_FILE));
    if (prelude.error) return this.failed(prelude.error);
    const runFn = this.keep(prelude.value);
    const script = this.slice(() => vm.evalCode(this.run.js, SCRIPT_FILE));
    if (script.error) return this.failed(script.error);
    script.value.dispose();
    const args = [this.run.entry, JSON.stringify(this.run.input ?? {}), JSON.stringify(this.run.info ?? {})].map((s) => this.keep(vm.newString(s)));
    const started = this.slice(() => vm.callFunction(runFn, vm.undefined, ...args));
    if (started.error) return this.failed(started.error);
    const promise = this.keep(started.value);
    for (;;) {
      const jobs = this.slice(() => this.rt.executePendingJobs());
      if (jobs.error) return this.failed(jobs.error);
      if (this.tripped) return this.trippedOutcome();
      const state = vm.getPromiseState(promise);
      if (state.type === 'fulfilled') {
        const answer = vm.dump(state.value);
        state.value.dispose();
        await this.drain();
        const result = typeof answer === 'string' ? (JSON.parse(answer) as Record<string, unknown>) : {};
        return this.outcome('ok', { found: result.found === true, value: result.value ?? null, record: result.record ?? null, children: result.children ?? null });
      }
      if (state.type === 'rejected') return this.failed(state.error);
      if (this.hostError !== undefined) return this.outcome('error', { message: '平台处理脚本的调用时出错' });
      if (this.tripped) return this.trippedOutcome();
      if (!this.pendingCalls) return this.outcome('error', { message: '脚本在等待一个永远不会完成的操作（Promise）' });
      await this.nextSettled();
      if (performance.now() > this.deadline) {
        this.tripped = 'timeout';
        return this.outcome('timeout', { message: `脚本运行超时（含等待的总时间超过 ${this.limits.wallMs} 毫秒）` });
      }
    }
  }

  /** Calls the script made without waiting for them still run before the handler's outcome counts (its writes). */
  private async drain(): Promise<void> {
    while (this.pendingCalls && performance.now() < this.deadline && this.hostError === undefined) {
      await this.nextSettled();
      const jobs = this.slice(() => this.rt.executePendingJobs());
      if (jobs.error) jobs.error.dispose();
    }
  }

  private nextSettled(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(), Math.max(0, this.deadline - performance.now()) + 1);
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      this.wake = done;
    });
  }

  private hostCall(nameHandle: QuickJSHandle, jsonHandle: QuickJSHandle): QuickJSHandle | { error: QuickJSHandle } {
    const { vm } = this;
    if (vm.typeof(nameHandle) !== 'string' || vm.typeof(jsonHandle) !== 'string') return { error: vm.newError('调用参数无效') };
    const name = vm.getString(nameHandle);
    let args: unknown;
    try {
      args = parseHostArgs(vm.getString(jsonHandle));
    } catch (error) {
      return { error: vm.newError((error as Error).message) };
    }
    if (this.run.host.immediate(name, args)) return vm.undefined;
    const deferred = vm.newPromise();
    this.deferreds.add(deferred);
    this.pendingCalls++;
    this.queue = this.queue.then(() => this.answer(deferred, name, args));
    return deferred.handle;
  }

  /** Runs one API call (after the ones before it) and settles its VM promise, unless the run has ended. */
  private async answer(deferred: QuickJSDeferredPromise, name: string, args: unknown): Promise<void> {
    try {
      if (this.finished) return;
      let settled: { json: string } | { message: string };
      try {
        settled = { json: await this.run.host.call(name, args) };
      } catch (error) {
        if (!(error instanceof ScriptCallError)) this.hostError ??= error;
        settled = { message: error instanceof ScriptCallError ? error.message : '平台处理脚本的调用时出错' };
      }
      if (this.finished) return;
      this.slice(() => {
        const handle = 'json' in settled ? this.vm.newString(settled.json) : this.vm.newError(settled.message);
        if ('json' in settled) deferred.resolve(handle);
        else deferred.reject(handle);
        handle.dispose();
      });
    } catch (error) {
      this.hostError ??= error;
    } finally {
      this.deferreds.delete(deferred);
      deferred.dispose();
      this.pendingCalls--;
      this.wake?.();
    }
  }

  /** No call starts after the run; the one running (on the caller's transaction) is waited for. */
  async settleCalls(): Promise<void> {
    this.finished = true;
    await this.queue;
  }

  /** Frees every handle, the context and the runtime; false when QuickJS refused (the module is then replaced). */
  dispose(): boolean {
    try {
      for (const deferred of this.deferreds) deferred.dispose();
      for (const handle of this.handles) if (handle.alive) handle.dispose();
      this.vm.dispose();
      this.rt.dispose();
      return true;
    } catch {
      return false;
    }
  }
}
