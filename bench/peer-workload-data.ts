/**
 * The peer workload of issue 26, its parts any product's runner uses (bench/peer-workload.ts runs it on this
 * platform, bench/peer-directus.ts on Directus, side by side on one machine): the same 10,000 records, the request
 * counts, the timed loops and the readings of a server's CPU and memory from /proc.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { onThrowawayPostgres, saveResult } from './lib.ts';
import { percentile, round1 } from './setup.ts';

export const REQUESTS = 100;
export const PER_REQUEST = 100;
export const SINGLES = 200;
export const TIMED = Number(process.env.BENCH_PEER_TIMED ?? 30);
/** The seed of the bulk insert's records (the single creates continue the same sequence). */
export const SEED = 26;

/** The same records every run: a small linear congruential generator, seeded. */
export function generator(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}
const WORDS = ['beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa'];
const PEOPLE = ['张伟', '王芳', '李娜', '刘洋', '陈静', '杨磊', '赵敏', '黄强'];

/** One record in the open API's formats (about 35 % of titles hold "alpha"; qty uniform in 0–999). */
export function record(next: () => number, n: number): Record<string, unknown> {
  const word = next() < 0.35 ? 'alpha' : WORDS[Math.floor(next() * WORDS.length)];
  const day = new Date(Date.UTC(2026, 0, 1) + Math.floor(next() * 365) * 86_400_000).toISOString().slice(0, 10);
  return {
    Title: `任务 ${word} ${n}`,
    Notes: `第 ${n} 条记录的备注：${'说明文字'.repeat(10 + Math.floor(next() * 20))}`,
    Qty: Math.floor(next() * 1000),
    Price: Math.round(next() * 100_000) / 100,
    Due: day,
    State: ['待办', '进行中', '已完成'][Math.floor(next() * 3)],
    Done: next() < 0.5,
    OwnerName: PEOPLE[Math.floor(next() * PEOPLE.length)],
  };
}

export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/** CPU time (user + system) a process has used, in ms, from /proc (clock ticks of 10 ms); undefined once it ended. */
export function cpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** The database's backends serving `databaseUrl`'s database (PostgreSQL on this machine), by pid. */
export async function backendsOf(databaseUrl: string): Promise<number[]> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    return (await admin.query('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')).rows.map((r) => r.pid);
  } finally {
    await admin.end();
  }
}

/**
 * The CPU the server and its database spend on a loop of calls, in ms per call — what the load of the machine
 * changes far less than wall time. PostgreSQL's share is its backends serving the measured database (read through
 * /proc: the bench and PostgreSQL share the machine); PGlite runs inside the server process.
 */
export async function cpuPerCall(serverPid: number, databaseUrl: string | undefined, calls: number, run: () => Promise<unknown>) {
  const before = new Map<number, number>();
  for (const pid of databaseUrl ? await backendsOf(databaseUrl) : []) before.set(pid, cpuMs(pid) ?? 0);
  const server0 = cpuMs(serverPid)!;
  await run();
  const server = cpuMs(serverPid)! - server0;
  let database = 0;
  // A backend that started during the loop counts whole; one that ended is not read (the pool keeps its connections).
  for (const pid of databaseUrl ? await backendsOf(databaseUrl) : []) database += (cpuMs(pid) ?? 0) - (before.get(pid) ?? 0);
  return { serverCpuMs: round1(server / calls), databaseCpuMs: round1(database / calls) };
}

export function rssMiB(pid: number): number {
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024);
}

/** The resident memory's parts: anonymous (heaps: V8's, malloc's, PGlite's wasm memory) and file-backed (code, mapped files). */
export function rssParts(pid: number): { anonymousMiB: number; fileMiB: number; peakRssMiB: number } {
  const peak = Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024);
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0);
  return { anonymousMiB: Math.round(kb('Anonymous') / 1024), fileMiB: Math.round((kb('Rss') - kb('Anonymous')) / 1024), peakRssMiB: peak };
}

export async function timedCalls(count: number, run: (i: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await run(i);
    samples.push(performance.now() - t0);
  }
  return samples.sort((a, b) => a - b);
}


type CpuPerCall = Awaited<ReturnType<typeof cpuPerCall>>;

/** A round's figures, the same for every product: rates and medians from the timed loops, the server's memory and CPU. */
export function roundFigures(serverPid: number, measured: { bulkSeconds: number; list: number[]; count: number[]; singles: number[]; listTotal: number; bulkCpu: CpuPerCall; listCpu: CpuPerCall; countCpu: CpuPerCall }) {
  return {
    bulkRecordsPerSecond: Math.round((REQUESTS * PER_REQUEST) / measured.bulkSeconds),
    listP50Ms: round1(percentile(measured.list, 50)),
    countP50Ms: round1(percentile(measured.count, 50)),
    singleCreateP50Ms: round1(percentile(measured.singles, 50)),
    rssAfterLoadMiB: rssMiB(serverPid),
    ...rssParts(serverPid),
    listTotal: measured.listTotal,
    listServerCpuMs: measured.listCpu.serverCpuMs,
    listDatabaseCpuMs: measured.listCpu.databaseCpuMs,
    countServerCpuMs: measured.countCpu.serverCpuMs,
    countDatabaseCpuMs: measured.countCpu.databaseCpuMs,
    bulkServerCpuMs: measured.bulkCpu.serverCpuMs,
    bulkDatabaseCpuMs: measured.bulkCpu.databaseCpuMs,
  };
}

type PeerFigures = ReturnType<typeof roundFigures>;

/**
 * A peer's rounds, each on a throw-away PostgreSQL database, then its medians printed as the peer benches' table and
 * saved as bench/results/<result>[-<label>].json (BENCH_PEER_ROUNDS, BENCH_PEER_LABEL).
 */
export async function runPeerRounds(product: string, result: string, round: (databaseUrl: string) => Promise<PeerFigures>): Promise<void> {
  const rounds: PeerFigures[] = [];
  const label = process.env.BENCH_PEER_LABEL ?? '';
  let postgresVersion = '';
  for (let r = 0; r < Number(process.env.BENCH_PEER_ROUNDS ?? 3); r++) {
    const figures = await onThrowawayPostgres(`peer_${result.replace(/\W/g, '_')}`, (url, v) => {
      postgresVersion = v;
      return round(url);
    });
    if (!figures) break;
    console.log(JSON.stringify({ round: r + 1, product, ...figures }));
    rounds.push(figures);
  }
  const m = (key: keyof PeerFigures) => [...rounds.map((f) => f[key])].sort((a, b) => a - b)[Math.floor((rounds.length - 1) / 2)]!;
  saveResult(label ? `${result}-${label}` : result, { version: product.split(' ').pop(), postgresVersion, rounds });
  console.log(`\n| ${rounds.length} rounds, medians | bulk insert rec/s | list p50 ms | count p50 ms | single create p50 ms | server RSS after load |`);
  console.log('|---|---|---|---|---|---|');
  console.log(`| ${product}, PostgreSQL ${postgresVersion} | ${m('bulkRecordsPerSecond').toLocaleString('en')} | ${m('listP50Ms')} | ${m('countP50Ms')} | ${m('singleCreateP50Ms')} | ${m('rssAfterLoadMiB')} MiB |`);
  console.log(`| CPU ms per call, medians: list server ${m('listServerCpuMs')}, PostgreSQL ${m('listDatabaseCpuMs')}; count server ${m('countServerCpuMs')}, PostgreSQL ${m('countDatabaseCpuMs')} |`);
  console.log(`(the list's filter matches ${m('listTotal')} records)`);
}
