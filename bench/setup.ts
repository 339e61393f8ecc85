import { openDatabase, type Database } from '../packages/server/src/db/database.ts';
import { migratePlatform } from '../packages/server/src/db/migrate.ts';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import type { App } from './lib.ts';

// The set-up the data benches share (docs/decisions/0026: it was written once per bench): an app on a fresh database
// (PGlite in memory, or the URL given), an engine registered through the API, and the median / p95 of timed calls.

/** The verification code the bench app accepts. */
export const BENCH_CODE = '246810';

/** Opens the database, migrates the platform schema and builds the app (no rate limit, no log). */
export async function openBenchApp(databaseUrl?: string): Promise<{ app: App; database: Database }> {
  const database = await openDatabase(databaseUrl ? { databaseUrl } : {});
  await migratePlatform(database.db);
  // The benches' fake platforms listen on 127.0.0.1: private addresses are allowed, as in the tests (decision 0072).
  const app = await buildApp({ config: { ...loadConfig({}), outboundPrivate: true, rateLimit: false, fixedVerifyCode: BENCH_CODE, jwtSecret: 'bench-secret-0123456789abcdef' }, db: database.db, logger: false, listen: database.listen });
  await app.ready();
  return { app, database };
}

/** Registers an engine for `mobile` through the API; answers its code, token and the headers that act as its administrator. */
export async function registerBenchEngine(app: App, mobile: string, userName = '压测管理员', engineName = '压测集团') {
  await app.inject({ method: 'POST', url: '/v1/captcha/verifycode/send', payload: { mobile, scene: 'register' } });
  const reg = (await app.inject({ method: 'POST', url: '/v1/register/engine', payload: { mobile, code: BENCH_CODE, password: 'Passw0rd1', userName, engineName } })).json() as any;
  const token = reg.data.accessToken as string;
  const engineCode = reg.data.engineCode as string;
  return { token, engineCode, headers: { authorization: `Bearer ${token}`, enginecode: engineCode } };
}

/** The p-th percentile of ascending samples (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const round1 = (n: number) => Math.round(n * 10) / 10;

/** Runs `run` warmup + rounds times; answers the median and p95 of the timed rounds, in ms. */
export async function medianAndP95(run: () => Promise<unknown>, warmup: number, rounds: number) {
  const samples: number[] = [];
  for (let i = 0; i < warmup + rounds; i++) {
    const t0 = process.hrtime.bigint();
    await run();
    if (i >= warmup) samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  samples.sort((x, y) => x - y);
  return { medianMs: round1(percentile(samples, 50)), p95Ms: round1(percentile(samples, 95)) };
}
