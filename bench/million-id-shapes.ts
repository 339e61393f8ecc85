/**
 * The system id columns as text and as uuid at 1,000,000 rows (decision 0128), statement by statement: one table of
 * each shape in one throw-away PostgreSQL database — the columns and four system indexes of ddl-executor.ts, the rows
 * as bench/query-million.ts writes them (ten departments, one owner, one record in fifty created by a member) —
 * vacuumed, then three counts run interleaved: `count(*)`, the member's own department (an index-only scan of
 * 100,000 entries) and "owner = me" (every row matches: a scan of the heap). Prints the medians, sizes and plans.
 * Run: node --import tsx bench/million-id-shapes.ts   BENCH_ID_SHAPES_CALLS (47)
 * Writes bench/results/million-id-shapes.json.
 */
import pg from 'pg';
import { onThrowawayPostgres, saveResult } from './lib.ts';
import { round1 } from './setup.ts';

const CALLS = Number(process.env.BENCH_ID_SHAPES_CALLS ?? 47);
const DEPTS = Array.from({ length: 10 }, (_, i) => `0190b2c4-5f6e-7a8b-9c0d-${String(i).padStart(12, '0')}`);
const ME = '0190b2c4-5f6e-7a8b-9c0d-1e2f3a4b5c6d';
const MEMBER = '0190b2c4-5f6e-7a8b-9c0d-1e2f3a4b5c6e';
const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const SHAPES = ['text', 'uuid'] as const;

async function load(c: pg.Client): Promise<void> {
  for (const ty of SHAPES) {
    const t = `t_${ty}`;
    await c.query(`create table ${t} ("ObjectId" uuid primary key default gen_random_uuid(), "Name" text not null default '', "Status" integer not null default 0,
      "CreatedBy" ${ty}, "ModifiedBy" ${ty}, "OwnerId" ${ty}, "OwnerDeptId" ${ty}, "CreatedTime" timestamptz not null default now(), "ModifiedTime" timestamptz not null default now(),
      "SeqNo" text, "WorkflowInstanceId" ${ty}, "Title" varchar(200), "Customer" varchar(200), "Amount" numeric, "Kind" varchar(200))`);
    await c.query(`create index on ${t} ("CreatedTime" desc, "ObjectId" desc)`);
    await c.query(`create index on ${t} ("OwnerDeptId")`);
    await c.query(`create index on ${t} ("OwnerId") include ("OwnerDeptId")`);
    await c.query(`create index on ${t} ("CreatedBy") include ("OwnerDeptId", "OwnerId")`);
    await c.query(`insert into ${t} ("Name","Status","CreatedBy","ModifiedBy","OwnerId","OwnerDeptId","CreatedTime","Title","Customer","Amount","Kind")
      select '订单' || g, 1, (case when g % 50 = 1 then $1 else $2 end)::uuid, $2::uuid, $2::uuid, ($3::uuid[])[1 + g % 10], now() - g * interval '1 minute', '订单' || g,
        '华东贸易有限公司', (g % 1000) + 0.5, 'x' from generate_series(1, 1000000) g`, [MEMBER, ME, `{${DEPTS.join(',')}}`]);
    await c.query(`vacuum analyze ${t}`);
  }
  await c.query('create table ud (user_id text, department_id text)');
  await c.query('insert into ud values ($1, $2)', [MEMBER, DEPTS[0]]);
}

/** The statements as permission/scope-sql.ts and the filter compiler write them for each shape. */
const STATEMENTS: Record<string, (t: string) => [string, unknown[]]> = {
  'count(*)': (t) => [`select count(*) from ${t}`, []],
  'own department': (t) => [t === 't_uuid'
    ? `select count(*) from ${t} m where m."OwnerDeptId" = any(array(select case when x.id ~ '${UUID_PATTERN}' then x.id::uuid end from (select department_id from ud where user_id = $1) as x(id)))`
    : `select count(*) from ${t} m where m."OwnerDeptId" = any(array(select department_id from ud where user_id = $1))`, [MEMBER]],
  'owner = me': (t) => [`select count(*) from ${t} m where m."OwnerId" = $1`, [ME]],
};

async function measure(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await load(c);
    const times: Record<string, Record<string, number[]>> = {};
    for (let i = 0; i < CALLS + 3; i++) {
      for (const [name, of] of Object.entries(STATEMENTS)) {
        for (const ty of SHAPES) {
          const [text, values] = of(`t_${ty}`);
          const t0 = performance.now();
          await c.query(text, values);
          if (i >= 3) ((times[name] ??= {})[ty] ??= []).push(performance.now() - t0);
        }
      }
    }
    const p50 = Object.fromEntries(Object.entries(times).map(([n, by]) => [n, Object.fromEntries(Object.entries(by).map(([ty, ms]) => [ty, round1(ms.sort((a, b) => a - b)[Math.floor(ms.length / 2)]!)]))]));
    const sizes: Record<string, unknown> = {};
    const plans: Record<string, string[]> = {};
    for (const ty of SHAPES) {
      sizes[ty] = (await c.query(`select pg_relation_size('t_${ty}')::bigint::text as heap, pg_indexes_size('t_${ty}')::bigint::text as indexes`)).rows[0];
      for (const [name, of] of Object.entries(STATEMENTS)) {
        const [text, values] = of(`t_${ty}`);
        plans[`${ty}: ${name}`] = (await c.query(`explain (analyze) ${text}`, values)).rows.map((r) => String(r['QUERY PLAN'])).filter((l) => /Scan|Execution/.test(l));
      }
    }
    return { p50, sizes, plans };
  } finally {
    await c.end();
  }
}

const result = await onThrowawayPostgres('tritium_id_shapes', measure);
if (result) {
  saveResult('million-id-shapes', { calls: CALLS, ...result });
  console.log(JSON.stringify(result, null, 1));
}
