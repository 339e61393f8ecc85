/**
 * A dashboard of 8 widgets over 1,000,000 records (issue 22 "bench/: each widget's query p50 cold and warm"): a form
 * created and published through the API in a throw-away PostgreSQL database, its table filled with one INSERT … SELECT
 * generate_series, then POST /v1/report/data through app.inject for each widget. Cold: the result is not in the
 * report cache (each round adds an always-true condition with a new value, so the statement — and the cache key — is
 * new; PostgreSQL's own buffers stay warm, as on a server in use). Warm: the same widget again (the data versions are
 * read, the result comes from the cache).
 * Run: npm run bench:dashboard   (writes bench/results/dashboard.json and docs/performance.md "Dashboard at 1,000,000
 * records"). BENCH_DASHBOARD_RECORDS / BENCH_DASHBOARD_ROUNDS change the size and rounds; BENCH_BROWSER=on also opens
 * the widgets as one dashboard in Chromium (needs the built web app) — at 1,000,000 records its one attempt did not
 * finish within its 10-minute wait, see docs/performance.md.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { chromium } from 'playwright-core';
import { openDatabase } from '../packages/server/src/db/database.ts';
import { migratePlatform } from '../packages/server/src/db/migrate.ts';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { BENCH_CODE, medianAndP95, registerBenchEngine, round1 } from './setup.ts';
import { onThrowawayPostgres, post, saveResult, writePerformanceSection } from './lib.ts';

const RECORDS = Number(process.env.BENCH_DASHBOARD_RECORDS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_DASHBOARD_ROUNDS ?? 9);
const WARMUP = 1;
const FIELDS = [
  { type: 'textBox', code: 'Customer' },
  { type: 'dropDown', code: 'Region', options: { defaultItems: ['华东', '华南', '华北', '西南', '东北'] } },
  { type: 'dropDown', code: 'Kind', options: { defaultItems: ['x', 'y', 'z'] } },
  { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
  { type: 'number', code: 'Qty' },
  { type: 'dateTime', code: 'OrderDate' },
];

const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/web/dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The bench app, serving the built web app too (the browser part opens the board in Chromium). */
async function openApp(databaseUrl: string) {
  const database = await openDatabase({ databaseUrl });
  await migratePlatform(database.db);
  const webDist = existsSync(path.join(WEB_DIST, 'index.html')) ? WEB_DIST : undefined;
  const app = await buildApp({ config: { ...loadConfig({}), rateLimit: false, fixedVerifyCode: BENCH_CODE, jwtSecret: 'bench-secret-0123456789abcdef', webDist }, db: database.db, logger: false, listen: database.listen });
  await app.ready();
  return { app, database, webDist };
}

/**
 * The board of every widget opened in Chromium at 1440 px: ms from navigation until every widget shows its numbers
 * (each chart reports itself drawn, no card still loading). Cold: after a write to the table (new data versions);
 * warm: the same page opened again.
 */
async function browserTimes(baseUrl: string, admin: { token: string; engineCode: string }, url: string, widgetCount: number, chartCount: number, bump: () => Promise<unknown>) {
  if (!existsSync(CHROMIUM)) return null;
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    await context.addCookies([{ name: 'access-token', value: admin.token, url: baseUrl }, { name: 'engine', value: admin.engineCode, url: baseUrl }]);
    const page = await context.newPage();
    const open = async () => {
      const t0 = Date.now();
      await page.goto(url);
      await page.waitForFunction(
        ([w, c]) => document.querySelectorAll('[data-widget]').length === w && document.querySelectorAll('[data-drawn="true"]').length === c && !document.querySelector('[data-widget] .ant-skeleton'),
        [widgetCount, chartCount],
        { timeout: 600_000, polling: 50 },
      );
      return Date.now() - t0;
    };
    await open(); // the web app's files into the browser's cache
    await bump();
    const cold = await open();
    const warm = await open();
    return { cold, warm };
  } finally {
    await browser.close();
  }
}

async function measure(databaseUrl: string, version: string) {
  const { app, database, webDist } = await openApp(databaseUrl);
  try {
    const admin = await registerBenchEngine(app, '13600000021', '看板管理员', '看板压测集团');
    const headers = admin.headers;
    const appNode = await post(app, '/v1/functionnode', { code: 'BoardApp', displayName: '百万看板', nodeType: 190 }, headers);
    const node = await post(app, '/v1/functionnode', { code: 'BoardOrders', appCode: appNode.code, displayName: '百万订单', nodeType: 200 }, headers);
    const loaded = await post(app, '/v1/formdesign/load', { schemaCode: node.code }, headers);
    const saved = await post(app, '/v1/formdesign/save', { schemaCode: node.code, baseVersion: loaded.draft.version, definition: { attributes: { displayName: '百万订单' }, controls: FIELDS } }, headers);
    await post(app, '/v1/formdesign/publish', { schemaCode: node.code, version: saved.version }, headers);
    const me: string = (await post(app, '/v1/form/loaddata', { schemaCode: node.code }, headers)).system.CreatedBy;
    const companyId = (await database.db.selectFrom('platform.engines').select('company_id').where('engine_code', '=', admin.engineCode).executeTakeFirstOrThrow()).company_id;
    const depts: string[] = [];
    for (let i = 0; i < 10; i++) depts.push((await post(app, '/v1/org/department/create', { parentId: companyId, name: `销售${i}部` }, headers)).id);

    const schema = `e_${admin.engineCode}`;
    const tableName = `i_${node.code.toLowerCase()}`;
    const table = sql.id(schema, tableName);
    const trigram = await sql<{ name: string; def: string }>`select indexname as name, indexdef as def from pg_indexes where schemaname = ${schema} and tablename = ${tableName} and indexname like 'xt_%'`.execute(database.db);
    const t0 = Date.now();
    for (const i of trigram.rows) await sql`drop index ${sql.id(schema, i.name)}`.execute(database.db);
    // Orders over about two years (one every minute back from now), five regions, three kinds, ten departments.
    await sql`
      insert into ${table} ("ObjectId", "Name", "Status", "CreatedBy", "ModifiedBy", "OwnerId", "OwnerDeptId", "CreatedTime", "ModifiedTime",
        "Customer", "Region", "Kind", "Amount", "Qty", "OrderDate")
      select gen_random_uuid(), '订单' || g, 1, ${me}, ${me}, ${me}, (${sql.val(depts)}::text[])[1 + g % 10],
        now() - g * interval '1 minute', now(), '客户' || (g % 5000),
        (array['华东','华南','华北','西南','东北'])[1 + g % 5], (array['x','y','z'])[1 + g % 3],
        (g % 1000) + 0.5, g % 7, now() - g * interval '1 minute'
      from generate_series(1, ${RECORDS}::int) g`.execute(database.db);
    for (const i of trigram.rows) await sql.raw(i.def).execute(database.db);
    await sql`analyze ${table}`.execute(database.db);
    const seedSeconds = round1((Date.now() - t0) / 1000);

    const source = { schemaCode: node.code };
    const layout = { x: 0, y: 0, w: 6, h: 6 };
    const widgets: Record<string, Record<string, unknown>> = {
      'number: sum of Amount': { type: 'number', measures: [{ aggregate: 'sum', field: 'Amount' }] },
      'number: this month against the last': { type: 'number', measures: [{ aggregate: 'sum', field: 'Amount' }], compare: { dateField: 'OrderDate', period: 'month' } },
      'bar: count by Region': { type: 'bar', dimensions: [{ field: 'Region' }], measures: [{ aggregate: 'count' }] },
      'line: sum of Amount by month': { type: 'line', dimensions: [{ field: 'OrderDate', dateGroup: 'month' }], measures: [{ aggregate: 'sum', field: 'Amount' }] },
      'pie: count by Kind': { type: 'pie', dimensions: [{ field: 'Kind' }], measures: [{ aggregate: 'count' }] },
      'table: Region × Kind, count, sum, avg, totals': { type: 'table', dimensions: [{ field: 'Region' }, { field: 'Kind' }], measures: [{ aggregate: 'count' }, { aggregate: 'sum', field: 'Amount' }, { aggregate: 'avg', field: 'Qty' }], totals: true },
      'pivot: department × Region, distinct customers': { type: 'pivot', dimensions: [{ field: 'OwnerDeptId' }, { field: 'Region' }], measures: [{ aggregate: 'distinct', field: 'Customer' }], totals: true },
      'bar: top 10 days by count': { type: 'bar', dimensions: [{ field: 'OrderDate', dateGroup: 'day' }], measures: [{ aggregate: 'count' }], sort: { by: 'measure', index: 0, direction: 'desc' }, topN: 10 },
    };
    let round = 0;
    const call = (widget: Record<string, unknown>, cold: boolean, first = false) => async () => {
      // An always-true condition with a new value each time: a new statement, not in the cache.
      const filter = cold ? { field: 'Amount', operator: 'Above', value: -1_000_000 - ++round } : undefined;
      const data = await post(app, '/v1/report/data', { widget: { id: 'w', title: '', layout, source, ...widget }, ...(filter ? { filter } : {}) }, headers);
      if (!cold && !first && !data.cached) throw new Error('a warm call was not answered from the cache');
      return data;
    };
    const figures: Record<string, { cold: { medianMs: number; p95Ms: number }; warm: { medianMs: number; p95Ms: number }; groups: number }> = {};
    for (const [name, widget] of Object.entries(widgets)) {
      const first = await call(widget, false, true)();
      const cold = await medianAndP95(call(widget, true), WARMUP, ROUNDS);
      const warm = await medianAndP95(call(widget, false), WARMUP, ROUNDS);
      figures[name] = { cold, warm, groups: first.rows.length };
    }
    // The same widgets on one dashboard node, opened in the browser.
    let browser: { cold: number; warm: number } | null = null;
    if (webDist && process.env.BENCH_BROWSER === 'on') {
      const board = await post(app, '/v1/functionnode', { code: 'BoardNode', appCode: appNode.code, displayName: '百万看板', nodeType: 270 }, headers);
      const list = Object.values(widgets).map((w, i) => ({ id: `w${i + 1}`, title: `组件${i + 1}`, layout: { x: (i % 2) * 6, y: Math.floor(i / 2) * 7, w: 6, h: 7 }, source, ...w }));
      await post(app, '/v1/dashboard/save', { code: board.code, definition: { widgets: list } }, headers);
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      const charts = list.filter((w) => ['bar', 'line', 'pie'].includes((w as { type?: string }).type ?? '')).length;
      const bump = () => sql`update ${table} set "Qty" = "Qty" where "ObjectId" = (select "ObjectId" from ${table} limit 1)`.execute(database.db);
      browser = await browserTimes(address, admin, `/workbench/app/${appNode.code}/${board.code}`, list.length, charts, bump);
    }
    const result = { database: `PostgreSQL ${version}`, records: RECORDS, seedSeconds, figures, browser };
    console.log(JSON.stringify(result, null, 2));
    return result;
  } finally {
    await app.close();
    await database.close();
  }
}

const run = await onThrowawayPostgres('tritium_bench_dashboard', measure);
if (!run) {
  console.warn('No PostgreSQL server: nothing measured.');
  process.exit(0);
}
const result = saveResult('dashboard', { rounds: ROUNDS, run });
const ms = (x: { medianMs: number; p95Ms: number }) => `${x.medianMs} / ${x.p95Ms}`;
writePerformanceSection('Dashboard at 1,000,000 records', [
  '## Dashboard at 1,000,000 records',
  '',
  `Measured by \`npm run bench:dashboard\` on ${result.date.slice(0, 10)}: Node ${process.version}, ${result.cpus} × ${result.cpu ?? 'CPU'}, ${run.database},`,
  'on a machine shared with other builds and test runs at the time (figures are higher than on a quiet one).',
  `A form of 6 controls created and published through the API, ${RECORDS.toLocaleString('en-US')} records written with one INSERT … SELECT (${run.seedSeconds} s).`,
  'POST /v1/report/data through `app.inject` for each of 8 widgets, as the administrator (scope all). Cold: not in the report',
  'cache (a new statement each call; PostgreSQL\'s buffers warm). Warm: the same call again, answered from the cache after the',
  `data-version read. ${WARMUP} warm-up then ${ROUNDS} timed calls, median / p95 in ms. Goal: ≤ 300 ms cold, ≤ 20 ms warm.`,
  '',
  '| widget | groups | cold | warm |',
  '|---|---|---|---|',
  ...Object.entries(run.figures).map(([name, f]) => `| ${name} | ${f.groups} | ${ms(f.cold)} | ${ms(f.warm)} |`),
  '',
  'Every widget is one GROUP BY statement over the whole table (no index narrows an unfiltered dashboard), so a cold widget',
  'costs one parallel scan of the table plus its grouping; a warm one costs the data-version read (one small statement) and',
  'the cached answer.',
  '',
  run.browser
    ? `The same 8 widgets on one dashboard opened in Chromium (1440 px), from navigation until every widget shows its numbers: ${run.browser.cold} ms cold (after a write to the table), ${run.browser.warm} ms warm (opened again). The page asks for the 8 widgets at once.`
    : 'The browser part (BENCH_BROWSER=on) did not run in this measurement: at 20,000 records the board of these 8 widgets showed every number in Chromium 1.7 s after navigation (cold) and 2.2 s (opened again); at 1,000,000 records its one attempt did not finish within its 10-minute wait, not yet explained.',
  '',
  'Finding: the warm answers are near the 20 ms goal (the cache; the machine was loaded), the cold ones are not within',
  '300 ms at a million rows: each widget scans the whole table, and a date grouping (to_char on every row), a distinct',
  'count (a sort per group) and a top N over some 700 days cost most. Reaching the cold goal needs pre-aggregation kept',
  'current by the data-version triggers (per form, day and dimension), or more cores for PostgreSQL\'s parallel scans;',
  'not done yet.',
  '',
]);
