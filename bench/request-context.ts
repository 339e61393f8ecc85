/**
 * Request context benchmark (docs/decisions/0032): the time of an authenticated list (POST /v1/bizdata/query, page of
 * 20 of 200 records) and of a single create (POST /v1/form/action/execute, Submit) through app.inject, on PGlite and
 * (when reachable) PostgreSQL in a throw-away database; every call authenticates, binds the engine, finds the form's
 * node and reads its published definition before its own statement.
 * Run: node --import tsx bench/request-context.ts   (prints the figures as JSON; docs/performance.md
 * "Request context" quotes them, interleaved with runs of the code before the change)
 */
import { openDatabase, type Database } from '../packages/server/src/db/database.ts';
import { migratePlatform } from '../packages/server/src/db/migrate.ts';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { onThrowawayPostgres, post } from './lib.ts';

const ROUNDS = Number(process.env.BENCH_CONTEXT_ROUNDS ?? 300);
const WARMUP = 20;
const CODE = '246810';
const FORM = {
  attributes: { displayName: '订单' },
  controls: [
    { type: 'textBox', code: 'Title' },
    { type: 'number', code: 'Amount' },
    { type: 'dateTime', code: 'Due' },
    { type: 'dropDown', code: 'Kind', options: { defaultItems: ['x', 'y'] } },
    { type: 'gridView', code: 'Items', controls: [{ type: 'textBox', code: 'ItemName' }] },
  ],
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round2 = (n: number) => Math.round(n * 100) / 100;

async function timed(rounds: number, call: (i: number) => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await call(i);
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await call(i);
    times.push(performance.now() - t0);
  }
  const total = performance.now() - started;
  times.sort((a, b) => a - b);
  return { median: round2(percentile(times, 50)), p95: round2(percentile(times, 95)), perSecond: Math.round((rounds / total) * 1000) };
}

async function measure(databaseUrl?: string) {
  const database: Database = await openDatabase(databaseUrl ? { databaseUrl } : {});
  await migratePlatform(database.db);
  const app = await buildApp({ config: { ...loadConfig({}), rateLimit: false, fixedVerifyCode: CODE, jwtSecret: 'bench-secret-0123456789abcdef' }, db: database.db, logger: false });
  await app.ready();
  try {
    const mobile = '13600000032';
    await app.inject({ method: 'POST', url: '/v1/captcha/verifycode/send', payload: { mobile, scene: 'register' } });
    const reg = (await app.inject({ method: 'POST', url: '/v1/register/engine', payload: { mobile, code: CODE, password: 'Passw0rd1', userName: '压测管理员', engineName: '压测集团' } })).json() as any;
    const headers = { authorization: `Bearer ${reg.data.accessToken}`, enginecode: reg.data.engineCode };
    const appNode = await post(app, '/v1/functionnode', { code: 'BenchCtx', displayName: '上下文', nodeType: 190 }, headers);
    await post(app, '/v1/functionnode', { code: 'D032orders', appCode: appNode.code, displayName: '订单', nodeType: 200 }, headers);
    const loaded = await post(app, '/v1/formdesign/load', { schemaCode: 'D032orders' }, headers);
    const saved = await post(app, '/v1/formdesign/save', { schemaCode: 'D032orders', baseVersion: loaded.draft.version, definition: FORM }, headers);
    await post(app, '/v1/formdesign/publish', { schemaCode: 'D032orders', version: saved.version, confirm: [] }, headers);
    const create = (i: number) =>
      post(app, '/v1/form/action/execute', { schemaCode: 'D032orders', actionCode: 'Submit', values: { Title: `订单${i}`, Amount: i, Kind: 'x' }, children: { Items: [{ ItemName: '螺丝' }] } }, headers);
    for (let i = 0; i < 200; i++) await create(i);
    const userInfo = async () => {
      const res = await app.inject({ method: 'GET', url: '/v1/user/info', headers });
      if (res.statusCode !== 200) throw new Error(res.body);
    };
    return {
      userInfo: await timed(ROUNDS, userInfo),
      list: await timed(ROUNDS, () => post(app, '/v1/bizdata/query', { schemaCode: 'D032orders', pageIndex: 0, pageSize: 20 }, headers)),
      create: await timed(ROUNDS, create),
    };
  } finally {
    await app.close();
    await database.close();
  }
}

const pglite = await measure();
const postgres = await onThrowawayPostgres('tritium_bench_ctx', (url) => measure(url));
console.log(JSON.stringify({ date: new Date().toISOString(), rounds: ROUNDS, pglite, postgres }));
