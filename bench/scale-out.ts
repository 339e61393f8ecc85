/**
 * Issue 49's load test, started by one command: three server processes (as `npm start` runs them) on one PostgreSQL,
 * files in a local S3-compatible store (s3rver, the tests' one), nginx in front (round robin, no sticky sessions);
 * 200 virtual users (bench/scale-out-users.ts) for BENCH_SCALE_SECONDS (300) of mixed work — lists, reads, saves that
 * start an approval, approvals, uploads, to-do counts — each with its live stream open. Half-way one process is
 * killed with SIGKILL while three exports are queued. Then: every save the users saw acknowledged is in the
 * database; the exports finished (on the other processes); the dropped streams reconnected; /metrics of every live
 * process was scraped during the load. Before the load, lock-out across processes: 10 parallel wrong passwords
 * through nginx (spread over the three) lock the account.
 * Needs PostgreSQL (BENCH_DATABASE_URL or the machine's) and nginx (.ci/run installs nginx-light).
 * Run: node --import tsx bench/scale-out.ts   (BENCH_SCALE_USERS 200, BENCH_SCALE_SECONDS 300, BENCH_SCALE_PROCESSES 3)
 * Writes bench/results/scale-out.json and prints the figures for docs/performance.md "Scale-out".
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { E2E_CODE, freePort, startPlatform, waitForHttp } from '../e2e/global-setup.ts';
import { nginxBin, startNginx } from '../e2e/nginx.ts';
import { startLocalS3 } from '../packages/server/test/s3-server.ts';
import { onThrowawayPostgres, saveResult } from './lib.ts';
import { holdStream, summarise, work, type Session, type World } from './scale-out-users.ts';

const USERS = Number(process.env.BENCH_SCALE_USERS ?? 200);
const SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 300);
const PROCESSES = Number(process.env.BENCH_SCALE_PROCESSES ?? 3);
if (!nginxBin) throw new Error('nginx is not installed (apt-get install -y nginx-light)');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function api(base: string, who: Session | null, method: string, url: string, body?: unknown): Promise<any> {
  const res = await fetch(base + url, {
    method,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': who?.address ?? '10.9.0.1', ...(who?.headers ?? {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { successful: boolean; data: any; errorCode?: number; errorMessage?: string };
  if (!json.successful) throw Object.assign(new Error(`${method} ${url}: ${json.errorCode} ${json.errorMessage}`), { errorCode: json.errorCode });
  return json.data;
}

async function signIn(base: string, mobile: string, address: string): Promise<Record<string, string>> {
  await api(base, { headers: {}, userId: '', address }, 'POST', '/v1/captcha/verifycode/send', { mobile, scene: 'login' });
  const data = await api(base, { headers: {}, userId: '', address }, 'GET', `/v1/login/mobile/verifycode?mobile=${mobile}&code=${E2E_CODE}`);
  return { authorization: `Bearer ${data.accessToken}`, enginecode: data.engineCode };
}

/** The engine, its form with an approval on the record's "approver" field, and the users, all through nginx. */
async function prepare(base: string) {
  const adminAddress = '10.9.0.1';
  await api(base, null, 'POST', '/v1/captcha/verifycode/send', { mobile: '13900000000', scene: 'register' });
  const registered = await api(base, null, 'POST', '/v1/register/engine', { mobile: '13900000000', code: E2E_CODE, password: 'Scale2026ok', userName: '负载管理员', engineName: '负载测试公司', scale: '21-50' });
  const admin: Session = { headers: { authorization: `Bearer ${registered.accessToken}`, enginecode: registered.engineCode }, userId: '', address: adminAddress };
  await api(base, admin, 'POST', '/v1/functionnode', { nodeType: 190, code: 'office', displayName: '行政办公' });
  await api(base, admin, 'POST', '/v1/functionnode', { nodeType: 210, code: 'expense', appCode: 'office', displayName: '费用报销' });
  const loaded = await api(base, admin, 'POST', '/v1/formdesign/load', { schemaCode: 'expense' });
  const definition = {
    attributes: { displayName: '费用报销', nameSchema: '{Title}' },
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '事由' } },
      { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 2 } },
      { type: 'user', code: 'Approver', options: { displayName: '审批人' } },
    ],
  };
  const saved = await api(base, admin, 'POST', '/v1/formdesign/save', { schemaCode: 'expense', baseVersion: loaded.draft.version, definition });
  await api(base, admin, 'POST', '/v1/formdesign/publish', { schemaCode: 'expense', version: saved.version, confirm: [] });
  await api(base, admin, 'POST', '/v1/workflow/template/save', {
    schemaCode: 'expense',
    template: {
      activities: [{ type: 'Start', code: 'Start', name: '发起' }, { type: 'Approve', code: 'Check', name: '审批', participants: { sources: [{ type: 'field', code: 'Approver' }] } }, { type: 'End', code: 'End', name: '结束' }],
      routes: [{ from: 'Start', to: 'Check' }, { from: 'Check', to: 'End' }],
    },
  });
  await api(base, admin, 'POST', '/v1/workflow/template/publish', { schemaCode: 'expense' });
  const company = (await api(base, admin, 'GET', '/v1/org/department')).id as string;
  const users: Session[] = [];
  for (let i = 0; i < USERS; i++) {
    const mobile = `1391${String(i).padStart(7, '0')}`;
    const address = `10.${10 + Math.floor(i / 250)}.${i % 250}.7`;
    const user = await api(base, admin, 'POST', '/v1/org/user/create', { name: `员工${i + 1}`, mobile, departmentIds: [company] });
    await api(base, admin, 'POST', '/v1/functionnode/auth/set', { code: 'expense', unitId: user.id, permission: 'create' });
    users.push({ headers: await signIn(base, mobile, address), userId: user.id, address });
  }
  return { admin, users, engineCode: registered.engineCode as string };
}

/** 10 wrong passwords at once through nginx: the account is locked, whichever process counted which attempt. */
async function lockOut(base: string, bases: string[]): Promise<{ instances: number; lockedAfter: boolean }> {
  const mobile = '13900000000';
  const seen = new Set<string>();
  await Promise.all(Array.from({ length: 10 }, async (_, i) => {
    const res = await fetch(`${base}/v1/login/mobile/password`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.8.0.${i + 1}` }, body: JSON.stringify({ mobile, password: `wrong-${i}` }) });
    seen.add(res.headers.get('x-tritium-instance') ?? '?');
  }));
  const right = await fetch(`${bases[0]}/v1/login/mobile/password`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mobile, password: 'Scale2026ok' }) });
  const answer = (await right.json()) as { errorCode?: number };
  return { instances: seen.size, lockedAfter: answer.errorCode === 201202 };
}

/** The figures of a scrape that issue 49 names: request counts by status class, jobs, pool, live streams, scheduler lag. */
function metricsOf(text: string) {
  const sum = (pattern: RegExp) => text.split('\n').filter((l) => pattern.test(l)).reduce((s, l) => s + Number(l.split(' ').pop()), 0);
  return {
    requests: sum(/^tritium_http_request_duration_seconds_count/),
    errors5xx: sum(/^tritium_http_request_duration_seconds_count\{.*status_class="5xx"/),
    routes5xx: text.split('\n').filter((l) => /^tritium_http_request_duration_seconds_count\{.*status_class="5xx"/.test(l)).map((l) => l.replace('tritium_http_request_duration_seconds_count', '')),
    jobsQueued: sum(/^tritium_jobs_queued/),
    jobsRunning: sum(/^tritium_jobs_running/),
    poolWaiting: sum(/^tritium_db_pool_waiting/),
    liveConnections: sum(/^tritium_live_connections/),
    schedulerLagSeconds: sum(/^tritium_scheduler_lag_seconds/),
  };
}

async function measure(databaseUrl: string, postgresVersion: string) {
  const s3 = await startLocalS3();
  const folder = mkdtempSync(path.join(os.tmpdir(), 'tritium-scale-'));
  const children: ChildProcess[] = [];
  const settings = s3.settings('scale/');
  const serverErrors: string[] = [];
  try {
    const bases: string[] = [];
    for (let i = 0; i < PROCESSES; i++) {
      const port = await freePort();
      const dataDir = path.join(folder, `p${i}`);
      mkdirSync(dataDir);
      const child = startPlatform({
        PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, TRITIUM_DATA_DIR: dataDir, TRITIUM_FIXED_VERIFY_CODE: E2E_CODE,
        TRITIUM_TRUST_PROXY: '127.0.0.1', TRITIUM_METRICS: 'on', TRITIUM_FILE_STORE: 's3', TRITIUM_S3_BUCKET: settings.bucket!, TRITIUM_S3_PREFIX: settings.prefix,
        TRITIUM_S3_ENDPOINT: settings.endpoint!, TRITIUM_S3_REGION: settings.region, TRITIUM_S3_FORCE_PATH_STYLE: 'true',
        TRITIUM_S3_ACCESS_KEY_ID: settings.accessKeyId!, TRITIUM_S3_SECRET_ACCESS_KEY: settings.secretAccessKey!,
      });
      children.push(child);
      for (const stream of [child.stdout, child.stderr]) stream?.on('data', (d: Buffer) => serverErrors.push(...String(d).split('\n').filter((l) => /"level":(50|60)/.test(l)).map((l) => `p${i}: ${l.slice(0, 400)}`)));
      bases.push(`http://127.0.0.1:${port}`);
      // One after another: each start builds the server bundle into the same folder.
      await waitForHttp(`${bases[i]}/readyz`, child, 240_000);
    }
    const nginx = await startNginx(path.join(folder, 'nginx'), bases);
    children.push(nginx.child);
    const setupStarted = Date.now();
    const { admin, users, engineCode } = await prepare(nginx.base);
    const lock = await lockOut(nginx.base, bases);
    console.log(`prepared ${users.length} users in ${((Date.now() - setupStarted) / 1000).toFixed(0)} s; lock-out across ${lock.instances} processes: ${lock.lockedAfter ? 'locked' : 'NOT locked'}`);

    let stopping = false;
    const world: World = { base: nginx.base, schemaCode: 'expense', stopping: () => stopping, samples: [], acknowledged: [], streams: { opened: 0, dropped: 0, reconnected: 0, byInstance: new Map() } };
    const cpu0 = process.cpuUsage();
    const started = Date.now();
    const running = users.flatMap((u) => [holdStream(world, u), work(world, u, users.filter((o) => o !== u))]);
    const scrapes: Record<string, ReturnType<typeof metricsOf>>[] = [];
    const victim = PROCESSES - 1;
    let killedAt = 0;
    const exports: string[] = [];
    while (Date.now() - started < SECONDS * 1000) {
      await sleep(15_000);
      const scrape: Record<string, ReturnType<typeof metricsOf>> = {};
      for (const [i, b] of bases.entries()) if (!killedAt || i !== victim) scrape[`p${i}`] = metricsOf(await (await fetch(`${b}/metrics`)).text());
      scrapes.push(scrape);
      const elapsed = Date.now() - started;
      if (!exports.length && elapsed >= SECONDS * 450) {
        for (let n = 0; n < 3; n++) exports.push((await api(nginx.base, admin, 'POST', '/v1/dataExport/addExportTask', { schemaCode: 'expense' })).taskId);
      }
      if (!killedAt && elapsed >= SECONDS * 500) {
        children[victim]!.kill('SIGKILL');
        killedAt = Date.now();
        console.log(`killed process ${victim} at ${(elapsed / 1000).toFixed(0)} s`);
      }
    }
    stopping = true;
    await Promise.all(running);
    const cpu = process.cpuUsage(cpu0);

    // Every acknowledged save is in the database, and the exports ended on the processes that live.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const table = (await client.query(`select table_name from information_schema.columns where table_schema = $1 and column_name = 'Approver' limit 1`, [`e_${engineCode}`])).rows[0].table_name as string;
    const stored = new Set((await client.query(`select "ObjectId"::text as id from "e_${engineCode}"."${table}"`)).rows.map((r) => r.id as string));
    await client.end();
    const lost = world.acknowledged.filter((id) => !stored.has(id));
    let exportStates: string[] = [];
    const deadline = Date.now() + 180_000;
    while (Date.now() < deadline) {
      const tasks = await api(nginx.base, admin, 'POST', '/v1/dataPort/LoadTaskRecords', { Type: 'Export', TaskIds: exports });
      exportStates = tasks.list.map((t: { state: string; exportState: string | null; message: string | null; attempts: number }) => `${t.exportState ?? t.state} (attempts ${t.attempts}${t.message ? `: ${t.message}` : ''})`);
      if (exportStates.length === exports.length && exportStates.every((s) => /^(Success|Fail) /.test(s))) break;
      await sleep(2000);
    }
    const killWindow = (at: number) => killedAt && at >= killedAt - 1000 && at <= killedAt + 15_000;
    const result = {
      users: USERS, seconds: SECONDS, processes: PROCESSES, postgresVersion,
      lockOut: lock,
      outsideKillWindow: summarise(world.samples.filter((s) => !killWindow(s.at))),
      inKillWindow: summarise(world.samples.filter((s) => killWindow(s.at))),
      // Where the slow answers fall: every 30 s of the load, its calls, p99 and calls over 500 ms.
      timeline: Array.from({ length: Math.ceil(SECONDS / 30) }, (_, w) => {
        const inWindow = world.samples.filter((s) => s.at >= started + w * 30_000 && s.at < started + (w + 1) * 30_000);
        return { from: w * 30, ...summarise(inWindow).all, over500ms: inWindow.filter((s) => s.ms > 500).length };
      }),
      errorsSample: world.samples.filter((s) => !s.ok).slice(0, 10),
      acknowledgedSaves: world.acknowledged.length, lostSaves: lost.length,
      exports: exportStates,
      streams: { ...world.streams, byInstance: Object.fromEntries(world.streams.byInstance) },
      loadGeneratorCpuSeconds: Math.round((cpu.user + cpu.system) / 1e6),
      loadAverageAtEnd: os.loadavg()[0],
      serverErrors: serverErrors.slice(0, 20),
      lastScrape: scrapes.at(-1),
      scrapes: scrapes.length,
    };
    console.log(JSON.stringify(result, null, 2));
    return result;
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await sleep(1000);
    await s3.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

const result = await onThrowawayPostgres('tritium_scale', measure);
if (!result) throw new Error('the scale-out bench needs PostgreSQL (BENCH_DATABASE_URL)');
saveResult('scale-out', result);
process.exit(0);
