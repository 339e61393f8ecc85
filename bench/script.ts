/**
 * Script sandbox benchmark (issue 43, docs/decisions/0118): the cost of one run — a fresh QuickJS runtime and context,
 * the prelude, the compiled script and a trivial handler — as p50/p99, and runs per second of a small script that
 * makes two API calls (answered in memory: the sandbox's own cost, without the database), one run after another. The
 * runs go to the sandbox's worker threads (TRITIUM_SCRIPT_WORKERS=0: the calling thread); bench/script-load.ts measures
 * saves, both workers busy and other requests beside hostile scripts.
 * Run: node --import tsx bench/script.ts   (prints its figures; nothing is written)
 */
import { performance } from 'node:perf_hooks';
import { compileScript } from '../packages/server/src/modules/script/compile.ts';
import { runInSandbox, type ScriptHost } from '../packages/server/src/modules/script/sandbox.ts';

const RUNS = Number(process.env.BENCH_SCRIPT_RUNS ?? 2000);
const SECONDS = Number(process.env.BENCH_SCRIPT_SECONDS ?? 5);

const TRIVIAL = 'export function onSubmit(ctx: any) { ctx.record.Total = 1; }';
const SMALL = `export async function onSubmit(ctx: any) {
  const customer = await ctx.records.get('Customers', ctx.record.CustomerId);
  const open = await ctx.records.count('Orders', { and: [{ field: 'CustomerId', op: '=', value: ctx.record.CustomerId }, { field: 'Status', op: '=', value: 1 }] });
  const rate = customer.Level === 'VIP' ? 0.9 : 1;
  ctx.record.Total = Math.round(ctx.record.Lines.reduce((s: number, l: any) => s + l.Qty * l.Price, 0) * rate * 100) / 100;
  if (open > 10) ctx.refuse('未完成的订单过多');
  ctx.log('合计', ctx.record.Total);
}`;

const host: ScriptHost = {
  immediate: (name) => name === 'log' || name === 'refuse' || name === 'respond',
  call: async (name) => (name === 'records.get' ? { ObjectId: 'c1', Level: 'VIP' } : 3),
};
const input = { record: { CustomerId: 'c1', Lines: Array.from({ length: 10 }, (_, i) => ({ Qty: i + 1, Price: 9.9 })) } };
const info = { engine: { code: 'E', name: '测试' }, user: { id: 'u', name: '张三', departmentId: null }, appCode: 'App', schemaCode: 'Orders', requestId: null };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

async function main() {
  const trivial = await compileScript(TRIVIAL, 'ts');
  const small = await compileScript(SMALL, 'ts');
  const once = (js: string) => runInSandbox({ js, entry: 'onSubmit', input, info, host });
  for (let i = 0; i < 200; i++) await once(trivial.js);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const outcome = await once(trivial.js);
    times.push(performance.now() - started);
    if (outcome.status !== 'ok') throw new Error(`trivial run: ${outcome.status} ${outcome.message}`);
  }
  times.sort((x, y) => x - y);
  console.log(`one run (runtime + context + prelude + trivial handler), ${RUNS} runs: p50 ${percentile(times, 50).toFixed(3)} ms, p99 ${percentile(times, 99).toFixed(3)} ms`);
  const compileStarted = performance.now();
  for (let i = 0; i < 1000; i++) await compileScript(SMALL, 'ts');
  console.log(`compile, cached: ${((performance.now() - compileStarted) / 1000).toFixed(4)} ms a call`);
  let runs = 0;
  const until = performance.now() + SECONDS * 1000;
  while (performance.now() < until) {
    const outcome = await once(small.js);
    if (outcome.status !== 'ok') throw new Error(`small run: ${outcome.status} ${outcome.message}`);
    runs++;
  }
  console.log(`small script (two API calls, a loop over 10 lines, a log line): ${Math.round(runs / SECONDS)} runs/s, one run at a time`);
}

await main();
