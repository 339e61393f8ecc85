import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { inject } from 'vitest';
import pg from 'pg';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { openDatabase, pgliteMemory, type Database } from '../src/db/database.ts';
import { buildApp, type AppExtras, type BuildAppOptions } from '../src/app.ts';
import { loadConfig, type AppConfig } from '../src/config.ts';
import type { SmsSender } from '../src/modules/auth/sms.ts';

export const FIXED_CODE = '246810';

/** A fresh database for one test file, copied from the run's migrated template. */
/** A copy of the run's migrated template; on PostgreSQL `url` names it (a second server process can open it too). */
export async function openTestDatabase(options: { onQuery?: (sql: string) => void } = {}): Promise<Database & { url?: string }> {
  const kind = process.env.TEST_DB_KIND ?? 'pglite';
  if (kind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `tritium_test_${process.ppid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${inject('pgTemplate')}`);
    const dbUrl = new URL(url);
    dbUrl.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: dbUrl.toString(), onQuery: options.onQuery });
    return {
      ...database,
      url: dbUrl.toString(),
      close: async () => {
        await database.close();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  // The buffer cache the server starts PGlite with (docs/decisions/0102): less memory per file's database.
  const pglite = await PGlite.create({ ...(await pgliteOnce()), ...pgliteMemory(loadConfig({}).pgliteSharedBuffers), extensions: { pg_trgm } });
  return openDatabase({ pglite, onQuery: options.onQuery });
}

/**
 * What every file's PGlite, and every killed server's data folder (server-process.ts), starts from, read once a
 * worker (the worker's files share a module cache): PGlite's program compiled, its file bundle and the run's template.
 * Left to PGlite, each database compiled and read them again: about a fifth of the 1.2 s of CPU a file's database cost
 * to open (docs/testing.md).
 */
let pgliteStart: Promise<Pick<PGliteOptions, 'pgliteWasmModule' | 'initdbWasmModule' | 'fsBundle' | 'loadDataDir'>> | undefined;
export function pgliteOnce() {
  pgliteStart ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const read = (file: string) => readFileSync(path.join(dist, file));
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([WebAssembly.compile(read('pglite.wasm')), WebAssembly.compile(read('initdb.wasm'))]);
    return { pgliteWasmModule, initdbWasmModule, fsBundle: new Blob([read('pglite.data')]), loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]) };
  })();
  return pgliteStart;
}

export interface TestApp {
  app: FastifyInstance & { extras: AppExtras };
  database: Database & { url?: string };
  close(): Promise<void>;
}

/**
 * The key that seals channel secrets in tests: given, not read from the database, so an app builds while its database
 * is away (unavailable.test.ts) and every app of a worker seals with the same key (the key is the process's).
 */
export const TEST_SECRET_KEY = 'test-secret-key-0123456789abcdef';

export async function createTestApp(
  options: { config?: Partial<AppConfig>; sms?: SmsSender; now?: () => number; database?: Database & { url?: string }; deliveries?: BuildAppOptions['deliveries']; clock?: () => Date } = {},
): Promise<TestApp> {
  const database = options.database ?? (await openTestDatabase());
  const config: AppConfig = { ...loadConfig({}), rateLimit: false, fixedVerifyCode: FIXED_CODE, jwtSecret: 'test-secret-0123456789abcdef', secretKey: TEST_SECRET_KEY, outboundPrivate: true, ...options.config };
  const app = await buildApp({ config, db: database.db, logger: process.env.TEST_LOG ? { level: 'error' } : false, sms: options.sms, now: options.now, listen: database.listen, deliveries: options.deliveries, clock: options.clock });
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}

export interface CallOptions {
  token?: string;
  engineCode?: string;
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

/** Sends one request the way the web client does (bearer token and EngineCode header). */
export async function call(app: FastifyInstance, method: string, url: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.engineCode) headers.enginecode = options.engineCode;
  const response: LightMyRequestResponse = await app.inject({
    method: method as 'GET',
    url,
    query: options.query,
    headers,
    ...(options.body === undefined ? {} : { payload: options.body as object }),
  });
  let json: any;
  try {
    json = response.json();
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, body: json, response };
}

let mobileCounter = 0;
/** A mobile number unique within the test process. */
export function uniqueMobile(): string {
  mobileCounter += 1;
  return `139${String(process.pid % 10000).padStart(4, '0')}${String(mobileCounter % 10000).padStart(4, '0')}`;
}

/** Registers a person and their engine through the API; returns what the client keeps. */
export async function registerPerson(app: FastifyInstance, overrides: { mobile?: string; password?: string; userName?: string; engineName?: string } = {}) {
  const mobile = overrides.mobile ?? uniqueMobile();
  const password = overrides.password ?? 'Passw0rd1';
  const sent = await call(app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile, scene: 'register' } });
  if (!sent.body?.successful) throw new Error(`send code failed: ${JSON.stringify(sent.body)}`);
  const registered = await call(app, 'POST', '/v1/register/engine', {
    body: { mobile, code: FIXED_CODE, password, userName: overrides.userName ?? '张三', engineName: overrides.engineName ?? '测试科技有限公司', scale: '1-20' },
  });
  if (!registered.body?.successful) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
  return { mobile, password, token: registered.body.data.accessToken as string, engineCode: registered.body.data.engineCode as string };
}

/** Clears the per-number resend interval so a test can request another code at once. */
export async function forgetRecentCodes(database: Database, mobile: string) {
  await database.db.updateTable('platform.verify_codes').set({ created_time: new Date(Date.now() - 120_000) }).where('mobile', '=', mobile).execute();
}
