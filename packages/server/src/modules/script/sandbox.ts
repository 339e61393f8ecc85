import os from 'node:os';
import { SandboxPool, type PoolStats } from './sandbox-pool.ts';
import { DEFAULT_LIMITS, IMMEDIATE_CALLS, LIMIT_BOUNDS, limitsOf, runVm, vmModulesMade, type SandboxLimits, type VmOutcome } from './sandbox-vm.ts';
import type { SandboxStatus } from './sandbox-errors.ts';

// The script sandbox (docs/decisions/0118): QuickJS compiled to WebAssembly, a fresh runtime and context per run
// (sandbox-vm.ts), run on a pool of worker threads (sandbox-pool.ts) so that a script never holds the server's event
// loop. The host side of a run — its log lines, refusal and answer, and the API calls it makes — stays here, on the
// caller's thread and in the caller's transaction.

export { DEFAULT_LIMITS, LIMIT_BOUNDS, type SandboxLimits, type SandboxStatus };

/** The host side of a run: calls answered at once (log lines, refusal, respond) and the API's calls, run one at a time. */
export interface ScriptHost {
  /** Answers true when `name` is one of the immediate calls (and handles it). */
  immediate(name: string, args: unknown): boolean;
  /** Throw ScriptCallError for an answer into the script; any other error ends the run (hostError). */
  call(name: string, args: unknown): Promise<unknown>;
}

export type SandboxOutcome = VmOutcome;

export interface SandboxRun {
  js: string;
  /** 'onSubmit', 'actions.createOrder', … */
  entry: string;
  input: unknown;
  /** engine, user, appCode, schemaCode, requestId: what ctx shows of the run. */
  info: unknown;
  host: ScriptHost;
  limits?: Partial<SandboxLimits>;
  /** The script's own line of a generated line (compile.ts). */
  lineOf?: (generatedLine: number) => number | null;
}

const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return process.env[name] !== undefined && process.env[name] !== '' && Number.isInteger(value) && value >= 0 ? value : fallback;
};

/**
 * The process's pool. TRITIUM_SCRIPT_WORKERS: worker threads (default one per core; 0 runs scripts on the calling
 * thread, as before the pool); TRITIUM_SCRIPT_QUEUE: runs that may wait for a worker (default 100).
 */
let pool: SandboxPool | undefined;
const poolOf = () =>
  (pool ??= new SandboxPool({
    size: envNumber('TRITIUM_SCRIPT_WORKERS', os.availableParallelism()),
    maxQueued: envNumber('TRITIUM_SCRIPT_QUEUE', 100),
    maxWaitMs: DEFAULT_LIMITS.wallMs,
    graceMs: 2_000,
  }));

/** How many QuickJS modules this process has made: one per worker started, and the calling thread's own. */
export const sandboxModulesMade = () => (pool?.stats().started ?? 0) + vmModulesMade();

/** The pool's workers, busy ones and queued runs. */
export const sandboxPoolStats = (): PoolStats => pool?.stats() ?? { workers: 0, busy: 0, queued: 0, started: 0 };

/** Ends the pool's workers (the app's close); a later run starts new ones. */
export const closeSandboxPool = (): Promise<void> => pool?.close() ?? Promise.resolve();

/** Runs one handler of a compiled script in a fresh sandbox; the outcome's line is the script's own. */
export async function runInSandbox(run: SandboxRun): Promise<SandboxOutcome> {
  const limits = limitsOf(run.limits);
  const current = poolOf();
  const outcome =
    current.options.size === 0
      ? await runHere(run, limits)
      : await current.run({ js: run.js, entry: run.entry, input: run.input, info: run.info, limits, host: { immediate: (name, args) => void run.host.immediate(name, args), call: (name, args) => run.host.call(name, args) } });
  return outcome.line !== null && run.lineOf ? { ...outcome, line: run.lineOf(outcome.line) } : outcome;
}

/** A run on the calling thread (TRITIUM_SCRIPT_WORKERS=0). */
async function runHere(run: SandboxRun, limits: SandboxLimits): Promise<VmOutcome> {
  const host = {
    immediate: (name: string, args: unknown) => IMMEDIATE_CALLS.has(name) && run.host.immediate(name, args),
    call: async (name: string, args: unknown) => JSON.stringify((await run.host.call(name, args)) ?? null),
  };
  return (await runVm({ js: run.js, entry: run.entry, input: run.input, info: run.info, host, limits })).outcome;
}
