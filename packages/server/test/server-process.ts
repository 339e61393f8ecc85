import { inject, onTestFinished } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { FIXED_CODE, pgliteOnce } from './helpers.ts';
import { freePort } from '../../../e2e/global-setup.ts';

// The real server as a child process, for the tests that kill it (kill -9) in the middle of a job: a temp data folder
// (PGlite) or a throw-away PostgreSQL database, a short job lease so a restart sweeps the dead job quickly, and
// everything stopped and removed when the test that made it ends. The cleanup is the test's own (not a module-level
// afterAll): server test files share a module cache (isolate: false, docs/testing.md), so this module loads once.

const isPostgres = process.env.TEST_DB_KIND === 'postgres';

let output = '';

/** Polls `probe` until it answers something; the server's output comes with the error when it never does. */
export async function until<V>(what: string, probe: () => Promise<V | undefined>, timeoutMs = 30_000): Promise<V> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}\n${output}`);
}

/** A killable platform (call it inside a test): its base URL, its database (for reading rows directly), start and the env it runs with. */
export async function killableServer(name: string, env: Record<string, string>) {
  output = '';
  const children: ChildProcess[] = [];
  const cleanups: (() => Promise<void> | void)[] = [];
  onTestFinished(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const f of cleanups.reverse()) await f();
  });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `tritium-${name}-`));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  let databaseUrl = '';
  if (isPostgres) {
    const database = `tritium_${name.replace(/\W/g, '')}_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    // From the run's migrated template (global-setup.ts): the server's start-up migration finds nothing to do.
    await admin.query(`create database ${database} template ${inject('pgTemplate')}`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
    cleanups.push(async () => {
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    });
  } else {
    // From the run's migrated PGlite template too, laid out as the server's data folder: a new folder would cost its
    // initdb and every migration (about 3 s of a 5 s start).
    const template = await PGlite.create({ ...(await pgliteOnce()), dataDir: path.join(dataDir, 'pglite') });
    await template.close();
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const fullEnv = {
    PORT: String(port), HOST: '127.0.0.1', TRITIUM_DATA_DIR: dataDir, DATABASE_URL: databaseUrl, TRITIUM_FIXED_VERIFY_CODE: FIXED_CODE,
    TRITIUM_JWT_SECRET: 'kill-test-secret-0123456789abcdef', TRITIUM_JOB_LEASE_MS: '1500', TRITIUM_JOB_POLL_MS: '100', ...env,
  };
  const serverEnv = () => ({ ...process.env, LOG_LEVEL: 'warn', TRITIUM_RATE_LIMIT: 'off', TRITIUM_WEB_DIST: '/nonexistent', ...fullEnv });
  const answers = (timeoutMs: number) => until('the server', async () => ((await fetch(`${base}/v1/register/getscalelist`)).ok ? true : undefined), timeoutMs);
  /** Starts the server and waits until it answers. */
  const start = async (timeoutMs = 90_000): Promise<ChildProcess> => {
    // The built server, as `npm start` runs it (built once a run by global-setup.ts).
    const child = spawn(process.execPath, [inject('serverBundle')], { env: serverEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    children.push(child);
    await answers(timeoutMs);
    return child;
  };
  /**
   * Starts the server (Linux) in a process group of its own, as the child of a shell that then sleeps and never reaps
   * it: killed, it stays a zombie while the sleeper lives. Answers the server's pid once it answers.
   */
  const startUnreaped = async (timeoutMs = 90_000): Promise<number> => {
    const keeper = spawn('sh', ['-c', 'setsid "$0" "$1" & echo "$!"; exec sleep 300', process.execPath, inject('serverBundle')], {
      env: serverEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    });
    let said = '';
    keeper.stdout?.on('data', (d) => {
      said += d;
      output += d;
    });
    keeper.stderr?.on('data', (d) => (output += d));
    children.push(keeper);
    const pid = await until('the server pid', async () => Number(/^(\d+)\n/.exec(said)?.[1]) || undefined, 10_000);
    cleanups.push(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already ended
      }
    });
    await answers(timeoutMs);
    return pid;
  };
  return { base, dataDir, databaseUrl, start, startUnreaped };
}

export interface KillTestSession {
  /** The session's headers (token and engine). */
  headers(): Record<string, string>;
  /** POST answering the envelope as it came (business errors included). */
  call(url: string, body: unknown): Promise<any>;
  /** POST answering `data`; throws on a business error. */
  post(url: string, body: unknown): Promise<any>;
  session: { token: string; engineCode: string };
  /** The published form's code. */
  formCode: string;
}

/**
 * The set-up the kill tests share: a new engine registered on the running server (an administrator signed in), an app
 * and one published form with `controls`.
 */
export async function engineWithForm(base: string, names: { mobile: string; engineName: string; appCode: string; appName: string; formName: string; controls: unknown[] }): Promise<KillTestSession> {
  const session = { token: '', engineCode: '' };
  const headers = () => ({ authorization: `Bearer ${session.token}`, enginecode: session.engineCode });
  const call = async (url: string, body: unknown) => {
    const res = await fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers() }, body: JSON.stringify(body) });
    return (await res.json()) as any;
  };
  const post = async (url: string, body: unknown) => {
    const json = await call(url, body);
    if (!json.successful) throw new Error(`${url}: ${JSON.stringify(json)}`);
    return json.data;
  };
  await post('/v1/captcha/verifycode/send', { mobile: names.mobile, scene: 'register' });
  const reg = await post('/v1/register/engine', { mobile: names.mobile, code: FIXED_CODE, password: 'Passw0rd1', userName: '管理员', engineName: names.engineName, scale: '1-20' });
  Object.assign(session, { token: reg.accessToken, engineCode: reg.engineCode });
  const app = await post('/v1/functionnode', { code: names.appCode, displayName: names.appName, nodeType: FunctionNodeType.AppPackage });
  const form = await post('/v1/functionnode', { appCode: app.code, parentCode: app.code, displayName: names.formName, nodeType: FunctionNodeType.FormModule });
  const loaded = await post('/v1/formdesign/load', { schemaCode: form.code });
  const saved = await post('/v1/formdesign/save', { schemaCode: form.code, baseVersion: loaded.draft.version, definition: { attributes: { displayName: names.formName }, controls: names.controls } });
  await post('/v1/formdesign/publish', { schemaCode: form.code, version: saved.version, confirm: [] });
  return { headers, call, post, session, formCode: form.code };
}

/** kill -9 (or another signal) and wait for the process to be gone. */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
}
