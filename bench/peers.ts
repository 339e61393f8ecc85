/**
 * The peer workload on every product in one run, rounds interleaved (issue 50): each round runs this platform on
 * PostgreSQL and on PGlite (bench/peer-workload.ts), then Directus (bench/peer-directus.ts) and NocoDB
 * (bench/peer-nocodb.ts) where their folders are given, one round of each at a time, so that a change in the machine's
 * load reaches every product alike. Then the medians per product and the ratios of issue 50's goals to the best peer.
 * Run: BENCH_DIRECTUS_ROOT=/work/peers/directus BENCH_NOCODB_ROOT=/work/peers/nocodb node --import tsx bench/peers.ts
 *   (BENCH_PEER_ROUNDS, 3). Writes bench/results/peers.json and prints the table for docs/performance.md.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../e2e/global-setup.ts';
import { saveResult } from './lib.ts';

const ROUNDS = Number(process.env.BENCH_PEER_ROUNDS ?? 3);
type Figures = { bulkRecordsPerSecond: number; listP50Ms: number; countP50Ms: number; singleCreateP50Ms: number; rssAfterLoadMiB: number; listTotal: number };

const products = [
  { name: 'Tritium', script: 'peer-workload.ts', result: 'peer-workload', needs: undefined },
  { name: 'Directus', script: 'peer-directus.ts', result: 'peer-directus', needs: 'BENCH_DIRECTUS_ROOT' },
  { name: 'NocoDB', script: 'peer-nocodb.ts', result: 'peer-nocodb', needs: 'BENCH_NOCODB_ROOT' },
].filter((p) => !p.needs || process.env[p.needs]);

const readResult = (name: string) => JSON.parse(readFileSync(path.join(ROOT, 'bench/results', `${name}.json`), 'utf8'));
/** Figures per row of the table: "Tritium, PostgreSQL 15.x", "NocoDB 0.301.3, PostgreSQL 15.x", … */
const rows = new Map<string, Figures[]>();
const load: number[] = [];
for (let r = 1; r <= ROUNDS; r++) {
  for (const product of products) {
    const label = `round${r}`;
    load.push(os.loadavg()[0]);
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', product.script)], {
      cwd: ROOT,
      env: { ...process.env, BENCH_PEER_ROUNDS: '1', BENCH_PEER_LABEL: label },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (run.status !== 0) throw new Error(`${product.script} failed in round ${r}`);
    const result = readResult(`${product.result}-${label}`);
    if (product.name === 'Tritium') {
      for (const [db, runs] of Object.entries(result.runs as Record<string, Figures[]>)) {
        const name = db === 'pglite' ? 'Tritium, embedded PGlite' : `Tritium, PostgreSQL ${result.table.find((t: { database: string }) => t.database.startsWith('PostgreSQL'))?.database.split(' ')[1] ?? ''}`;
        (rows.get(name) ?? rows.set(name, []).get(name)!).push(...runs);
      }
    } else {
      const name = `${product.name} ${result.version}, PostgreSQL ${result.postgresVersion ?? ''}`.trim();
      (rows.get(name) ?? rows.set(name, []).get(name)!).push(...(result.rounds as Figures[]));
    }
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const table = [...rows].map(([name, figures]) => {
  const m = (key: keyof Figures) => median(figures.map((f) => f[key]));
  return { name, rounds: figures.length, bulk: m('bulkRecordsPerSecond'), list: m('listP50Ms'), count: m('countP50Ms'), create: m('singleCreateP50Ms'), rss: m('rssAfterLoadMiB'), total: m('listTotal') };
});
const peers = table.filter((row) => !row.name.startsWith('Tritium'));
const ours = table.find((row) => row.name.startsWith('Tritium, PostgreSQL'));
const lines = [
  `| ${ROUNDS} interleaved rounds, medians | bulk insert rec/s | list p50 ms | count p50 ms | single create p50 ms | RSS after load MiB |`,
  '|---|---|---|---|---|---|',
  ...table.map((r) => `| ${r.name} | ${r.bulk.toLocaleString('en')} | ${r.list} | ${r.count} | ${r.create} | ${r.rss} |`),
];
if (ours && peers.length) {
  const best = (key: 'list' | 'count' | 'create' | 'rss') => Math.min(...peers.map((p) => p[key]));
  const fmt = (v: number) => v.toFixed(2);
  lines.push(`| ours ÷ best peer (goal) | ${fmt(ours.bulk / Math.max(...peers.map((p) => p.bulk)))}× (≥ 10×) | ${fmt(ours.list / best('list'))} (≤ 0.25) | ${fmt(ours.count / best('count'))} (≤ 0.33) | ${fmt(ours.create / best('create'))} (≤ 0.33) | ${fmt(ours.rss / best('rss'))} (≤ 0.5) |`);
  const lite = table.find((row) => row.name === 'Tritium, embedded PGlite');
  if (lite) lines.push(`(PGlite ÷ PostgreSQL, ours: list ${fmt(lite.list / ours.list)}, count ${fmt(lite.count / ours.count)}, create ${fmt(lite.create / ours.create)}; goal ≤ 1.5)`);
}
lines.push(`(the list's filter matches ${[...new Set(table.map((r) => r.total))].join(' / ')} records; load average at the rounds' starts ${load.map((l) => l.toFixed(1)).join(', ')})`);
saveResult('peers', { rounds: ROUNDS, table, load });
console.log(`\n${lines.join('\n')}`);
