/**
 * Script sandbox under load (issue 43, docs/decisions/0118): scripts run on the sandbox's worker threads.
 * (a) a form save through the HTTP API (app.inject) with a trivial onSubmit script against the same save of a form
 *     without one: p50/p99 of each and the overhead;
 * (b) runs per second of a small script (two API calls answered in memory) with one run at a time and with both
 *     workers busy;
 * (c) p50/p99 of another engine's plain list queries in a quiet run and while hostile scripts run back to back:
 *     endless loops and memory bombs in onLoad (no transaction), and an endless loop in onSubmit (in the save's
 *     transaction — on PGlite, one connection, that transaction holds every other query).
 * On PGlite and (when reachable) on PostgreSQL in a throw-away database. TRITIUM_SCRIPT_WORKERS=0 runs the scripts on
 * the main thread, as before the pool, for comparison.
 * Run: node --import tsx bench/script-load.ts   (prints its figures, writes bench/results/script-load[-inline].json)
 */
import { performance } from 'node:perf_hooks';
import { compileScript } from '../packages/server/src/modules/script/compile.ts';
import { closeSandboxPool, runInSandbox, sandboxPoolStats, type ScriptHost } from '../packages/server/src/modules/script/sandbox.ts';
import { onThrowawayPostgres, post, saveResult, type App } from './lib.ts';
import { openBenchApp, percentile, registerBenchEngine } from './setup.ts';

const SAVES = Number(process.env.BENCH_SCRIPT_SAVES ?? 200);
const SECONDS = Number(process.env.BENCH_SCRIPT_SECONDS ?? 5);
const PLAIN_SECONDS = Number(process.env.BENCH_SCRIPT_PLAIN_SECONDS ?? 8);
const inline = process.env.TRITIUM_SCRIPT_WORKERS === '0';
/** BENCH_SCRIPT_ONLY=saves measures (a) alone (for A/B runs against TRITIUM_SCRIPT_WORKERS=0). */
const savesOnly = process.env.BENCH_SCRIPT_ONLY === 'saves';
/** BENCH_SCRIPT_DATABASES: pglite, postgres or both (default). */
const databases = process.env.BENCH_SCRIPT_DATABASES ?? 'both';

const r2 = (n: number) => Math.round(n * 100) / 100;
const stats = (samples: number[]) => {
  const sorted = [...samples].sort((x, y) => x - y);
  return { n: sorted.length, p50Ms: r2(percentile(sorted, 50)), p99Ms: r2(percentile(sorted, 99)) };
};
async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const FIELDS = [{ type: 'textBox', code: 'Title' }, { type: 'number', code: 'Amount' }, { type: 'number', code: 'Total' }];
const SCRIPTS = {
  trivial: 'export function onSubmit(ctx) { ctx.record.Total = 1; }',
  spinLoad: 'export function onLoad() { for (;;) {} }',
  bombLoad: 'export function onLoad() { const a = []; for (;;) a.push("x".repeat(100000) + a.length) }',
  spinSave: 'export function onSubmit() { for (;;) {} }',
};

async function makeForm(app: App, headers: Record<string, string>, appCode: string, code: string, script?: string) {
  await post(app, '/v1/functionnode', { code, appCode, displayName: code, nodeType: 210 }, headers);
  const loaded = await post(app, '/v1/formdesign/load', { schemaCode: code }, headers);
  const saved = await post(app, '/v1/formdesign/save', { schemaCode: code, baseVersion: loaded.draft.version, definition: { attributes: { displayName: code }, controls: FIELDS } }, headers);
  await post(app, '/v1/formdesign/publish', { schemaCode: code, version: saved.version, confirm: [] }, headers);
  if (script) await post(app, '/v1/codeeditor/save', { appCode, schemaCode: code, part: 'form-server', language: 'js', source: script, baseVersion: 0 }, headers);
}

const answer = async (app: App, url: string, body: unknown, headers: Record<string, string>) => (await app.inject({ method: 'POST', url, headers, payload: body as object })).json() as { successful: boolean; errorCode?: number };

async function measure(label: string, databaseUrl?: string) {
  const { app, database } = await openBenchApp(databaseUrl);
  try {
    const a = (await registerBenchEngine(app, '13900000001')).headers;
    const b = (await registerBenchEngine(app, '13900000002', '另一管理员', '另一集团')).headers;
    await post(app, '/v1/functionnode', { code: 'BenchScr', displayName: '脚本压测', nodeType: 190 }, a);
    await makeForm(app, a, 'BenchScr', 'BenchPlain');
    await makeForm(app, a, 'BenchScr', 'BenchTrivial', SCRIPTS.trivial);
    await makeForm(app, a, 'BenchScr', 'BenchSpinLoad', SCRIPTS.spinLoad);
    await makeForm(app, a, 'BenchScr', 'BenchBombLoad', SCRIPTS.bombLoad);
    await makeForm(app, a, 'BenchScr', 'BenchSpinSave', SCRIPTS.spinSave);
    await post(app, '/v1/functionnode', { code: 'BenchOtherApp', displayName: '另一应用', nodeType: 190 }, b);
    await makeForm(app, b, 'BenchOtherApp', 'BenchOther');
    const save = (schemaCode: string, i: number) => post(app, '/v1/form/action/execute', { schemaCode, actionCode: 'Save', values: { Title: `第 ${i} 张`, Amount: i } }, a);
    for (let i = 0; i < 20; i++) await post(app, '/v1/form/action/execute', { schemaCode: 'BenchOther', actionCode: 'Save', values: { Title: `记录 ${i}`, Amount: i } }, b);

    // (a) saves with and without a trivial script, interleaved so that both see the same machine.
    for (let i = 0; i < 20; i++) {
      await save('BenchPlain', i);
      await save('BenchTrivial', i);
    }
    const plainSaves: number[] = [];
    const scriptSaves: number[] = [];
    for (let i = 0; i < SAVES; i++) {
      plainSaves.push(await timed(() => save('BenchPlain', i)));
      scriptSaves.push(await timed(() => save('BenchTrivial', i)));
    }
    const saves = { withoutScript: stats(plainSaves), withTrivialScript: stats(scriptSaves) };
    const overheadP50Ms = r2(saves.withTrivialScript.p50Ms - saves.withoutScript.p50Ms);
    if (savesOnly) return { database: label, saves, overheadP50Ms };

    // (c) another engine's list queries: quiet, then beside each kind of hostile script run back to back.
    const plainQuery = () => post(app, '/v1/bizdata/query', { schemaCode: 'BenchOther', pageIndex: 0, pageSize: 20 }, b);
    for (let i = 0; i < 30; i++) await plainQuery();
    const plainFor = async (seconds: number) => {
      const samples: number[] = [];
      const until = performance.now() + seconds * 1000;
      while (performance.now() < until) samples.push(await timed(plainQuery));
      return samples;
    };
    const quiet = stats(await plainFor(PLAIN_SECONDS));
    const hostile: Record<string, unknown> = {};
    const kinds: [string, () => Promise<{ successful: boolean; errorCode?: number }>][] = [
      ['endless loop in onLoad', () => answer(app, '/v1/form/loaddata', { schemaCode: 'BenchSpinLoad' }, a)],
      ['memory bomb in onLoad', () => answer(app, '/v1/form/loaddata', { schemaCode: 'BenchBombLoad' }, a)],
      ['endless loop in onSubmit (in the save’s transaction)', () => answer(app, '/v1/form/action/execute', { schemaCode: 'BenchSpinSave', actionCode: 'Save', values: { Title: 'x' } }, a)],
    ];
    for (const [kind, run] of kinds) {
      for (const streams of [1, 2]) {
        let stop = false;
        const ended: Record<string, number> = {};
        const loops = Array.from({ length: streams }, async () => {
          while (!stop) {
            const res = await run();
            const key = res.successful ? 'ok' : String(res.errorCode);
            ended[key] = (ended[key] ?? 0) + 1;
          }
        });
        await new Promise((resolve) => setTimeout(resolve, 200));
        const samples = await plainFor(PLAIN_SECONDS);
        stop = true;
        await Promise.all(loops);
        const figures = stats(samples);
        hostile[`${kind}, ${streams} at once`] = { ...figures, p99VsQuiet: r2(figures.p99Ms / quiet.p99Ms), hostileRuns: ended };
      }
    }
    return { database: label, saves, overheadP50Ms, plainQueries: { quiet, hostile }, pool: sandboxPoolStats() };
  } finally {
    await app.close();
    await database.close();
  }
}

/** (b) runs per second of a small script, its API calls answered in memory: one at a time, and `parallel` at once. */
async function runsPerSecond() {
  const SMALL = `export async function onSubmit(ctx) {
  const customer = await ctx.records.get('Customers', ctx.record.CustomerId);
  const open = await ctx.records.count('Orders', { and: [{ field: 'CustomerId', op: '=', value: ctx.record.CustomerId }, { field: 'Status', op: '=', value: 1 }] });
  const rate = customer.Level === 'VIP' ? 0.9 : 1;
  ctx.record.Total = Math.round(ctx.record.Lines.reduce((s, l) => s + l.Qty * l.Price, 0) * rate * 100) / 100;
  if (open > 10) ctx.refuse('未完成的订单过多');
  ctx.log('合计', ctx.record.Total);
}`;
  const { js } = await compileScript(SMALL, 'js');
  const host: ScriptHost = { immediate: (name) => name === 'log' || name === 'refuse' || name === 'respond', call: async (name) => (name === 'records.get' ? { ObjectId: 'c1', Level: 'VIP' } : 3) };
  const input = { record: { CustomerId: 'c1', Lines: Array.from({ length: 10 }, (_, i) => ({ Qty: i + 1, Price: 9.9 })) } };
  const info = { engine: { code: 'E', name: '测试' }, user: { id: 'u', name: '张三', departmentId: null }, appCode: 'App', schemaCode: 'Orders', requestId: null };
  const once = async () => {
    const outcome = await runInSandbox({ js, entry: 'onSubmit', input, info, host });
    if (outcome.status !== 'ok') throw new Error(`small run: ${outcome.status} ${outcome.message}`);
  };
  const rate = async (parallel: number) => {
    let runs = 0;
    const until = performance.now() + SECONDS * 1000;
    await Promise.all(Array.from({ length: parallel }, async () => {
      while (performance.now() < until) {
        await once();
        runs++;
      }
    }));
    return Math.round(runs / SECONDS);
  };
  for (let i = 0; i < 200; i++) await once();
  const single: number[] = [];
  for (let i = 0; i < 500; i++) single.push(await timed(once));
  return { oneRun: stats(single), oneAtATime: await rate(1), twoAtOnce: await rate(2), fourAtOnce: await rate(4) };
}

const sandbox = savesOnly ? undefined : await runsPerSecond();
if (sandbox) console.log('runs of a small script:', JSON.stringify(sandbox));
const results = [];
if (databases !== 'postgres') results.push(await measure('PGlite'));
if (databases !== 'pglite') {
  const pg = await onThrowawayPostgres('bench_script', async (url, version) => measure(`PostgreSQL ${version}`, url));
  if (pg) results.push(pg);
}
for (const result of results) console.log(JSON.stringify(result, null, 2));
saveResult(`script-load${inline ? '-inline' : ''}${savesOnly ? '-saves' : ''}`, { workers: inline ? 0 : undefined, sandbox, results });
await closeSandboxPool();
