/**
 * A dashboard of 8 widgets over 1,000,000 records (issue 22 "bench/: each widget's query p50 cold and warm"): a form
 * created and published through the API in a throw-away PostgreSQL database, its table filled with one INSERT … SELECT
 * generate_series, then POST /v1/report/data through app.inject for each widget. Cold: the result is not in the
 * report cache (each round adds an always-true condition with a new value, so the statement — and the cache key — is
 * new; PostgreSQL's own buffers stay warm, as on a server in use). Warm: the same widget again (the data versions are
 * read, the result comes from the cache).
 * Session 14 (docs/decisions/0074): after the seed, the form's pre-aggregation is built by the job runner (timed), and
 * each widget is measured three ways, interleaved round by round: "scan" (the cold call as before: an always-true
 * condition on a column the pre-aggregation does not keep, so the statement scans the table), "cold" (right after a
 * one-row write to the table: new data versions, nothing cached, the pre-aggregation read when it answers the widget)
 * and "warm" (the same call again, from the cache).
 * Run: npm run bench:dashboard   (writes bench/results/dashboard.json and docs/performance.md "Session 14 — dashboards
 * at 1,000,000 records"). BENCH_DASHBOARD_RECORDS / BENCH_DASHBOARD_ROUNDS change the size and rounds; BENCH_BROWSER=on
 * also opens the widgets as one dashboard in Chromium (needs the built web app): from navigation until every chart
 * reports itself drawn and every card shows its numbers, cold (after a write) and again. A card that shows an error
 * instead ends the wait at once, named (session 13's attempt waited its 10 minutes without saying why).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { chromium } from 'playwright-core';
import { openDatabase } from '../packages/server/src/db/database.ts';
import { migratePlatform } from '../packages/server/src/db/migrate.ts';
import { buildApp } from '../packages/server/src/app.ts';
import { CHROMIUM_ARGS } from '../packages/server/src/lib/chromium-args.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { BENCH_CODE, medianAndP95, registerBenchEngine, round1 } from './setup.ts';
import { onThrowawayPostgres, post, saveResult, writePerformanceSection } from './lib.ts';

const LOAD = (await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(', ');
/** BENCH_PRE_AGGREGATE=off: no pre-aggregation (session 13's server), for the browser part's before figure. */
const PRE_AGGREGATE = process.env.BENCH_PRE_AGGREGATE !== 'off';
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
  const app = await buildApp({ config: { ...loadConfig({}), reportPreAggregateFromRows: PRE_AGGREGATE ? Math.min(100_000, Math.floor(RECORDS / 2)) : Number.MAX_SAFE_INTEGER, rateLimit: false, fixedVerifyCode: BENCH_CODE, jwtSecret: 'bench-secret-0123456789abcdef', webDist }, db: database.db, logger: false, listen: database.listen });
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
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
  try {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    await context.addCookies([{ name: 'access-token', value: admin.token, url: baseUrl }, { name: 'engine', value: admin.engineCode, url: baseUrl }]);
    const page = await context.newPage();
    page.on('requestfailed', (r) => console.warn('request failed', r.url(), r.failure()?.errorText));
    page.on('response', (r) => { if (r.status() >= 400) console.warn('response', r.status(), r.url()); });
    // Each card's time from navigation until it shows its numbers (its chart drawn; a card without a chart: no skeleton).
    // A string, not a function: tsx names functions with a helper the page does not have.
    await page.addInitScript(`
      const times = {};
      window.__cardTimes = times;
      setInterval(() => {
        document.querySelectorAll('[data-widget]').forEach((card) => {
          const id = card.getAttribute('data-widget');
          if (times[id] !== undefined || card.querySelector('.ant-skeleton')) return;
          const chart = ['bar', 'line', 'pie'].includes(card.getAttribute('data-widget-type') || '');
          if (!chart || card.querySelector('[data-drawn="true"]')) times[id] = Math.round(performance.now());
        });
      }, 20);
    `);
    const open = async () => {
      const t0 = Date.now();
      await page.goto(url);
      await page.waitForFunction(
        ([w, c]) =>
          !!document.querySelector('[data-widget] .ant-alert') ||
          (document.querySelectorAll('[data-widget]').length === w && document.querySelectorAll('[data-drawn="true"]').length === c && !document.querySelector('[data-widget] .ant-skeleton')),
        [widgetCount, chartCount],
        { timeout: 600_000, polling: 50 },
      );
      const ms = Date.now() - t0;
      const failed = await page.$$eval('[data-widget]', (cards) => cards.filter((c) => c.querySelector('.ant-alert')).map((c) => `${c.getAttribute('data-widget')}: ${c.querySelector('.ant-alert')!.textContent}`));
      if (failed.length) throw new Error(`widgets not drawn after ${ms} ms: ${failed.join('; ')}`);
      const cards = await page.evaluate(() => (window as unknown as { __cardTimes: Record<string, number> }).__cardTimes);
      return { ms, cards };
    };
    await open(); // the web app's files into the browser's cache
    await bump();
    const cold = await open();
    const warm = await open();
    return { cold: cold.ms, warm: warm.ms, coldCards: cold.cards, warmCards: warm.cards };
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
    const bump = () => sql`update ${table} set "Customer" = "Customer" where "ObjectId" = (select "ObjectId" from ${table} limit 1)`.execute(database.db);
    // mode scan: an always-true condition with a new value each time on Amount (not kept by the pre-aggregation): a
    // new statement, not in the cache, scanning the table — session 13's cold call.
    const call = (widget: Record<string, unknown>, mode: 'scan' | 'cold' | 'warm') => async () => {
      const filter = mode === 'scan' ? { field: 'Amount', operator: 'Above', value: -1_000_000 - ++round } : undefined;
      const data = await post(app, '/v1/report/data', { widget: { id: 'w', title: '', layout, source, ...widget }, ...(filter ? { filter } : {}) }, headers);
      if (mode === 'warm' && !data.cached) throw new Error('a warm call was not answered from the cache');
      if (mode === 'cold' && data.cached) throw new Error('a cold call was answered from the cache');
      return data;
    };
    const timed = async (run: () => Promise<unknown>) => {
      const t1 = process.hrtime.bigint();
      await run();
      return Number(process.hrtime.bigint() - t1) / 1e6;
    };
    const stats = (samples: number[]) => {
      const sorted = [...samples].sort((x, y) => x - y);
      const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
      return { medianMs: round1(at(50)), p95Ms: round1(at(95)) };
    };

    // Writes before the pre-aggregation: 1,000 rows in one statement and single-row updates (its triggers' cost, below).
    const writeCost = async () => {
      const insert = await timed(() => sql`insert into ${table} ("ObjectId", "Name", "Status", "CreatedBy", "ModifiedBy", "OwnerId", "OwnerDeptId", "CreatedTime", "ModifiedTime", "Customer", "Region", "Kind", "Amount", "Qty", "OrderDate")
        select gen_random_uuid(), 'extra', 1, ${me}, ${me}, ${me}, ${depts[0]!}, now() - g * interval '7 minute', now(), '客户' || g, '华东', 'x', g, 1, now() - g * interval '7 minute' from generate_series(1, 1000) g`.execute(database.db));
      const updates: number[] = [];
      for (let i = 0; i < 21; i++) updates.push(await timed(bump));
      await sql`delete from ${table} where "Name" = 'extra'`.execute(database.db);
      return { insert1000Ms: round1(insert), updateOne: stats(updates.slice(1)) };
    };
    const writesBefore = await writeCost();

    // The pre-aggregation: queued by the first widget read (the form is past the threshold), built by the job runner.
    await sql`analyze ${table}`.execute(database.db);
    const queued = await post(app, '/v1/report/data', { widget: { id: 'w', title: '', layout, source, ...widgets['bar: count by Region'] } }, headers);
    if (queued.preAggregated) throw new Error('pre-aggregated before its build');
    const tb = Date.now();
    while (await app.extras.jobs.runOnce());
    const buildSeconds = round1((Date.now() - tb) / 1000);
    const agg = PRE_AGGREGATE ? (await sql<{ groups: number }>`select count(*)::int as groups from ${sql.id(schema, `${tableName}__agg`)}`.execute(database.db)).rows[0]!.groups : 0;
    const writesAfter = await writeCost();

    const figures: Record<string, { scan: { medianMs: number; p95Ms: number }; cold: { medianMs: number; p95Ms: number }; warm: { medianMs: number; p95Ms: number }; groups: number; preAggregated: boolean }> = {};
    for (const [name, widget] of Object.entries(widgets)) {
      const scan: number[] = [];
      const cold: number[] = [];
      const warm: number[] = [];
      let first: Awaited<ReturnType<ReturnType<typeof call>>> | undefined;
      for (let i = 0; i < WARMUP + ROUNDS; i++) {
        const s1 = await timed(call(widget, 'scan'));
        await bump();
        let data: typeof first;
        const c1 = await timed(async () => { data = await call(widget, 'cold')(); });
        first ??= data;
        const w1 = await timed(call(widget, 'warm'));
        if (i >= WARMUP) { scan.push(s1); cold.push(c1); warm.push(w1); }
      }
      figures[name] = { scan: stats(scan), cold: stats(cold), warm: stats(warm), groups: first!.rows.length, preAggregated: !!first!.preAggregated };
      console.log(name, JSON.stringify(figures[name]));
    }
    // The same widgets on one dashboard node, opened in the browser.
    let browser: Awaited<ReturnType<typeof browserTimes>> = null;
    if (webDist && process.env.BENCH_BROWSER === 'on') {
      const board = await post(app, '/v1/functionnode', { code: 'BoardNode', appCode: appNode.code, displayName: '百万看板', nodeType: 270 }, headers);
      const list = Object.values(widgets).map((w, i) => ({ id: `w${i + 1}`, title: `组件${i + 1}`, layout: { x: (i % 2) * 6, y: Math.floor(i / 2) * 7, w: 6, h: 7 }, source, ...w }));
      await post(app, '/v1/dashboard/save', { code: board.code, definition: { widgets: list } }, headers);
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      const charts = list.filter((w) => ['bar', 'line', 'pie'].includes((w as { type?: string }).type ?? '')).length;
      browser = await browserTimes(address, admin, `/workbench/app/${appNode.code}/${board.code}`, list.length, charts, bump);
    }
    const result = { database: `PostgreSQL ${version}`, records: RECORDS, seedSeconds, buildSeconds, groups: agg, writesBefore, writesAfter, figures, browser };
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
const result = saveResult(PRE_AGGREGATE ? (process.env.BENCH_SECTION === 'off' ? 'dashboard-browser' : 'dashboard') : 'dashboard-scan', { rounds: ROUNDS, run });
if (!PRE_AGGREGATE || process.env.BENCH_SECTION === 'off') {
  console.log(JSON.stringify(run.browser));
  process.exit(0);
}
const ms = (x: { medianMs: number; p95Ms: number }) => `${x.medianMs} / ${x.p95Ms}`;
writePerformanceSection('Session 14 — dashboards at 1,000,000 records', [
  '## Session 14 — dashboards at 1,000,000 records',
  '',
  `Measured by \`npm run bench:dashboard\` on ${result.date.slice(0, 10)}: Node ${process.version}, ${result.cpus} × ${result.cpu ?? 'CPU'}, ${run.database},`,
  `on a machine shared with other builds and test runs (load average ${LOAD} at the start, ${(await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(', ')} at the end).`,
  `The form of session 13's bench (6 controls, ${RECORDS.toLocaleString('en-US')} records written with one INSERT … SELECT, ${run.seedSeconds} s), then its pre-aggregation`,
  `(docs/decisions/0074) queued by the first widget read and built by the job runner: ${run.buildSeconds} s, ${run.groups.toLocaleString('en-US')} groups.`,
  'Each widget through POST /v1/report/data (`app.inject`, the administrator), three calls per round, interleaved:',
  '**scan** — session 13\'s cold call (an always-true condition on Amount, which the pre-aggregation does not keep: the table is',
  'scanned); **cold** — right after a one-row write to the table (new data versions, nothing cached; the pre-aggregation is',
  'read when it answers the widget); **warm** — the same call again, from the cache.',
  `${WARMUP} warm-up then ${ROUNDS} timed rounds, median / p95 in ms. Goal: ≤ 300 ms cold, ≤ 20 ms warm.`,
  '',
  '| widget | groups | read from | scan (before) | cold (after) | warm |',
  '|---|---|---|---|---|---|',
  ...Object.entries(run.figures).map(([name, f]) => `| ${name} | ${f.groups} | ${f.preAggregated ? 'pre-aggregation' : 'table scan'} | ${ms(f.scan)} | ${ms(f.cold)} | ${ms(f.warm)} |`),
  '',
  `Writes, before and after the pre-aggregation's triggers: 1,000 rows in one INSERT … SELECT ${run.writesBefore.insert1000Ms} → ${run.writesAfter.insert1000Ms} ms;`,
  `a one-row UPDATE ${ms(run.writesBefore.updateOne)} → ${ms(run.writesAfter.updateOne)} ms (median / p95 of 20).`,
  '',
  run.browser
    ? `The same 8 widgets on one dashboard opened in Chromium (1440 px), from navigation until every chart reports itself drawn and every card shows its numbers: ${run.browser.cold} ms cold (after a write to the table), ${run.browser.warm} ms opened again.`
    : 'The browser part (BENCH_BROWSER=on) did not run in this measurement.',
  '',
]);
