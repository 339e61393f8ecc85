/**
 * The peer workload of issue 26, over HTTP against a running server process (as `npm start` runs it), on PGlite and on PostgreSQL: a form of 8
 * fields (title text, notes long text, qty integer, price decimal, due date, status drop-down, done yes/no, owner
 * text); 10,000 records bulk-inserted as 100 requests of 100 through the open API's CreateBizObjects; a list filtered
 * "title contains alpha AND 100 ≤ qty ≤ 899" sorted by due descending, page 50 of 20 with its total
 * (/v1/bizdata/query); the count of that filter (/v1/bizdata/count; on a tree without it the same query, a page of 1
 * with its total); 200 single creates one
 * after another (Submit, /v1/form/action/execute); the server's RSS after it all.
 * Each round starts a fresh server on a fresh database; rounds alternate PGlite and PostgreSQL and the table shows
 * the medians of the rounds.
 * Run: node --import tsx bench/peer-workload.ts
 *   BENCH_PEER_ROUNDS (3), BENCH_PEER_DATABASES (pglite,postgres), BENCH_PEER_TIMED (30 list and count calls),
 *   BENCH_SERVER_NODE_ARGS: flags for the server's node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it),
 *   BENCH_SERVER_ROOT: the tree whose packages/server/src/main.ts runs (default: this one; a checkout of an older
 *   commit measures the code before a change, interleaved with this one), BENCH_PEER_LABEL: names the results file.
 * Writes bench/results/peer-workload[-label].json and prints the table (docs/performance.md "Peer workload").
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForHttp, ROOT } from '../e2e/global-setup.ts';
import pg from 'pg';
import { onThrowawayPostgres, saveResult } from './lib.ts';
import { round1 } from './setup.ts';
import { PER_REQUEST, REQUESTS, SEED, SINGLES, TIMED, cpuPerCall, generator, monotonicMicros, record, roundFigures, timedCalls } from './peer-workload-data.ts';

const ROUNDS = Number(process.env.BENCH_PEER_ROUNDS ?? 3);
const DATABASES = (process.env.BENCH_PEER_DATABASES ?? 'pglite,postgres').split(',');
const SERVER_ROOT = path.resolve(process.env.BENCH_SERVER_ROOT ?? ROOT);
const LABEL = process.env.BENCH_PEER_LABEL ?? '';
const NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const CODE = '246810';
const SCHEMA = 'D026peer';

const FORM = {
  attributes: { displayName: '同行负载' },
  controls: [
    { type: 'textBox', code: 'Title', options: { displayName: '标题' } },
    { type: 'textArea', code: 'Notes', options: { displayName: '备注' } },
    { type: 'number', code: 'Qty', options: { displayName: '数量', decimalPlaces: 0 } },
    { type: 'number', code: 'Price', options: { displayName: '单价', decimalPlaces: 2 } },
    { type: 'dateTime', code: 'Due', options: { displayName: '到期' } },
    { type: 'dropDown', code: 'State', options: { displayName: '状态', defaultItems: ['待办', '进行中', '已完成'] } },
    { type: 'checkbox', code: 'Done', options: { displayName: '完成' } },
    { type: 'textBox', code: 'OwnerName', options: { displayName: '负责人' } },
  ],
};

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return res.json();
}

/** A /v1 call that must succeed: answers its data. */
async function call(base: string, url: string, body: unknown, headers: Record<string, string>): Promise<any> {
  const json = await postJson(base + url, body, headers);
  if (!json.successful) throw new Error(`${url}: ${JSON.stringify(json).slice(0, 400)}`);
  return json.data;
}

/**
 * The server as `npm start` runs it in SERVER_ROOT: the built module (docs/decisions/0093) where the tree builds one,
 * else its sources through tsx (trees before that decision).
 */
function serverCommand(): string[] {
  const builder = path.join(SERVER_ROOT, 'scripts/build-server.mjs');
  if (!existsSync(builder)) return ['--import', 'tsx', path.join(SERVER_ROOT, 'packages/server/src/main.ts')];
  const built = spawnSync(process.execPath, [builder], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the server did not build');
  return [path.join(SERVER_ROOT, 'packages/server/dist/main.mjs')];
}

function startServer(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [...NODE_ARGS, ...serverCommand()], {
    cwd: SERVER_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', TRITIUM_FIXED_VERIFY_CODE: CODE, TRITIUM_RATE_LIMIT: 'off', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

interface RoundFigures {
  bulkRecordsPerSecond: number;
  listP50Ms: number;
  countP50Ms: number;
  singleCreateP50Ms: number;
  rssAfterLoadMiB: number;
  listTotal: number;
  anonymousMiB: number;
  fileMiB: number;
  /** the most the server held at any time (VmHWM): RSS after load moves with when the collector last ran */
  peakRssMiB: number;
  /** CPU ms per call of the server process and of the database's backends (PostgreSQL only) */
  listServerCpuMs: number;
  listDatabaseCpuMs: number;
  countServerCpuMs: number;
  countDatabaseCpuMs: number;
  /** the same per CreateBizObjects request of 100 records */
  bulkServerCpuMs: number;
  bulkDatabaseCpuMs: number;
  /** the bench's own process (it sends the requests on the same machine) */
  bulkBenchCpuMs: number;
  /** PostgreSQL rounds: the main table's average row, heap and indexes after the round, and OwnerId's type */
  rowBytes?: number;
  heapBytes?: number;
  indexBytes?: number;
  ownerIdType?: string;
}
type MedianKey = Exclude<keyof RoundFigures, 'rowBytes' | 'heapBytes' | 'indexBytes' | 'ownerIdType'>;

/** The form's main table on PostgreSQL after the round: its average row and its heap and index sizes (decision 0128). */
async function tableWidth(databaseUrl: string, schema: string, table: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const t = `"${schema}"."${table}"`;
    const { rows } = await client.query(`select round(avg(pg_column_size(m.*)))::int as "rowBytes", pg_relation_size('${t}')::int as "heapBytes",
      pg_indexes_size('${t}')::int as "indexBytes", (select data_type from information_schema.columns where table_schema = $1 and table_name = $2 and column_name = 'OwnerId')::text as "ownerIdType" from ${t} m`, [schema, table]);
    return rows[0] as { rowBytes: number; heapBytes: number; indexBytes: number; ownerIdType: string };
  } finally {
    await client.end();
  }
}

async function round(env: Record<string, string>): Promise<RoundFigures> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-peer-'));
  const port = await freePort();
  const child = startServer({ PORT: String(port), TRITIUM_DATA_DIR: dataDir, ...env });
  // BENCH_SERVER_OUTPUT: the server's output goes to that file too (with `--trace-gc` in BENCH_SERVER_NODE_ARGS, its heap by collection).
  if (process.env.BENCH_SERVER_OUTPUT) child.stdout!.pipe(createWriteStream(process.env.BENCH_SERVER_OUTPUT));
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${base}/v1/register/getscalelist`, child, 240_000);
    const mobile = `136${String(Date.now()).slice(-8)}`;
    await postJson(`${base}/v1/captcha/verifycode/send`, { mobile, scene: 'register' });
    const reg = await call(base, '/v1/register/engine', { mobile, code: CODE, password: 'Passw0rd1', userName: '压测管理员', engineName: '压测集团' }, {});
    const headers = { authorization: `Bearer ${reg.accessToken}`, enginecode: reg.engineCode };
    const appNode = await call(base, '/v1/functionnode', { code: 'PeerApp', displayName: '同行负载', nodeType: 190 }, headers);
    await call(base, '/v1/functionnode', { code: SCHEMA, appCode: appNode.code, displayName: '任务', nodeType: 200 }, headers);
    const loaded = await call(base, '/v1/formdesign/load', { schemaCode: SCHEMA }, headers);
    const saved = await call(base, '/v1/formdesign/save', { schemaCode: SCHEMA, baseVersion: loaded.draft.version, definition: FORM }, headers);
    await call(base, '/v1/formdesign/publish', { schemaCode: SCHEMA, version: saved.version, confirm: [] }, headers);
    const secret = (await call(base, '/v1/engine/secret/create', { name: '压测' }, headers)).value as string;

    // Bulk insert: 100 requests of 100 records, one after another.
    const next = generator(SEED);
    const batches = Array.from({ length: REQUESTS }, (_, r) => Array.from({ length: PER_REQUEST }, (_, i) => JSON.stringify(record(next, r * PER_REQUEST + i))));
    const invokeHeaders = { EngineCode: reg.engineCode, EngineSecret: secret };
    const bulkStarted = performance.now();
    const bulkStartedMicros = monotonicMicros();
    const benchCpu0 = process.cpuUsage();
    const bulkCpu = await cpuPerCall(child.pid!, env.DATABASE_URL, REQUESTS, async () => {
      for (const batch of batches) {
        const res = await postJson(`${base}/OpenApi/Invoke`, { ActionName: 'CreateBizObjects', SchemaCode: SCHEMA, BizObjectArray: batch, IsSubmit: 'true' }, invokeHeaders);
        if (!res.Successful || res.ReturnData.BizObjectIdArray.length !== PER_REQUEST) throw new Error(`CreateBizObjects: ${JSON.stringify(res).slice(0, 400)}`);
      }
    });
    const bulkSeconds = (performance.now() - bulkStarted) / 1000;
    const bulkEndedMicros = monotonicMicros();
    const benchCpu = process.cpuUsage(benchCpu0);

    const filter = { type: 'And', children: [{ field: 'Title', operator: 'Contains', value: 'alpha' }, { field: 'Qty', operator: 'Between', value: [100, 899] }] };
    const query = (pageIndex: number, pageSize: number) => call(base, '/v1/bizdata/query', { schemaCode: SCHEMA, filter, sort: [{ field: 'Due', direction: 'desc' }], pageIndex, pageSize }, headers);
    const page = await query(49, 20);
    if (page.list.length !== 20) throw new Error(`page 50 holds ${page.list.length} records`);
    for (let i = 0; i < 3; i++) await query(49, 20);
    const listStarted = monotonicMicros();
    let list: number[] = [];
    const listCpu = await cpuPerCall(child.pid!, env.DATABASE_URL, TIMED, async () => (list = await timedCalls(TIMED, () => query(49, 20))));
    const listEnded = monotonicMicros();
    // The count: /v1/bizdata/count, a count statement alone (docs/decisions/0119); a tree without it (BENCH_SERVER_ROOT
    // of an older commit) counts as it could then: the same query, a page of 1 with its total.
    const counted = (await postJson(`${base}/v1/bizdata/count`, { schemaCode: SCHEMA, filter }, headers)).successful === true;
    const countOnce = async () => (counted ? call(base, '/v1/bizdata/count', { schemaCode: SCHEMA, filter }, headers) : query(0, 1));
    for (let i = 0; i < 3; i++) await countOnce();
    const countStarted = monotonicMicros();
    let count: number[] = [];
    const countCpu = await cpuPerCall(child.pid!, env.DATABASE_URL, TIMED, async () => (count = await timedCalls(TIMED, async () => {
      const answer = await countOnce();
      if (answer.total !== page.total) throw new Error(`count ${answer.total} ≠ ${page.total}`);
    })));
    const countEnded = monotonicMicros();
    const singles = await timedCalls(SINGLES, (i) => call(base, '/v1/form/action/execute', { schemaCode: SCHEMA, actionCode: 'Submit', values: { ...record(next, 20_000 + i), Due: '2026-06-01T00:00:00+08:00' } }, headers));
    // On the clock of the server's CPU profile (both are CLOCK_MONOTONIC): a profile's samples of each loop
    // (bench/profile-phases.mjs reads them).
    if (NODE_ARGS.includes('--cpu-prof')) console.warn(JSON.stringify({ phases: { bulk: [bulkStartedMicros, bulkEndedMicros], list: [listStarted, listEnded], count: [countStarted, countEnded], create: [countEnded, monotonicMicros()] } }));
    return {
      ...roundFigures(child.pid!, { bulkSeconds, list, count, singles, listTotal: page.total, bulkCpu, listCpu, countCpu }),
      bulkBenchCpuMs: round1((benchCpu.user + benchCpu.system) / 1000 / REQUESTS),
      ...(env.DATABASE_URL ? await tableWidth(env.DATABASE_URL, `e_${reg.engineCode}`, `i_${SCHEMA.toLowerCase()}`) : {}),
    };
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const runs: Record<string, RoundFigures[]> = {};
let postgresVersion = '';
for (let r = 0; r < ROUNDS; r++) {
  for (const db of DATABASES) {
    let figures: RoundFigures | undefined;
    if (db === 'pglite') figures = await round({});
    else {
      figures = await onThrowawayPostgres('tritium_peer', (url, version) => {
        postgresVersion = version;
        return round({ DATABASE_URL: url });
      });
    }
    if (!figures) continue;
    console.log(JSON.stringify({ round: r + 1, database: db, ...figures }));
    (runs[db] ??= []).push(figures);
  }
}

const names: Record<string, string> = { pglite: 'embedded PGlite', postgres: `PostgreSQL ${postgresVersion}` };
const table = Object.entries(runs).map(([db, rounds]) => {
  const m = (key: MedianKey) => median(rounds.map((f) => f[key]));
  return { database: names[db] ?? db, rounds: rounds.length, bulkRecordsPerSecond: m('bulkRecordsPerSecond'), listP50Ms: m('listP50Ms'), countP50Ms: m('countP50Ms'), singleCreateP50Ms: m('singleCreateP50Ms'), rssAfterLoadMiB: m('rssAfterLoadMiB'), listTotal: m('listTotal') };
});
saveResult(LABEL ? `peer-workload-${LABEL}` : 'peer-workload', { serverRoot: SERVER_ROOT, rounds: ROUNDS, timedCalls: TIMED, runs, table });
console.log(`\n| ${ROUNDS} interleaved rounds, medians${LABEL ? ` (${LABEL})` : ''} | bulk insert rec/s | list p50 ms | count p50 ms | single create p50 ms | server RSS after load |`);
console.log('|---|---|---|---|---|---|');
for (const row of table) console.log(`| Tritium, ${row.database} | ${row.bulkRecordsPerSecond.toLocaleString('en')} | ${row.listP50Ms} | ${row.countP50Ms} | ${row.singleCreateP50Ms} | ${row.rssAfterLoadMiB} MiB |`);
console.log('\n| CPU ms per call, medians | list: server | list: PostgreSQL | count: server | count: PostgreSQL |\n|---|---|---|---|---|');
for (const [db, rounds] of Object.entries(runs)) {
  const m = (key: MedianKey) => median(rounds.map((f) => f[key]));
  console.log(`| ${names[db] ?? db} | ${m('listServerCpuMs')} | ${db === 'postgres' ? m('listDatabaseCpuMs') : '—'} | ${m('countServerCpuMs')} | ${db === 'postgres' ? m('countDatabaseCpuMs') : '—'} |`);
}
console.log(`(the list's filter matches ${table.map((r) => r.listTotal).join(' / ')} records)`);
