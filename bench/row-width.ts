/**
 * Where the bytes of the peer workload's main table go, and what narrower rows would change (issue 50, decision 0128).
 * The table is laid as a publish lays it (ddl-executor.ts: system columns and their four indexes, the 8 fields, the
 * lowered twins and trigram indexes of Name, SeqNo, Title and State — decision 0119), loaded with the same 10,000
 * records (peer-workload-data.ts, one owner as in the workload), vacuumed and analysed, in three layouts:
 * - text: the system id columns (CreatedBy, ModifiedBy, OwnerId, OwnerDeptId, WorkflowInstanceId) as 36-character text;
 * - uuid: the same columns as uuid (16 bytes);
 * - uuid + side: uuid ids and the text area (Notes) in a table of its own, keyed by ObjectId.
 * For each: the average row (pg_column_size of the whole row and of each column), the heap, TOAST and index sizes,
 * and p50 times of the count and the sorted page 50 with its total ("title contains alpha AND 100 ≤ qty ≤ 899") and
 * of the "owner = me" count, the layouts interleaved call by call.
 * Run: node --import tsx bench/row-width.ts   BENCH_WIDTH_DATABASES (postgres,pglite), BENCH_WIDTH_CALLS (40)
 * Writes bench/results/row-width.json.
 */
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { onThrowawayPostgres, saveResult } from './lib.ts';
import { round1 } from './setup.ts';
import { PER_REQUEST, REQUESTS, SEED, generator, record } from './peer-workload-data.ts';

const DATABASES = (process.env.BENCH_WIDTH_DATABASES ?? 'postgres,pglite').split(',');
const CALLS = Number(process.env.BENCH_WIDTH_CALLS ?? 40);

type Query = (text: string) => Promise<Record<string, unknown>[]>;
const USER = '0190b2c4-5f6e-7a8b-9c0d-1e2f3a4b5c6d';
const DEPT = '0190b2c4-5f6e-7a8b-9c0d-aaaaaaaaaaaa';
const LAYOUTS = ['text', 'uuid', 'uuid + side'] as const;
type Layout = (typeof LAYOUTS)[number];
const ID_COLUMNS = ['CreatedBy', 'ModifiedBy', 'OwnerId', 'OwnerDeptId', 'WorkflowInstanceId'];
const tableOf = (l: Layout) => `s."i_${l.replace(/\W+/g, '_')}"`;
const sideOf = (l: Layout) => `s."i_${l.replace(/\W+/g, '_')}__long"`;

function ddl(l: Layout): string[] {
  const t = tableOf(l);
  const id = l === 'text' ? 'text' : 'uuid';
  const notes = l === 'uuid + side' ? '' : '"Notes" text,';
  return [
    `create table ${t} ("ObjectId" uuid not null default gen_random_uuid() primary key, "Name" text not null default '', "Status" integer not null default 0,
      "CreatedBy" ${id}, "ModifiedBy" ${id}, "OwnerId" ${id}, "OwnerDeptId" ${id}, "CreatedTime" timestamptz not null default now(),
      "ModifiedTime" timestamptz not null default now(), "SeqNo" text, "WorkflowInstanceId" ${id},
      "Title" varchar(200), ${notes} "Qty" numeric, "Price" numeric, "Due" timestamptz, "State" varchar(200), "Done" boolean, "OwnerName" varchar(200),
      "~Name" text generated always as (lower("Name")) stored, "~SeqNo" text generated always as (lower("SeqNo")) stored,
      "~Title" text generated always as (lower("Title")) stored, "~State" text generated always as (lower("State")) stored)`,
    `create index on ${t} ("CreatedTime" desc, "ObjectId" desc)`,
    `create index on ${t} ("OwnerDeptId")`,
    `create index on ${t} ("OwnerId") include ("OwnerDeptId")`,
    `create index on ${t} ("CreatedBy") include ("OwnerDeptId", "OwnerId")`,
    ...['~Name', '~SeqNo', '~Title', '~State'].map((c) => `create index on ${t} using gin ("${c}" gin_trgm_ops)`),
    ...(l === 'uuid + side' ? [`create table ${sideOf(l)} ("ObjectId" uuid primary key references ${t} ("ObjectId") on delete cascade, "Notes" text)`] : []),
  ];
}

async function load(q: Query): Promise<void> {
  await q('create extension if not exists pg_trgm');
  await q('create schema s');
  for (const l of LAYOUTS) for (const s of ddl(l)) await q(s);
  const next = generator(SEED);
  for (let r = 0; r < REQUESTS; r++) {
    const rows = Array.from({ length: PER_REQUEST }, (_, i) => {
      const n = r * PER_REQUEST + i;
      const v = record(next, n);
      const objectId = `0190b2c4-0000-7000-8000-${String(n).padStart(12, '0')}`;
      return { ...v, ObjectId: objectId, Name: v.Title, SeqNo: `2026${String(n).padStart(8, '0')}`, Status: 1, CreatedBy: USER, ModifiedBy: USER, OwnerId: USER, OwnerDeptId: DEPT };
    });
    const json = JSON.stringify(rows).replace(/'/g, "''");
    const x = `jsonb_to_recordset('${json}'::jsonb) as x("ObjectId" uuid,"Name" text,"Status" int,"CreatedBy" text,"ModifiedBy" text,"OwnerId" text,"OwnerDeptId" text,"SeqNo" text,"Title" text,"Notes" text,"Qty" numeric,"Price" numeric,"Due" timestamptz,"State" text,"Done" boolean,"OwnerName" text)`;
    for (const l of LAYOUTS) {
      const cast = l === 'text' ? '' : '::uuid';
      const notes = l === 'uuid + side' ? '' : '"Notes",';
      await q(`insert into ${tableOf(l)} ("ObjectId","Name","Status","CreatedBy","ModifiedBy","OwnerId","OwnerDeptId","SeqNo","Title",${notes}"Qty","Price","Due","State","Done","OwnerName")
        select "ObjectId","Name","Status","CreatedBy"${cast},"ModifiedBy"${cast},"OwnerId"${cast},"OwnerDeptId"${cast},"SeqNo","Title",${notes}"Qty","Price","Due","State","Done","OwnerName" from ${x}`);
      if (l === 'uuid + side') await q(`insert into ${sideOf(l)} ("ObjectId", "Notes") select "ObjectId", "Notes" from ${x}`);
    }
  }
  for (const l of LAYOUTS) {
    await q(`vacuum analyze ${tableOf(l)}`);
    if (l === 'uuid + side') await q(`vacuum analyze ${sideOf(l)}`);
  }
}

async function sizes(q: Query, l: Layout): Promise<Record<string, unknown>> {
  const t = tableOf(l);
  const [row] = await q(`select round(avg(pg_column_size(m.*)))::int as row, pg_relation_size('${t}')::int as heap,
      coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0)::int as toast, pg_indexes_size('${t}')::int as indexes
    from ${t} m, pg_class c where c.oid = '${t}'::regclass group by c.reltoastrelid`);
  const columns = (await q(`select attname::text as name from pg_attribute where attrelid = '${t}'::regclass and attnum > 0 and not attisdropped order by attnum`)).map((r) => String(r.name));
  const [avg] = await q(`select ${columns.map((c) => `round(avg(coalesce(pg_column_size(m."${c}"), 0)), 1)::float8 as "${c}"`).join(', ')} from ${t} m`);
  const indexes = await q(`select c.relname::text as name, pg_relation_size(c.oid)::int as bytes from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = '${t}'::regclass order by 2 desc`);
  const side = l === 'uuid + side' ? (await q(`select pg_total_relation_size('${sideOf(l)}')::int as bytes`))[0]!.bytes : 0;
  return { ...row, side, columns: avg, indexes: Object.fromEntries(indexes.map((r) => [String(r.name).replace(/^i_\w+?_/, ''), r.bytes])) };
}

const W = `m."~Title" like lower('%alpha%') and m."Qty" >= 100 and m."Qty" <= 899`;
function statements(l: Layout): Record<string, string> {
  const t = tableOf(l);
  const page = l === 'uuid + side'
    ? `select m.*, s."Notes" from ${t} m join pk on pk."ObjectId" = m."ObjectId" left join ${sideOf(l)} s on s."ObjectId" = m."ObjectId"`
    : `select m.* from ${t} m join pk on pk."ObjectId" = m."ObjectId"`;
  return {
    count: `select count(*)::int as n from ${t} m where ${W}`,
    'sorted page 50 + total': `with k as materialized (select m."ObjectId", m."Due", m."CreatedTime" from ${t} m where ${W}),
      pk as (select k."ObjectId" from k order by k."Due" desc, k."CreatedTime" desc, k."ObjectId" desc limit 20 offset 980)
      select t.__total, p.* from (select (select count(*)::int from k) as __total) t left join lateral (${page}) p on true`,
    'count, owner = me': `select count(*)::int as n from ${t} m where m."OwnerId" = '${USER}'`,
    'count, no filter': `select count(*)::int as n from ${t} m`,
  };
}

async function timings(q: Query): Promise<Record<string, Record<string, number>>> {
  const times: Record<string, Record<string, number[]>> = {};
  const names = Object.keys(statements('text'));
  for (const l of LAYOUTS) for (const s of Object.values(statements(l))) for (let i = 0; i < 3; i++) await q(s);
  for (let i = 0; i < CALLS; i++) {
    for (const name of names) {
      for (const l of LAYOUTS) {
        const t0 = performance.now();
        await q(statements(l)[name]!);
        ((times[l] ??= {})[name] ??= []).push(performance.now() - t0);
      }
    }
  }
  return Object.fromEntries(Object.entries(times).map(([l, byName]) => [l, Object.fromEntries(Object.entries(byName).map(([n, ms]) => [n, round1(ms.sort((a, b) => a - b)[Math.floor((ms.length - 1) / 2)]!)]))]));
}

async function measure(q: Query) {
  await load(q);
  const out: Record<string, unknown> = {};
  for (const l of LAYOUTS) out[l] = await sizes(q, l);
  return { sizes: out, p50: await timings(q) };
}

const results: Record<string, unknown> = {};
for (const db of DATABASES) {
  if (db === 'pglite') {
    const pglite = await PGlite.create({ extensions: { pg_trgm } });
    results.pglite = await measure(async (text) => (await pglite.query<Record<string, unknown>>(text)).rows);
    await pglite.close();
  } else {
    results.postgres = await onThrowawayPostgres('tritium_width', async (url) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return await measure(async (text) => (await client.query(text)).rows);
      } finally {
        await client.end();
      }
    });
  }
}
saveResult('row-width', { calls: CALLS, idColumns: ID_COLUMNS, results });
console.log(JSON.stringify(results, null, 1));
