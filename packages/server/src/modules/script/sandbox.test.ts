import { describe, expect, it } from 'vitest';
import { compileScript, generatedToSource, ScriptCompileError } from './compile.ts';
import { runInSandbox, sandboxModulesMade, type ScriptHost } from './sandbox.ts';
import { ScriptCallError } from './sandbox-errors.ts';

// The sandbox (docs/decisions/0118) with a host that answers from memory: outcomes, limits, line numbers, and hostile
// scripts each stopped with a clear message while the next run is unaffected.

interface Recorded {
  logs: { level: string; message: string; line: number | null }[];
  calls: { name: string; args: unknown }[];
  refused?: string;
}

function fakeHost(answer: (name: string, args: unknown) => unknown = () => ({ ok: true })): ScriptHost & { seen: Recorded } {
  const seen: Recorded = { logs: [], calls: [] };
  return {
    seen,
    immediate(name, args) {
      const a = args as Record<string, unknown>;
      if (name === 'log') seen.logs.push({ level: String(a.level), message: String(a.message), line: (a.line as number | null) ?? null });
      else if (name === 'refuse') seen.refused = String(a.message);
      else return name === 'respond';
      return true;
    },
    async call(name, args) {
      seen.calls.push({ name, args });
      return answer(name, args);
    },
  };
}

async function run(source: string, entry = 'onSubmit', options: { host?: ReturnType<typeof fakeHost>; cpuMs?: number; memoryBytes?: number; input?: unknown; language?: 'ts' | 'js' } = {}) {
  const compiled = await compileScript(source, options.language ?? 'ts');
  const host = options.host ?? fakeHost();
  const outcome = await runInSandbox({
    js: compiled.js,
    entry,
    input: options.input ?? { record: { Amount: 1 } },
    info: { engine: { code: 'E1', name: '测试' }, user: { id: 'u1', name: '张三', departmentId: null }, appCode: 'App', schemaCode: 'F1', requestId: null },
    host,
    limits: { cpuMs: options.cpuMs ?? 500, ...(options.memoryBytes ? { memoryBytes: options.memoryBytes } : {}) },
    lineOf: compiled.lineOf,
  });
  const logs = host.seen.logs.map((l) => ({ ...l, line: l.line === null ? null : compiled.lineOf(l.line) }));
  return { outcome, host, logs };
}

describe('the sandbox', () => {
  it('runs a TypeScript handler: its value, the record it changed, its log lines with the script’s own lines', async () => {
    const { outcome, logs } = await run(`interface Order { Amount: number }
const rate: number = 2;
export async function onSubmit(ctx: { record: Order; log(...v: unknown[]): void; records: any }) {
  ctx.log('金额', ctx.record.Amount, { rate });
  const found: { ok: boolean } = await ctx.records.get('F1', 'x');
  ctx.record.Amount = ctx.record.Amount * rate;
  return found.ok ? '完成' : '失败';
}`);
    expect(outcome).toMatchObject({ status: 'ok', found: true, value: '完成', record: { Amount: 2 } });
    expect(logs).toEqual([{ level: 'info', message: '金额 1 {"rate":2}', line: 4 }]);
  });

  it('a handler the script does not export does nothing (ok, not found); actions get their params', async () => {
    expect((await run('export function onLoad() { return 1 }')).outcome).toMatchObject({ status: 'ok', found: false, value: null });
    const action = await run('export const actions = { double: (ctx, p) => p.n * 2 }', 'actions.double', { input: { params: { n: 21 } }, language: 'js' });
    expect(action.outcome).toMatchObject({ status: 'ok', found: true, value: 42 });
    // Only the script's own properties name handlers: nothing reached through a prototype.
    expect((await run('export const actions = {}', 'actions.constructor')).outcome).toMatchObject({ status: 'ok', found: false });
  });

  it('a script that throws: the message and the line of the TypeScript source', async () => {
    const { outcome } = await run(`type Row = { a: number; b: string };
const rows: Row[] = [];
function check(n: number): void {
  if (n > 1) throw new Error('数量不能大于 1');
}
export function onSubmit(ctx: { record: { Amount: number } }): void {
  const x: number = ctx.record.Amount + 1;
  check(x);
}`);
    expect(outcome).toMatchObject({ status: 'error', message: 'Error: 数量不能大于 1', line: 4 });
  });

  it('a syntax error names the script line', async () => {
    await expect(compileScript('const a = 1;\nexport function onSubmit( {\n', 'ts')).rejects.toMatchObject({ line: 3 });
    await expect(compileScript('let x: = 1', 'ts')).rejects.toBeInstanceOf(ScriptCompileError);
  });

  it('an endless loop is stopped at the CPU limit; time awaiting the host does not count', async () => {
    const started = Date.now();
    const { outcome } = await run('export function onSubmit() { while (true) {} }', 'onSubmit', { cpuMs: 200 });
    expect(outcome).toMatchObject({ status: 'timeout' });
    expect(outcome.message).toContain('超时');
    expect(Date.now() - started).toBeLessThan(3000);
    // Three slow host calls (150 ms each) in a 200 ms CPU budget: the run is fine.
    const slow = fakeHost(() => new Promise((resolve) => setTimeout(() => resolve(1), 150)));
    const waited = await run('export async function onSubmit(ctx) { let n = 0; for (let i = 0; i < 3; i++) n += await ctx.records.count("F1"); return n }', 'onSubmit', { host: slow, cpuMs: 200 });
    expect(waited.outcome).toMatchObject({ status: 'ok', value: 3 });
  });

  it('a memory bomb is stopped at the memory limit', async () => {
    const { outcome } = await run('export function onSubmit() { const a = []; while (true) a.push("x".repeat(100000) + a.length) }', 'onSubmit', { memoryBytes: 16 * 1024 * 1024, cpuMs: 5000 });
    expect(outcome).toMatchObject({ status: 'memory', message: '脚本使用的内存超过上限' });
  });

  it('require, import, process, fetch and timers do not exist; the message says so', async () => {
    const cases: [string, string][] = [
      ['export function onSubmit() { return require("fs").readFileSync("/etc/passwd", "utf8") }', 'require'],
      ['import { readFileSync } from "fs";\nexport function onSubmit() { return readFileSync("/etc/passwd") }', 'require'],
      ['export function onSubmit() { return process.env }', 'process'],
      ['export async function onSubmit() { return await fetch("http://127.0.0.1/") }', 'fetch'],
      ['export function onSubmit() { setTimeout(() => 1, 10) }', 'setTimeout'],
    ];
    for (const [source, name] of cases) {
      const { outcome } = await run(source, 'onSubmit', { language: 'js' });
      expect(outcome.status, source).toBe('error');
      expect(outcome.message, source).toContain(name);
    }
  });

  it('globalThis and eval reach only the VM’s own standard objects', async () => {
    const { outcome } = await run(`export function onSubmit(ctx) {
      const names = Object.getOwnPropertyNames(globalThis);
      const viaEval = eval('typeof process + typeof require + typeof __host + typeof fetch');
      const viaFunction = ctx.records.get.constructor('return typeof process + typeof globalThis.__host')();
      const hostish = names.filter((n) => /^(__host|process|require|module|global|Buffer|fetch|setTimeout|setInterval|console|std|os)$/.test(n));
      return { hostish, viaEval, viaFunction };
    }`, 'onSubmit', { language: 'js' });
    expect(outcome).toMatchObject({ status: 'ok', value: { hostish: [], viaEval: 'undefinedundefinedundefinedundefined', viaFunction: 'undefinedundefined' } });
  });

  it('prototype pollution of the API objects stays in its own run', async () => {
    const polluted = await run(`export async function onSubmit(ctx) {
      Object.prototype.polluted = 'yes';
      Array.prototype.map = function () { return ['hijacked'] };
      JSON.stringify = () => '{"found":true,"value":"forged"}';
      try { ctx.records.get = () => 'mine' } catch (e) {}
      Object.getPrototypeOf(ctx.org).user = () => 'mine';
      return await ctx.records.get('F1', 'x');
    }`, 'onSubmit', { language: 'js' });
    // The prelude took JSON and the API objects before the script ran: the call still reached the host.
    expect(polluted.outcome).toMatchObject({ status: 'ok', value: { ok: true } });
    expect(polluted.host.seen.calls.map((c) => c.name)).toEqual(['records.get']);
    const next = await run('export function onSubmit(ctx) { return [({}).polluted ?? null, [1].map((x) => x + 1)[0], typeof ctx.org.user] }', 'onSubmit', { language: 'js' });
    expect(next.outcome).toMatchObject({ status: 'ok', value: [null, 2, 'function'] });
  });

  it('a call the host refuses rejects in the script, which may catch it; a promise that never settles ends the run', async () => {
    const refusing = fakeHost(() => {
      throw new ScriptCallError('表单不存在');
    });
    const caught = await run('export async function onSubmit(ctx) { try { await ctx.records.get("Nope", "x") } catch (e) { return e.message } }', 'onSubmit', { host: refusing, language: 'js' });
    expect(caught.outcome).toMatchObject({ status: 'ok', value: '表单不存在' });
    const stuck = await run('export async function onSubmit() { await new Promise(() => {}) }', 'onSubmit', { language: 'js' });
    expect(stuck.outcome).toMatchObject({ status: 'error' });
    expect(stuck.outcome.message).toContain('永远不会完成');
  });

  it('deep recursion ends as an error (even past the VM’s own check) and the next run works', async () => {
    const recursion = await run('export function onSubmit() { const r = (n) => r(n + 1) + 1; return r(0) }', 'onSubmit', { language: 'js' });
    expect(recursion.outcome).toMatchObject({ status: 'error' });
    expect(recursion.outcome.message).toContain('调用层级过深');
    const deep = await run('export function onSubmit() { let o = {}; for (let i = 0; i < 200000; i++) o = { o }; return JSON.stringify(o).length }', 'onSubmit', { language: 'js', cpuMs: 5000 });
    expect(deep.outcome.status).toBe('error');
    expect((await run('export function onSubmit() { return 1 + 1 }', 'onSubmit', { language: 'js' })).outcome).toMatchObject({ status: 'ok', value: 2 });
  });

  it('many runs leave nothing behind: no handle leaks (the module is never replaced) and memory stays flat', async () => {
    const source = 'export async function onSubmit(ctx) { ctx.log("x"); const r = await ctx.records.get("F1", "x"); ctx.record.n = r.ok; return ctx.record }';
    await run(source, 'onSubmit', { language: 'js' });
    const made = sandboxModulesMade();
    const before = process.memoryUsage();
    for (let i = 0; i < 300; i++) await run(source, 'onSubmit', { language: 'js' });
    const after = process.memoryUsage();
    expect(sandboxModulesMade()).toBe(made);
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(16 * 1024 * 1024);
  });

  it('decodes source maps line by line', () => {
    // Lines 0, 2 and 2 of the source; a line without segments maps to nothing.
    expect(generatedToSource('AAAA;AAEA,CAAC;;AAAA')).toEqual([0, 2, undefined, 2]);
  });
});
