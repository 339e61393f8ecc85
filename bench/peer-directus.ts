/**
 * The peer workload of issue 26 on Directus, on this machine, beside bench/peer-workload.ts: issue 26's goals are
 * ratios to the best peer measured side by side, and a figure taken on another machine is no side. The same 10,000
 * records (bench/peer-workload-data.ts) in a collection of the same 8 fields on a throw-away PostgreSQL database;
 * bulk insert as 100 POSTs of 100 items; the list "title contains alpha (case-insensitive, as ours) AND 100 ≤ qty ≤
 * 899" sorted by due descending, page 50 of 20 with its filtered total; the count of that filter (an aggregate);
 * 200 single creates; the server's RSS after it all. Directus as it ships: its cache and rate limiter off (their
 * defaults), no index added.
 * Directus is not a dependency of this project: install it in a folder of its own
 *   mkdir -p /work/peers/directus && cd /work/peers/directus && npm init -y && npm install directus@11.2.2 pg
 * Run: BENCH_DIRECTUS_ROOT=/work/peers/directus node --import tsx bench/peer-directus.ts   (BENCH_PEER_ROUNDS, 3;
 *   BENCH_PEER_LABEL names the results file)
 * Prints the same table as bench/peer-workload.ts, and writes bench/results/peer-directus.json.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForHttp } from '../e2e/global-setup.ts';
import { PER_REQUEST, REQUESTS, SEED, SINGLES, TIMED, cpuPerCall, generator, record, roundFigures, runPeerRounds, timedCalls } from './peer-workload-data.ts';

const ROOT = process.env.BENCH_DIRECTUS_ROOT;
if (!ROOT) throw new Error('BENCH_DIRECTUS_ROOT: the folder Directus is installed in (see the comment at the top)');
const EMAIL = 'bench@example.com';
const PASSWORD = 'Bench-Passw0rd';
const COLLECTION = 'task';

const cli = path.join(ROOT, 'node_modules/directus', JSON.parse(readFileSync(path.join(ROOT, 'node_modules/directus/package.json'), 'utf8')).bin.directus);

/** The workload's fields as Directus fields: the types ours store (text, long text, integer, decimal, timestamp, a drop-down's text, boolean, text). */
const FIELDS = [
  { field: 'title', type: 'string', meta: { interface: 'input' } },
  { field: 'notes', type: 'text', meta: { interface: 'input-multiline' } },
  { field: 'qty', type: 'integer', meta: { interface: 'input' } },
  { field: 'price', type: 'decimal', schema: { numeric_precision: 18, numeric_scale: 2 }, meta: { interface: 'input' } },
  { field: 'due', type: 'timestamp', meta: { interface: 'datetime' } },
  { field: 'state', type: 'string', meta: { interface: 'select-dropdown', options: { choices: ['待办', '进行中', '已完成'].map((v) => ({ text: v, value: v })) } } },
  { field: 'done', type: 'boolean', meta: { interface: 'boolean' } },
  { field: 'owner_name', type: 'string', meta: { interface: 'input' } },
];

/** A record of the workload with Directus's field names. */
function item(next: () => number, n: number): Record<string, unknown> {
  const r = record(next, n);
  return { title: r.Title, notes: r.Notes, qty: r.Qty, price: r.Price, due: `${r.Due}T00:00:00`, state: r.State, done: r.Done, owner_name: r.OwnerName };
}

function environment(databaseUrl: string, port: number, folder: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    KEY: 'bench-key-0123456789',
    SECRET: 'bench-secret-0123456789abcdef',
    DB_CLIENT: 'pg',
    DB_CONNECTION_STRING: databaseUrl,
    ADMIN_EMAIL: EMAIL,
    ADMIN_PASSWORD: PASSWORD,
    ACCESS_TOKEN_TTL: '1d',
    LOG_LEVEL: 'warn',
    TELEMETRY: 'false',
    CACHE_ENABLED: 'false',
    RATE_LIMITER_ENABLED: 'false',
    EXTENSIONS_PATH: path.join(folder, 'extensions'),
    STORAGE_LOCATIONS: 'local',
    STORAGE_LOCAL_ROOT: path.join(folder, 'uploads'),
  };
}

async function request(base: string, method: string, url: string, token: string | undefined, body?: unknown): Promise<any> {
  const res = await fetch(base + url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 400)}`);
  return text ? JSON.parse(text) : null;
}

async function round(databaseUrl: string) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'peer-directus-'));
  const port = await freePort();
  const env = environment(databaseUrl, port, folder);
  const bootstrap = spawnSync(process.execPath, [cli, 'bootstrap'], { cwd: ROOT, env, encoding: 'utf8' });
  if (bootstrap.status !== 0) throw new Error(`directus bootstrap: ${bootstrap.stderr || bootstrap.stdout}`);
  const child: ChildProcess = spawn(process.execPath, [cli, 'start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${base}/server/ping`, child, 120_000);
    const token = (await request(base, 'POST', '/auth/login', undefined, { email: EMAIL, password: PASSWORD })).data.access_token as string;
    await request(base, 'POST', '/collections', token, {
      collection: COLLECTION,
      meta: { icon: 'task' },
      schema: {},
      fields: [{ field: 'id', type: 'integer', meta: { hidden: true }, schema: { is_primary_key: true, has_auto_increment: true } }, ...FIELDS],
    });

    const next = generator(SEED);
    const batches = Array.from({ length: REQUESTS }, (_, r) => Array.from({ length: PER_REQUEST }, (_, i) => item(next, r * PER_REQUEST + i)));
    const bulkStarted = performance.now();
    const bulkCpu = await cpuPerCall(child.pid!, databaseUrl, REQUESTS, async () => {
      for (const batch of batches) {
        const res = await request(base, 'POST', `/items/${COLLECTION}`, token, batch);
        if (res.data.length !== PER_REQUEST) throw new Error(`bulk: ${JSON.stringify(res).slice(0, 300)}`);
      }
    });
    const bulkSeconds = (performance.now() - bulkStarted) / 1000;

    const filter = encodeURIComponent(JSON.stringify({ _and: [{ title: { _icontains: 'alpha' } }, { qty: { _between: [100, 899] } }] }));
    const list = () => request(base, 'GET', `/items/${COLLECTION}?filter=${filter}&sort=-due&limit=20&page=50&meta=filter_count`, token);
    const count = () => request(base, 'GET', `/items/${COLLECTION}?filter=${filter}&aggregate[count]=*`, token);
    const page = await list();
    if (page.data.length !== 20) throw new Error(`page 50 holds ${page.data.length} items`);
    const total = Number(page.meta.filter_count);
    for (let i = 0; i < 3; i++) await list();
    let listMs: number[] = [];
    const listCpu = await cpuPerCall(child.pid!, databaseUrl, TIMED, async () => (listMs = await timedCalls(TIMED, list)));
    for (let i = 0; i < 3; i++) await count();
    let countMs: number[] = [];
    const countCpu = await cpuPerCall(child.pid!, databaseUrl, TIMED, async () => (countMs = await timedCalls(TIMED, async () => {
      const answer = await count();
      if (Number(answer.data[0].count) !== total) throw new Error(`count ${JSON.stringify(answer)} ≠ ${total}`);
    })));
    const singles = await timedCalls(SINGLES, (i) => request(base, 'POST', `/items/${COLLECTION}`, token, { ...item(next, 20_000 + i), due: '2026-06-01T00:00:00' }));
    return roundFigures(child.pid!, { bulkSeconds, list: listMs, count: countMs, singles, listTotal: total, bulkCpu, listCpu, countCpu });
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
    rmSync(folder, { recursive: true, force: true });
  }
}

const version = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/directus/package.json'), 'utf8')).version as string;
await runPeerRounds(`Directus ${version}`, 'peer-directus', round);
