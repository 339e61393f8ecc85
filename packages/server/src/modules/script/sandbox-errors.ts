// What crosses the boundary and how the VM's errors read to the script's author (docs/decisions/0118).

/** The file name the VM's stack traces give the compiled script (compile.ts compiles to it). */
export const SCRIPT_FILE = 'script.js';

/** How a run ended. */
export type SandboxStatus = 'ok' | 'refused' | 'error' | 'timeout' | 'memory';

/** An API call's answer into the script: its promise rejects with this message (Chinese); the host goes on. */
export class ScriptCallError extends Error {}

/** The JSON a script may send in one call. */
export const HOST_ARGS_MAX_CHARS = 1_000_000;

/** A call's arguments as the host reads them: JSON, at most 1 MB, without `__proto__` keys. */
export function parseHostArgs(json: string): unknown {
  if (json.length > HOST_ARGS_MAX_CHARS) throw new ScriptCallError('调用参数超过 1 MB');
  try {
    return JSON.parse(json, (key, value) => (key === '__proto__' ? undefined : value));
  } catch {
    throw new ScriptCallError('调用参数不是有效的 JSON');
  }
}

/** An error as the VM dumps it. */
export type VmError = { name?: string; message?: string; stack?: string } | string | null | undefined;

const lineRe = new RegExp(`${SCRIPT_FILE.replace('.', '\\.')}:(\\d+)`);

/** Globals a script may reach for that the sandbox does not have, with what to say instead. */
const MISSING: Record<string, string> = {
  require: '脚本不能导入模块（require / import 不可用），请使用 ctx 提供的接口',
  process: '脚本不能访问进程（process 不可用）',
  fetch: '脚本不能直接访问网络（fetch 不可用），请使用 ctx.connectors',
  setTimeout: '脚本中没有定时器（setTimeout 不可用）',
  setInterval: '脚本中没有定时器（setInterval 不可用）',
  XMLHttpRequest: '脚本不能直接访问网络（XMLHttpRequest 不可用）',
  Buffer: '脚本中没有 Buffer',
  __host: '脚本只能通过 ctx 调用平台接口',
};

/** The outcome, message and script line of an error thrown in the VM. */
export function describeVmError(error: VmError, lineOf?: (generated: number) => number | null): { status: SandboxStatus; message: string; line: number | null } {
  const e = typeof error === 'object' && error !== null ? error : { name: 'Error', message: String(error) };
  const name = String(e.name ?? 'Error');
  const message = String(e.message ?? '');
  const generated = lineRe.exec(String(e.stack ?? ''));
  const line = generated ? (lineOf ? lineOf(Number(generated[1])) : Number(generated[1])) : null;
  if (name === 'ScriptRefusal') return { status: 'refused', message, line };
  if (/out of memory/i.test(message)) return { status: 'memory', message: '脚本使用的内存超过上限', line };
  if (/stack overflow/i.test(message)) return { status: 'error', message: '脚本调用层级过深（栈溢出）', line };
  const missing = name === 'ReferenceError' ? /^'?([\w$]+)'? is not defined/.exec(message)?.[1] : undefined;
  if (missing && MISSING[missing]) return { status: 'error', message: MISSING[missing], line };
  return { status: 'error', message: `${name}: ${message}`.slice(0, 2000), line };
}
