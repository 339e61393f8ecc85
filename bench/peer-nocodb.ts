/**
 * The peer workload of issue 26 on NocoDB, on this machine, beside bench/peer-workload.ts and bench/peer-directus.ts
 * (issue 50: both peers measured in the same run). The same 10,000 records (bench/peer-workload-data.ts) in a table of
 * the same 8 fields, NocoDB's metadata and data on a throw-away PostgreSQL database; bulk insert as 100 POSTs of 100
 * records; the list "title contains alpha AND 100 ≤ qty ≤ 899" sorted by due descending, page 50 of 20 with its
 * total (NocoDB's list answers pageInfo.totalRows); the count of that filter (its records/count call); 200 single
 * creates; the server's RSS after it all. NocoDB as it ships, no index added.
 * NocoDB is not a dependency of this project: install 0.301.3 (the last release that runs on Node 20) in a folder of
 * its own as ../shared/peers/nocodb/README.md says (package.json and server.js from there, `npm install
 * --ignore-scripts`, `npm rebuild sqlite3`).
 * Run: BENCH_NOCODB_ROOT=/work/peers/nocodb node --import tsx bench/peer-nocodb.ts   (BENCH_PEER_ROUNDS, 3;
 *   BENCH_PEER_LABEL names the results file)
 * Prints the same table as the other peer benches and writes bench/results/peer-nocodb[-label].json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForHttp } from '../e2e/global-setup.ts';
import { PER_REQUEST, REQUESTS, SEED, SINGLES, TIMED, cpuPerCall, generator, record, roundFigures, runPeerRounds, timedCalls } from './peer-workload-data.ts';

const ROOT = process.env.BENCH_NOCODB_ROOT;
if (!ROOT || !existsSync(path.join(ROOT, 'server.js'))) throw new Error('BENCH_NOCODB_ROOT: the folder NocoDB and its server.js are installed in (see the comment at the top)');
const EMAIL = 'bench@example.com';
const PASSWORD = 'Bench#Passw0rd!';

/** The workload's fields as NocoDB columns: the types ours store (text, long text, integer, decimal, date, a single select, a checkbox, text). */
const COLUMNS = [
  { column_name: 'title', title: 'Title', uidt: 'SingleLineText' },
  { column_name: 'notes', title: 'Notes', uidt: 'LongText' },
  { column_name: 'qty', title: 'Qty', uidt: 'Number' },
  { column_name: 'price', title: 'Price', uidt: 'Decimal', meta: { precision: 2 } },
  { column_name: 'due', title: 'Due', uidt: 'Date', meta: { date_format: 'YYYY-MM-DD' } },
  { column_name: 'state', title: 'State', uidt: 'SingleSelect', colOptions: { options: ['待办', '进行中', '已完成'].map((title) => ({ title })) } },
  { column_name: 'done', title: 'Done', uidt: 'Checkbox' },
  { column_name: 'owner_name', title: 'OwnerName', uidt: 'SingleLineText' },
];

/** NocoDB's metadata database setting: its own URL form, `pg://host:port?u=user&p=password&d=database`. */
function ncDatabase(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `pg://${url.hostname}:${url.port || 5432}?u=${decodeURIComponent(url.username || 'postgres')}&p=${decodeURIComponent(url.password)}&d=${url.pathname.slice(1)}`;
}

async function request(base: string, method: string, url: string, token: string | undefined, body?: unknown): Promise<any> {
  const res = await fetch(base + url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { 'xc-auth': token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 400)}`);
  return text ? JSON.parse(text) : null;
}

async function round(databaseUrl: string) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'peer-nocodb-'));
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), NC_DISABLE_TELE: 'true', NC_AUTH_JWT_SECRET: 'bench-secret', NC_DB: ncDatabase(databaseUrl) };
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT!, 'server.js')], { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${base}/api/v1/health`, child, 180_000);
    const token = (await request(base, 'POST', '/api/v1/auth/user/signup', undefined, { email: EMAIL, password: PASSWORD })).token as string;
    const project = await request(base, 'POST', '/api/v2/meta/bases', token, { title: 'peer_workload' });
    const table = await request(base, 'POST', `/api/v2/meta/bases/${project.id}/tables`, token, { table_name: 'task', title: 'task', columns: COLUMNS });
    const records = `/api/v2/tables/${table.id}/records`;

    const next = generator(SEED);
    const batches = Array.from({ length: REQUESTS }, (_, r) => Array.from({ length: PER_REQUEST }, (_, i) => record(next, r * PER_REQUEST + i)));
    const bulkStarted = performance.now();
    const bulkCpu = await cpuPerCall(child.pid!, databaseUrl, REQUESTS, async () => {
      for (const batch of batches) {
        const answer = await request(base, 'POST', records, token, batch);
        if (!Array.isArray(answer) || answer.length !== PER_REQUEST) throw new Error(`bulk: ${JSON.stringify(answer).slice(0, 300)}`);
      }
    });
    const bulkSeconds = (performance.now() - bulkStarted) / 1000;

    const where = encodeURIComponent('(Title,like,%alpha%)~and(Qty,gte,100)~and(Qty,lte,899)');
    const list = () => request(base, 'GET', `${records}?where=${where}&sort=-Due&limit=20&offset=980`, token);
    const count = () => request(base, 'GET', `${records}/count?where=${where}`, token);
    const page = await list();
    if (page.list.length !== 20) throw new Error(`page 50 holds ${page.list.length} records`);
    const total = Number(page.pageInfo.totalRows);
    for (let i = 0; i < 3; i++) await list();
    let listMs: number[] = [];
    const listCpu = await cpuPerCall(child.pid!, databaseUrl, TIMED, async () => (listMs = await timedCalls(TIMED, list)));
    for (let i = 0; i < 3; i++) await count();
    let countMs: number[] = [];
    const countCpu = await cpuPerCall(child.pid!, databaseUrl, TIMED, async () => (countMs = await timedCalls(TIMED, async () => {
      const answer = await count();
      if (Number(answer.count) !== total) throw new Error(`count ${JSON.stringify(answer)} ≠ ${total}`);
    })));
    const singles = await timedCalls(SINGLES, (i) => request(base, 'POST', records, token, { ...record(next, 20_000 + i), Due: '2026-06-01' }));
    return roundFigures(child.pid!, { bulkSeconds, list: listMs, count: countMs, singles, listTotal: total, bulkCpu, listCpu, countCpu });
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
    rmSync(folder, { recursive: true, force: true });
  }
}

const version = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/nocodb/package.json'), 'utf8')).version as string;
await runPeerRounds(`NocoDB ${version}`, 'peer-nocodb', round);
