/**
 * An install killed with -9 (issue 46's must-show, docs/decisions/0130): the 50-form app with 10,000 sample records of
 * bench/app-install-package.ts is installed by the real server (the built bundle `npm start` runs, as a child
 * process); once the install is writing sample records the process is killed with SIGKILL and started again. Then:
 * the job ends Timeout and no app is in the list; the retry finishes; exactly one app is there, no node hidden, every
 * form's table holds its 200 records once and 10,000 sample marks. Prints and saves the figures.
 * Run: node --import tsx bench/app-install-kill.ts   (PostgreSQL in a throw-away database on BENCH_DATABASE_URL, then
 * PGlite in a fresh data folder; BENCH_INSTALL_DATABASE=pglite|postgres runs one). Writes bench/results/app-install-kill.json.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { contracts } from '@tritium/shared';
import { openDatabase } from '../packages/server/src/db/database.ts';
import { writePackageFile } from '../packages/server/src/modules/app-package/package-format.ts';
import { FORMS, RECORDS, benchPackage } from './app-install-package.ts';
import { onThrowawayPostgres, saveResult } from './lib.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CODE = '246810';
const PORT = 3961;
const base = `http://127.0.0.1:${PORT}`;
const only = process.env.BENCH_INSTALL_DATABASE;
/** Kill once the install has written this far (70 % = the forms done; the sample records follow). */
const KILL_AT = Number(process.env.BENCH_KILL_AT_PERCENT ?? 80);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 300_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    // A refused or unreachable call is read again; what the check itself throws (the install ended) is not.
    const value = await read().catch((error: Error) => {
      if (error.message.startsWith('install ')) throw error;
      return undefined;
    });
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await pause(200);
  }
}

function startServer(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [path.join(ROOT, 'packages/server/dist/main.mjs')], {
    env: { ...process.env, LOG_LEVEL: 'warn', TRITIUM_RATE_LIMIT: 'off', TRITIUM_WEB_DIST: '/nonexistent', PORT: String(PORT), HOST: '127.0.0.1', TRITIUM_FIXED_VERIFY_CODE: CODE, TRITIUM_JWT_SECRET: 'bench-kill-secret-0123456789abcdef', TRITIUM_JOB_LEASE_MS: '10000', TRITIUM_JOB_POLL_MS: '200', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

const answering = () => until('the server', async () => ((await fetch(`${base}/v1/register/getscalelist`)).ok ? true : undefined), 180_000);

async function call(headers: Record<string, string>, method: string, url: string, body?: unknown) {
  const r = await fetch(`${base}${url}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = (await r.json()) as { successful: boolean; data: any; errorMessage?: string };
  if (!json.successful) throw new Error(`${url}: ${json.errorMessage}`);
  return json.data;
}

async function measure(url: string | undefined, version: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tritium-bench-install-kill-'));
  const env = { TRITIUM_DATA_DIR: dir, DATABASE_URL: url ?? '' };
  let server = startServer(env);
  try {
    await answering();
    const mobile = '13600000047';
    await fetch(`${base}/v1/captcha/verifycode/send`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mobile, scene: 'register' }) });
    const reg = await call({}, 'POST', '/v1/register/engine', { mobile, code: CODE, password: 'Passw0rd1', userName: '压测管理员', engineName: '压测集团' });
    const headers = { authorization: `Bearer ${reg.accessToken}`, enginecode: reg.engineCode };
    const bytes = await writePackageFile({ pkg: contracts.AppPackage.parse(benchPackage()), files: new Map() });
    const uploaded = await (await fetch(`${base}/v1/app-package/upload`, { method: 'POST', headers: { ...headers, 'content-type': 'application/gzip' }, body: new Uint8Array(bytes) })).json() as { data: { packageId: string } };
    const { actionId } = await call(headers, 'POST', '/v1/app-package/install', { packageId: uploaded.data.packageId, sampleData: true });
    const progress = () => call(headers, 'GET', `/v1/app-package/install/progress?actionId=${actionId}`);
    const apps = async () => ((await call(headers, 'GET', '/v1/functionnode/app/list?withChildren=false')).list as { displayName: string }[]).map((a) => a.displayName);

    const started = Date.now();
    const atKill = await until('the install to write sample records', async () => {
      const p = await progress();
      if (['Failed', 'Finished'].includes(p.state)) throw new Error(`install ended ${p.state} before the kill: ${p.message}`);
      return p.progress >= KILL_AT ? p : undefined;
    });
    server.kill('SIGKILL');
    await new Promise((r) => server.once('exit', r));
    const killedAfter = (Date.now() - started) / 1000;

    server = startServer(env);
    await answering();
    const restarted = Date.now();
    const timedOut = await until('Timeout', async () => ((await progress()).state === 'Timeout' ? true : undefined));
    const timeoutAfter = (Date.now() - restarted) / 1000;
    const visibleAfterKill = await apps();

    const retried = Date.now();
    await call(headers, 'POST', '/v1/app-package/install/retry', { actionId });
    const done = await until('the retried install', async () => {
      const p = await progress();
      if (p.state === 'Failed') throw new Error(`install failed: ${p.message}`);
      return p.isComplete ? p : undefined;
    });
    const retrySeconds = (Date.now() - retried) / 1000;
    const visibleAfterRetry = await apps();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));

    // The rows themselves, read with the server stopped.
    const database = await openDatabase(url ? { databaseUrl: url } : { pgliteDataDir: path.join(dir, 'pglite') });
    let rows;
    try {
      const schema = `e_${reg.engineCode}`;
      const nodes = (await sql<{ total: number; hidden: number }>`select count(*)::int as total, count(copy_job_id)::int as hidden from ${sql.table(`${schema}.function_nodes`)}`.execute(database.db)).rows[0]!;
      const marks = (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`${schema}.app_sample_records`)}`.execute(database.db)).rows[0]!.n;
      const tables = (await sql<{ t: string }>`select table_name as t from ${sql.table(`${schema}.form_tables`)} where grid_key = ''`.execute(database.db)).rows;
      const counts = [];
      for (const { t } of tables) counts.push((await sql<{ n: number }>`select count(*)::int as n from ${sql.id(schema, t)}`.execute(database.db)).rows[0]!.n);
      rows = { nodes, marks, forms: tables.length, recordsPerForm: [...new Set(counts)] };
    } finally {
      await database.close();
    }
    const perForm = Math.floor(RECORDS / FORMS);
    const holds = timedOut && visibleAfterKill.length === 0 && done.state === 'Finished' && visibleAfterRetry.length === 1 && rows.nodes.hidden === 0 && rows.nodes.total === FORMS + 1 && rows.marks === perForm * FORMS && rows.forms === FORMS && rows.recordsPerForm.length === 1 && rows.recordsPerForm[0] === perForm;
    const figures = { database: url ? `PostgreSQL ${version}` : 'PGlite', forms: FORMS, records: RECORDS, killedAtPercent: atKill.progress, killedAtMessage: atKill.message, killedAfterSeconds: killedAfter, timeoutAfterRestartSeconds: timeoutAfter, visibleAfterKill, retrySeconds, visibleAfterRetry, rows, holds };
    console.log(JSON.stringify(figures));
    if (!holds) process.exitCode = 1;
    return figures;
  } finally {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
const runs = [];
if (only !== 'pglite') runs.push(await onThrowawayPostgres('tritium_bench_install_kill', measure));
if (only !== 'postgres') runs.push(await measure(undefined, 'embedded'));
saveResult('app-install-kill', { runs: runs.filter(Boolean) });
