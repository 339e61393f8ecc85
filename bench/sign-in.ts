/**
 * Sign-in benchmark (issue "Platform foundation and sign-in"): password sign-ins per second, authenticated
 * GET /v1/user/info per second, and the server's idle RSS, on PGlite and (when BENCH_DATABASE_URL or a local
 * server is reachable) on PostgreSQL. The server runs as its own process, started the way `npm start` does.
 * Run: npm run bench:sign-in   (writes bench/results/sign-in.json; copy the table into docs/performance.md)
 */
import { mkdtempSync, readFileSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort, startPlatform, waitForHttp, ROOT } from '../e2e/global-setup.ts';
import { onThrowawayPostgres } from './lib.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const CODE = '246810';

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

async function post(base: string, url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(base + url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return res.json() as Promise<any>;
}

function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => autocannon(opts, (err, result) => (err ? reject(err) : resolve(result))));
}

async function measure(label: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-bench-'));
  const port = await freePort();
  const child = startPlatform({ PORT: String(port), TRITIUM_DATA_DIR: dataDir, TRITIUM_FIXED_VERIFY_CODE: CODE, TRITIUM_RATE_LIMIT: 'off', LOG_LEVEL: 'error', ...env });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${base}/v1/register/getscalelist`, child);
    await new Promise((r) => setTimeout(r, 3000));
    const idleRss = rssMiB(child.pid!);
    const mobile = `137${String(Date.now()).slice(-8)}`;
    await post(base, '/v1/captcha/verifycode/send', { mobile, scene: 'register' });
    const reg = await post(base, '/v1/register/engine', { mobile, code: CODE, password: 'Passw0rd1', userName: '压测', engineName: '压测组织' });
    if (!reg.successful) throw new Error(JSON.stringify(reg));
    const signIn = await cannon({
      url: `${base}/v1/login/mobile/password`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mobile, password: 'Passw0rd1' }),
      connections: CONNECTIONS,
      duration: DURATION,
    });
    const userInfo = await cannon({
      url: `${base}/v1/user/info`,
      headers: { authorization: `Bearer ${reg.data.accessToken}`, enginecode: reg.data.engineCode },
      connections: CONNECTIONS,
      duration: DURATION,
    });
    const loadedRss = rssMiB(child.pid!);
    const row = {
      database: label,
      signInsPerSecond: Math.round(signIn.requests.average),
      signInP99ms: signIn.latency.p99,
      signInErrors: signIn.non2xx + signIn.errors,
      userInfoPerSecond: Math.round(userInfo.requests.average),
      userInfoP99ms: userInfo.latency.p99,
      userInfoErrors: userInfo.non2xx + userInfo.errors,
      idleRssMiB: idleRss,
      rssAfterLoadMiB: loadedRss,
    };
    console.log(row);
    return row;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** PGlite's first start runs initdb inside its heap; a restart on the same folder is the steady state. */
async function restartRssMiB(): Promise<number> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-bench-'));
  try {
    let rss = 0;
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const child = startPlatform({ PORT: String(port), TRITIUM_DATA_DIR: dataDir, LOG_LEVEL: 'error' });
      await waitForHttp(`http://127.0.0.1:${port}/v1/register/getscalelist`, child);
      await new Promise((r) => setTimeout(r, 3000));
      rss = rssMiB(child.pid!);
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    return rss;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const rows: Record<string, unknown>[] = [await measure('PGlite', {})];
const pgliteRestartRss = await restartRssMiB();
console.log({ pgliteRestartRss });
const pgRun = await onThrowawayPostgres('tritium_bench', (url, version) => measure(`PostgreSQL ${version}`, { DATABASE_URL: url }));
if (pgRun) rows.push(pgRun);

mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(path.join(ROOT, 'bench/results/sign-in.json'), JSON.stringify({ date: new Date().toISOString(), cpus: os.cpus().length, duration: DURATION, connections: CONNECTIONS, rows, pgliteRestartRss }, null, 2));
console.log('\n| database | sign-ins/s | p99 ms | user/info/s | p99 ms | idle RSS MiB | RSS after load MiB |\n|---|---|---|---|---|---|---|');
console.log(`PGlite idle RSS after a restart on an existing data folder: ${pgliteRestartRss} MiB`);
for (const r of rows as any[]) console.log(`| ${r.database} | ${r.signInsPerSecond} | ${r.signInP99ms} | ${r.userInfoPerSecond} | ${r.userInfoP99ms} | ${r.idleRssMiB} | ${r.rssAfterLoadMiB} |`);
