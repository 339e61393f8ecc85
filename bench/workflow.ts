/**
 * Workflow benchmark (issue "Workflow", must show): work-item actions per second on PostgreSQL with 100 concurrent
 * approvers. 100 members each hold their own session; every call goes through app.inject (authentication, the
 * instance's row lock, the pure transition core, the diff write, the record's status).
 * - spread: 100 approvers at once, each approving a different instance (one approve node per instance) — the rate the
 *   engine sustains when approvers do not meet each other;
 * - hot: the same 100 approvers on ONE instance whose node needs all of them (a 100-person countersign) — every
 *   action waits for the instance's row lock, the worst case.
 * Run: node --import tsx bench/workflow.ts   (writes bench/results/workflow.json and the "Workflow" section of
 * docs/performance.md). BENCH_WF_PROFILE=<dir> writes a CPU profile of each burst alone (not the setup) there.
 * Statements per action are counted during the bursts (BEGIN/COMMIT apart) and printed with the rates.
 * The spread phase's updates made in place (HOT) are printed per workflow table; BENCH_WF_DATABASE=pglite runs it all
 * on embedded PGlite (bench/results/workflow-pglite.json; docs/performance.md left alone).
 */
import { Session } from 'node:inspector/promises';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../packages/server/src/db/database.ts';
import { migratePlatform } from '../packages/server/src/db/migrate.ts';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { sql } from 'kysely';
import { onThrowawayPostgres, post, saveResult, writePerformanceSection, type App } from './lib.ts';

const APPROVERS = Number(process.env.BENCH_WF_APPROVERS ?? 100);
const ROUNDS = Number(process.env.BENCH_WF_ROUNDS ?? 5);
const CODE = '246810';
type Headers = Record<string, string>;

async function get(app: App, url: string, query: Record<string, string>, headers: Headers) {
  const res = await app.inject({ method: 'GET', url, query, headers });
  const json = res.json() as { successful: boolean; data: any };
  if (!json.successful) throw new Error(`${url}: ${JSON.stringify(json).slice(0, 300)}`);
  return json.data;
}

async function signIn(app: App, mobile: string): Promise<Headers> {
  await app.inject({ method: 'POST', url: '/v1/captcha/verifycode/send', payload: { mobile, scene: 'login' } });
  const res = (await app.inject({ method: 'GET', url: '/v1/login/mobile/verifycode', query: { mobile, code: CODE } })).json() as any;
  if (!res.successful) throw new Error(`sign-in ${mobile}: ${JSON.stringify(res)}`);
  return { authorization: `Bearer ${res.data.accessToken}`, enginecode: res.data.engineCode };
}

// Statements run while a burst is timed: transaction control apart (as the statement-count tests count them).
const counted = { on: false, statements: 0, transactions: 0 };
function countStatement(text: string, ms?: number) {
  if (!counted.on) return;
  // BENCH_WF_LOG=1 prints every statement of the bursts with its time (to read one action's statements).
  if (process.env.BENCH_WF_LOG) console.log(`${(ms ?? 0).toFixed(2)} ms  ${text.replace(/\s+/g, ' ').slice(0, Number(process.env.BENCH_WF_LOG) > 1 ? 20000 : 400)}`);
  if (/^\s*begin\b/i.test(text)) counted.transactions++;
  else if (!/^\s*(commit|rollback|savepoint|release)\b/i.test(text)) counted.statements++;
}

/**
 * CPU time (ms) of the PostgreSQL backends serving the bench's database, read from /proc (Linux; 0 elsewhere): the
 * database's side of the actions, which the process's own figure leaves out. Background processes (WAL writer,
 * checkpointer) are not counted.
 */
function backendCpuMs(database: string): number {
  if (!database) return 0;
  let ticks = 0;
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        if (!cmdline.startsWith('postgres: ') || !cmdline.includes(` ${database} `)) continue;
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // the process ended meanwhile
      }
    }
  } catch {
    return 0;
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}
let benchDatabase = '';

const PROFILE_DIR = process.env.BENCH_WF_PROFILE;
let profiler: Session | undefined;
let profiles = 0;

/**
 * Times `work` run by every approver at once; answers actions per second, the statements they ran and the process's
 * CPU time per action (user + system: the server's work and the injected requests', which a loaded machine inflates
 * less than it does the wall clock).
 */
async function burst(label: string, work: (i: number) => Promise<unknown>): Promise<{ rate: number; statementsPerAction: number; cpuMsPerAction: number; pgCpuMsPerAction: number; load: number }> {
  if (PROFILE_DIR && !profiler) {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_WF_PROFILE_US ?? 1000) });
  }
  if (profiler) await profiler.post('Profiler.start');
  Object.assign(counted, { on: true, statements: 0, transactions: 0 });
  const load = loadavg()[0]!;
  const pgCpu = backendCpuMs(benchDatabase);
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: APPROVERS }, (_, i) => work(i)));
  const rate = APPROVERS / (Number(process.hrtime.bigint() - started) / 1e9);
  const used = process.cpuUsage(cpu);
  const pgUsed = backendCpuMs(benchDatabase) - pgCpu;
  counted.on = false;
  if (profiler && PROFILE_DIR) {
    const { profile } = await profiler.post('Profiler.stop');
    mkdirSync(PROFILE_DIR, { recursive: true });
    writeFileSync(path.join(PROFILE_DIR, `${label}-${++profiles}.cpuprofile`), JSON.stringify(profile));
  }
  return { rate, statementsPerAction: counted.statements / APPROVERS, cpuMsPerAction: (used.user + used.system) / 1000 / APPROVERS, pgCpuMsPerAction: pgUsed / APPROVERS, load };
}

/** The workflow tables' updates so far, [in place (HOT), all], as the statistics have them (sent within a second or so). */
async function rowUpdates(db: Parameters<typeof migratePlatform>[0]): Promise<Record<string, [number, number]>> {
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const { rows } = await sql<{ relname: string; hot: string; all: string }>`select relname, n_tup_hot_upd as hot, n_tup_upd as all from pg_stat_user_tables where relname in ('wf_instances', 'wf_tokens', 'wf_work_items')`.execute(db);
  return Object.fromEntries(rows.map((r) => [r.relname, [Number(r.hot), Number(r.all)]]));
}

async function measure(label: string, databaseUrl?: string) {
  benchDatabase = databaseUrl ? new URL(databaseUrl).pathname.slice(1) : '';
  const dir = databaseUrl ? undefined : mkdtempSync(path.join(tmpdir(), 'tritium-bench-wf-'));
  const database = await openDatabase({ ...(dir ? { pgliteDataDir: path.join(dir, 'pglite') } : { databaseUrl }), onQuery: countStatement });
  await migratePlatform(database.db);
  const app = await buildApp({ config: { ...loadConfig({}), rateLimit: false, fixedVerifyCode: CODE, jwtSecret: 'bench-secret-0123456789abcdef' }, db: database.db, logger: false });
  await app.ready();
  try {
    const mobile = '13600000009';
    await app.inject({ method: 'POST', url: '/v1/captcha/verifycode/send', payload: { mobile, scene: 'register' } });
    const reg = (await app.inject({ method: 'POST', url: '/v1/register/engine', payload: { mobile, code: CODE, password: 'Passw0rd1', userName: '压测管理员', engineName: '压测集团' } })).json() as any;
    const admin = { authorization: `Bearer ${reg.data.accessToken}`, enginecode: reg.data.engineCode };
    await post(app, '/v1/functionnode', { code: 'BenchOa', displayName: '压测办公', nodeType: 190 }, admin);
    await post(app, '/v1/functionnode', { code: 'BenchExpense', appCode: 'BenchOa', displayName: '压测报销', nodeType: 210 }, admin);
    const loaded = await post(app, '/v1/formdesign/load', { schemaCode: 'BenchExpense' }, admin);
    const definition = { attributes: { displayName: '压测报销', nameSchema: '{Title}' }, controls: [{ type: 'textBox', code: 'Title' }, { type: 'number', code: 'Amount' }, { type: 'user', code: 'Approver' }] };
    const saved = await post(app, '/v1/formdesign/save', { schemaCode: 'BenchExpense', baseVersion: loaded.draft.version, definition }, admin);
    await post(app, '/v1/formdesign/publish', { schemaCode: 'BenchExpense', version: saved.version }, admin);
    const company = (await get(app, '/v1/org/department', {}, admin)).id;

    const approvers: { id: string; headers: Headers }[] = [];
    for (let i = 0; i < APPROVERS; i++) {
      const m = `1370000${String(i).padStart(4, '0')}`;
      const user = await post(app, '/v1/org/user/create', { name: `审批人${i}`, mobile: m, departmentIds: [company] }, admin);
      approvers.push({ id: user.id, headers: await signIn(app, m) });
    }
    const template = (node: Record<string, unknown>) => ({
      activities: [{ type: 'Start', code: 'Start', name: '发起' }, { type: 'Approve', code: 'A', name: '审批', ...node }, { type: 'End', code: 'End', name: '结束' }],
      routes: [{ from: 'Start', to: 'A' }, { from: 'A', to: 'End' }],
    });
    const publish = async (node: Record<string, unknown>) => {
      await post(app, '/v1/workflow/template/save', { schemaCode: 'BenchExpense', template: template(node) }, admin);
      await post(app, '/v1/workflow/template/publish', { schemaCode: 'BenchExpense' }, admin);
    };
    const startOne = async (approver?: string) =>
      (await post(app, '/v1/form/action/execute', { schemaCode: 'BenchExpense', actionCode: 'Submit', values: { Title: '差旅', Amount: 100, ...(approver ? { Approver: approver } : {}) } }, admin)).objectId as string;
    const itemOf = async (who: Headers, objectId: string) => (await get(app, '/v1/workflow/instance/info', { schemaCode: 'BenchExpense', objectId }, who)).myItems[0].workItemId as string;

    // Spread: approver i approves the instance assigned to them alone (the node's participant is the record's user field).
    const spread: number[] = [];
    const statements = { spread: 0, hot: 0 };
    const cpuMs = { spread: [] as number[], hot: [] as number[] };
    const pgCpuMs = { spread: [] as number[], hot: [] as number[] };
    const loads = { spread: [] as number[], hot: [] as number[] };
    const note = (kind: 'spread' | 'hot', b: Awaited<ReturnType<typeof burst>>) => {
      pgCpuMs[kind].push(Number(b.pgCpuMsPerAction.toFixed(2)));
      loads[kind].push(Number(b.load.toFixed(1)));
    };
    await publish({ participants: { sources: [{ type: 'field', code: 'Approver' }] } });
    const updatesBefore = await rowUpdates(database.db);
    for (let round = 0; round < ROUNDS; round++) {
      const items: string[] = [];
      for (const approver of approvers) items.push(await itemOf(approver.headers, await startOne(approver.id)));
      const b = await burst('spread', (i) => post(app, '/v1/workflow/instance/submit', { workItemId: items[i], opinion: { text: '同意' } }, approvers[i].headers));
      spread.push(b.rate);
      statements.spread = b.statementsPerAction;
      cpuMs.spread.push(Number(b.cpuMsPerAction.toFixed(2)));
      note('spread', b);
    }

    // Updates of the spread phase (its starts and votes) made in place (HOT), per table (docs/decisions/0134).
    const updatesAfter = await rowUpdates(database.db);
    const hotUpdates = Object.fromEntries(Object.entries(updatesAfter).map(([table, [hot, all]]) => [table, `${hot - (updatesBefore[table]?.[0] ?? 0)} of ${all - (updatesBefore[table]?.[1] ?? 0)}`]));
    // Hot: one instance, a countersign of every approver (100 % must agree); all act at once.
    const hot: number[] = [];
    await publish({ participants: { sources: [{ type: 'users', ids: approvers.map((a) => a.id) }] }, approveExit: { type: 'percentage', value: 100 } });
    for (let round = 0; round < ROUNDS; round++) {
      const objectId = await startOne();
      const items = await Promise.all(approvers.map((a) => itemOf(a.headers, objectId)));
      const b = await burst('hot', (i) => post(app, '/v1/workflow/instance/submit', { workItemId: items[i], opinion: { text: '同意' } }, approvers[i].headers));
      hot.push(b.rate);
      statements.hot = b.statementsPerAction;
      cpuMs.hot.push(Number(b.cpuMsPerAction.toFixed(2)));
      note('hot', b);
      const done = await post(app, '/v1/form/loaddata', { schemaCode: 'BenchExpense', objectId }, admin);
      if (done.status !== 1) throw new Error(`the countersign did not finish the flow: status ${done.status}`);
    }
    // A reference: the same approvers each reading their to-do count (GET /v1/workflow/todos/count) — what an
    // authenticated request costs without a workflow action (its context statement, routing, the answer).
    const reference = await burst('reference', (i) => get(app, '/v1/workflow/todos/count', {}, approvers[i].headers));
    const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]);
    const result = { database: label, approvers: APPROVERS, rounds: ROUNDS, spreadPerSecond: median(spread), hotPerSecond: median(hot), spreadAll: spread.map(Math.round), hotAll: hot.map(Math.round), statementsPerAction: statements, hotUpdates, cpuMsPerAction: cpuMs, pgCpuMsPerAction: pgCpuMs, loadAverage: loads, referenceRead: { perSecond: Math.round(reference.rate), statements: reference.statementsPerAction, cpuMs: Number(reference.cpuMsPerAction.toFixed(2)), pgCpuMs: Number(reference.pgCpuMsPerAction.toFixed(2)) } };
    console.log(result);
    return result;
  } finally {
    await app.close();
    await database.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

// BENCH_WF_DATABASE=pglite runs the same on embedded PGlite (a fresh data folder; its work is in the process's CPU).
const onPglite = process.env.BENCH_WF_DATABASE === 'pglite';
const run = onPglite ? await measure('PGlite') : await onThrowawayPostgres('tritium_bench_wf', (url, version) => measure(`PostgreSQL ${version}`, url));
if (!run) throw new Error('the workflow bench needs PostgreSQL (BENCH_DATABASE_URL)');
const result = saveResult(onPglite ? 'workflow-pglite' : 'workflow', run);
if (!process.env.BENCH_NO_DOC && !onPglite) writePerformanceSection('Workflow', [
  '## Workflow',
  '',
  `Measured by \`npm run bench:workflow\` on ${result.date.slice(0, 10)} on ${run.database}: Node ${process.version}, ${result.cpus} × ${result.cpu ?? 'CPU'}.`,
  `${APPROVERS} members, each signed in with a session of their own, press 同意 (POST /v1/workflow/instance/submit with an`,
  `opinion) at the same moment through \`app.inject\`; each action locks its instance row, applies the transition core,`,
  `writes the difference, the record's status, reminders, messages and live events in one transaction (docs/decisions/`,
  `0101: a vote is 3 statements — context, lock with read, write — and holds the lock for the write and the commit).`,
  `Median of ${ROUNDS} rounds. Statements per action: ${run.statementsPerAction.spread} on separate instances, ${run.statementsPerAction.hot} on one countersign;`,
  `the process's CPU per action (rounds): ${run.cpuMsPerAction.spread.join(', ')} ms and ${run.cpuMsPerAction.hot.join(', ')} ms; a plain authenticated`,
  `read by the same approvers: ${run.referenceRead.cpuMs} ms, ${run.referenceRead.perSecond} a second.`,
  '',
  '| figure | work-item actions per second |',
  '|---|---|',
  `| ${APPROVERS} approvers, each on a different instance | ${run.spreadPerSecond} (rounds: ${run.spreadAll.join(', ')}) |`,
  `| ${APPROVERS} approvers on one instance (a ${APPROVERS}-person countersign) | ${run.hotPerSecond} (rounds: ${run.hotAll.join(', ')}) |`,
  '',
  'On one instance the actions queue on its row lock (docs/decisions/0014): the countersign still finishes exactly once,',
  'with every vote counted (the bench checks the record is effective after each round).',
  '',
]);
