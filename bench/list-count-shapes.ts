/**
 * The shapes a list's page and its total can take, timed as statements on a table shaped like the peer workload's
 * main table (the system columns of ddl-executor.ts, the 8 fields, lowered twins and trigram indexes as a publish
 * lays them, the same 10,000 records from peer-workload-data.ts), on PostgreSQL and on PGlite (docs/decisions/0119).
 * Each shape answers "title contains alpha AND 100 ≤ qty ≤ 899", page 50 of 20 in the asked order with its total:
 * - cte: the matches' keys gathered once (a materialised CTE), counted, sorted for the page (the sorted list before);
 * - lateral: a count joined LATERAL to the page (the default order's list before);
 * - window-keys: the page's keys with `count(*) over ()`, then the page's rows by key;
 * - window-rows: the whole rows with `count(*) over ()`;
 * - pipelined: a count statement and the page statement sent in one message (one round trip);
 * and the count alone: a count statement, against the page of 1 with its total that the count call ran before.
 * Also the counts an index can answer (no filter; the owner). Run: node --import tsx bench/list-count-shapes.ts
 *   BENCH_SHAPES_DATABASES (pglite,postgres), BENCH_SHAPES_CALLS (40), BENCH_SHAPES_ANALYZE (1: analyse after the load)
 * Writes bench/results/list-count-shapes.json.
 */
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { onThrowawayPostgres, saveResult } from './lib.ts';
import { round1 } from './setup.ts';
import { PER_REQUEST, REQUESTS, SEED, generator, record } from './peer-workload-data.ts';
import pg from 'pg';

const DATABASES = (process.env.BENCH_SHAPES_DATABASES ?? 'pglite,postgres').split(',');
const CALLS = Number(process.env.BENCH_SHAPES_CALLS ?? 40);
const ANALYZE = process.env.BENCH_SHAPES_ANALYZE !== '0';

/** Runs statements text-only (simple protocol): several `;`-separated statements are one round trip. */
type Run = (text: string) => Promise<unknown>;

const USER = '0190b2c4-5f6e-7a8b-9c0d-1e2f3a4b5c6d';
const DEPT = '0190b2c4-5f6e-7a8b-9c0d-aaaaaaaaaaaa';
const T = 's."i_peer"';

const DDL = [
  'create extension if not exists pg_trgm',
  'create schema s',
  `create table ${T} ("ObjectId" uuid not null default gen_random_uuid() primary key, "Name" text not null default '', "Status" integer not null default 0,
    "CreatedBy" text, "ModifiedBy" text, "OwnerId" text, "OwnerDeptId" text, "CreatedTime" timestamptz not null default now(),
    "ModifiedTime" timestamptz not null default now(), "SeqNo" text, "WorkflowInstanceId" text,
    "Title" varchar(200), "Notes" text, "Qty" numeric, "Price" numeric, "Due" timestamptz, "State" varchar(200), "Done" boolean, "OwnerName" varchar(200),
    "~Name" text generated always as (lower("Name")) stored, "~SeqNo" text generated always as (lower("SeqNo")) stored,
    "~Title" text generated always as (lower("Title")) stored, "~State" text generated always as (lower("State")) stored,
    "~OwnerName" text generated always as (lower("OwnerName")) stored)`,
  `create index on ${T} ("CreatedTime" desc, "ObjectId" desc)`,
  `create index on ${T} ("OwnerDeptId")`,
  `create index on ${T} ("OwnerId") include ("OwnerDeptId")`,
  `create index on ${T} ("CreatedBy") include ("OwnerDeptId", "OwnerId")`,
  ...['~Name', '~SeqNo', '~Title', 'Notes', '~State', '~OwnerName'].map((c) => `create index on ${T} using gin ("${c}" gin_trgm_ops)`),
];

async function load(run: Run): Promise<void> {
  for (const s of DDL) await run(s);
  const next = generator(SEED);
  for (let r = 0; r < REQUESTS; r++) {
    const rows = Array.from({ length: PER_REQUEST }, (_, i) => {
      const n = r * PER_REQUEST + i;
      const v = record(next, n);
      return { ...v, Name: v.Title, SeqNo: `P${String(n).padStart(6, '0')}`, Status: 1, CreatedBy: USER, ModifiedBy: USER, OwnerId: USER, OwnerDeptId: DEPT };
    });
    const json = JSON.stringify(rows).replace(/'/g, "''");
    await run(`insert into ${T} ("Name","Status","CreatedBy","ModifiedBy","OwnerId","OwnerDeptId","SeqNo","Title","Notes","Qty","Price","Due","State","Done","OwnerName")
      select "Name","Status","CreatedBy","ModifiedBy","OwnerId","OwnerDeptId","SeqNo","Title","Notes","Qty","Price","Due","State","Done","OwnerName"
      from jsonb_to_recordset('${json}'::jsonb) as x("Name" text,"Status" int,"CreatedBy" text,"ModifiedBy" text,"OwnerId" text,"OwnerDeptId" text,"SeqNo" text,"Title" text,"Notes" text,"Qty" numeric,"Price" numeric,"Due" timestamptz,"State" text,"Done" boolean,"OwnerName" text)`);
  }
  if (ANALYZE) await run(`vacuum analyze ${T}`);
}

const W = `m."~Title" like lower('%alpha%') and m."Qty" >= 100 and m."Qty" <= 899`;
const SORTED = `"Due" desc, "CreatedTime" desc, "ObjectId" desc`;
const DEFAULT = `"CreatedTime" desc, "ObjectId" desc`;
const qualified = (order: string, alias: string) => order.replace(/"(\w+)"/g, `${alias}."$1"`);

function shapes(order: string, limit: number, offset: number): Record<string, string> {
  const keys = [...new Set(['ObjectId', ...[...order.matchAll(/"(\w+)"/g)].map((m) => m[1])])].map((c) => `m."${c}"`).join(', ');
  return {
    cte: `with k as materialized (select ${keys} from ${T} m where ${W}),
      pk as (select k."ObjectId" from k order by ${qualified(order, 'k')} limit ${limit} offset ${offset})
      select t.__total, p.* from (select (select count(*)::int from k) as __total) t
      left join lateral (select m.* from ${T} m join pk on pk."ObjectId" = m."ObjectId") p on true order by ${qualified(order, 'p')}`,
    lateral: `select t.n as __total, p.* from (select count(*)::int as n from ${T} m where ${W}) t
      left join lateral (select m.* from ${T} m where ${W} order by ${qualified(order, 'm')} limit ${limit} offset ${offset}) p on true order by ${qualified(order, 'p')}`,
    'window-keys': `with pk as (select ${keys}, count(*) over () as __total from ${T} m where ${W} order by ${qualified(order, 'm')} limit ${limit} offset ${offset})
      select pk.__total, m.* from pk join ${T} m on m."ObjectId" = pk."ObjectId" order by ${qualified(order, 'pk')}`,
    'window-rows': `select m.*, count(*) over () as __total from ${T} m where ${W} order by ${qualified(order, 'm')} limit ${limit} offset ${offset}`,
    pipelined: `select count(*)::int as n from ${T} m where ${W}; select m.* from ${T} m where ${W} order by ${qualified(order, 'm')} limit ${limit} offset ${offset}`,
  };
}

const COUNTS: Record<string, string> = {
  'count, page of 1 with total (before)': shapes(SORTED, 1, 0).cte,
  'count statement': `select count(*)::int as n from ${T} m where ${W}`,
  'count, no filter': `select count(*)::int as n from ${T} m`,
  'count, owner = me': `select count(*)::int as n from ${T} m where m."OwnerId" = '${USER}'`,
};

async function time(run: Run, text: string): Promise<number> {
  for (let i = 0; i < 5; i++) await run(text);
  const ms: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await run(text);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return round1(ms[Math.floor((ms.length - 1) / 2)]!);
}

async function measure(run: Run): Promise<Record<string, number>> {
  await load(run);
  const out: Record<string, number> = {};
  for (const [name, text] of Object.entries(COUNTS)) out[name] = await time(run, text);
  // Interleaved: each shape once a turn, so the load of the machine falls on all of them alike.
  const cases = [
    ...Object.entries(shapes(SORTED, 20, 980)).map(([k, v]) => [`sorted page 50: ${k}`, v] as const),
    ...Object.entries(shapes(DEFAULT, 20, 0)).map(([k, v]) => [`default order page 1: ${k}`, v] as const),
    ...Object.entries(shapes(DEFAULT, 20, 980)).map(([k, v]) => [`default order page 50: ${k}`, v] as const),
  ];
  for (const [name, text] of cases) out[name] = await time(run, text);
  return out;
}

const results: Record<string, Record<string, number>> = {};
for (const db of DATABASES) {
  if (db === 'pglite') {
    const pglite = await PGlite.create({ extensions: { pg_trgm } });
    results.pglite = await measure((text) => pglite.exec(text));
    await pglite.close();
  } else {
    const figures = await onThrowawayPostgres('tritium_shapes', async (url) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return await measure((text) => client.query(text));
      } finally {
        await client.end();
      }
    });
    if (figures) results.postgres = figures;
  }
}
saveResult('list-count-shapes', { calls: CALLS, analyzed: ANALYZE, results });
const names = [...new Set(Object.values(results).flatMap((r) => Object.keys(r)))];
console.log(`\n| statement, p50 ms of ${CALLS} | ${Object.keys(results).join(' | ')} |\n|---|${Object.keys(results).map(() => '---|').join('')}`);
for (const name of names) console.log(`| ${name} | ${Object.values(results).map((r) => r[name] ?? '—').join(' | ')} |`);
