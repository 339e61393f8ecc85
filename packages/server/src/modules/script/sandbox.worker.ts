import { parentPort } from 'node:worker_threads';
import { ScriptCallError } from './sandbox-errors.ts';
import { IMMEDIATE_CALLS, quickJs, runVm, type SandboxLimits, type VmHost, type VmOutcome } from './sandbox-vm.ts';

// A worker thread of the script sandbox's pool (docs/decisions/0118; the main thread's side: sandbox-pool.ts). It
// loads the QuickJS module once and runs one script at a time, each in a fresh runtime and context (sandbox-vm.ts), so
// a script's CPU time and memory never hold the server's event loop. The script's API calls go to the main thread as
// messages (the main thread answers them in the caller's transaction); its log lines, refusal and respond go one way.

export type ToSandboxWorker =
  | { type: 'run'; run: number; js: string; entry: string; input: unknown; info: unknown; limits: SandboxLimits }
  | { type: 'answer'; call: number; json: string }
  | { type: 'answer'; call: number; message: string; hostFailed: boolean };

/** The outcome as it crosses back: the host's own failure is known to the main thread; only that it happened comes back. */
export type WorkerOutcome = Omit<VmOutcome, 'hostError'>;

export type FromSandboxWorker =
  | { type: 'ready' }
  | { type: 'immediate'; run: number; name: string; args: unknown }
  | { type: 'call'; run: number; call: number; name: string; args: unknown }
  | { type: 'done'; run: number; outcome: WorkerOutcome; broken: boolean }
  | { type: 'failed'; run: number; message: string };

/** The main thread could not answer a call (the database, a bug): the run ends, the main thread rethrows its error. */
class HostFailed extends Error {}

const port = parentPort!;
const waiting = new Map<number, { resolve: (json: string) => void; reject: (error: Error) => void }>();
let calls = 0;

port.on('message', (m: ToSandboxWorker) => {
  if (m.type === 'run') {
    void run(m);
    return;
  }
  const call = waiting.get(m.call);
  if (!call) return;
  waiting.delete(m.call);
  if ('json' in m) call.resolve(m.json);
  else call.reject(m.hostFailed ? new HostFailed(m.message) : new ScriptCallError(m.message));
});

async function run(m: Extract<ToSandboxWorker, { type: 'run' }>): Promise<void> {
  const send = (message: FromSandboxWorker) => port.postMessage(message);
  const host: VmHost = {
    immediate(name, args) {
      if (!IMMEDIATE_CALLS.has(name)) return false;
      send({ type: 'immediate', run: m.run, name, args });
      return true;
    },
    call(name, args) {
      const call = ++calls;
      return new Promise((resolve, reject) => {
        waiting.set(call, { resolve, reject });
        send({ type: 'call', run: m.run, call, name, args });
      });
    },
  };
  try {
    const { outcome, broken } = await runVm({ js: m.js, entry: m.entry, input: m.input, info: m.info, host, limits: m.limits });
    const sent: WorkerOutcome & { hostError?: unknown } = { ...outcome };
    delete sent.hostError;
    send({ type: 'done', run: m.run, outcome: sent, broken });
  } catch (error) {
    send({ type: 'failed', run: m.run, message: error instanceof Error ? error.message : String(error) });
  }
}

// The module is compiled as the worker starts, so that its first run does not wait for it.
quickJs().then(
  () => port.postMessage({ type: 'ready' } satisfies FromSandboxWorker),
  (error: unknown) => {
    throw error;
  },
);
