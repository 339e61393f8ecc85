/**
 * The query engine at 1,000,000 records (issue 8 "bench/: on PostgreSQL with 1,000,000 records, page, count and
 * filtered page through the API against the same SQL run directly"; docs/decisions/0021): a form created and published
 * through the API in a throw-away PostgreSQL database, its table filled with one INSERT … SELECT generate_series
 * (trigram indexes dropped while loading and built again after), then POST /v1/bizdata/query through app.inject
 * against the statement the query engine builds for the call, run directly on a pg client. Also a member's query
 * with data scope "own department" against the administrator's unscoped one.
 * Run: npm run bench:query-million   (writes bench/results/query-million.json and docs/performance.md
 * "Query engine at 1,000,000 records"). BENCH_MILLION_RECORDS / BENCH_MILLION_ROUNDS change the size and rounds.
 */
import pg from 'pg';
import { sql } from 'kysely';
import { medianAndP95, openBenchApp, registerBenchEngine, round1 } from './setup.ts';
import { onThrowawayPostgres, post, type App, saveResult, writePerformanceSection } from './lib.ts';

const RECORDS = Number(process.env.BENCH_MILLION_RECORDS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_MILLION_ROUNDS ?? 15);
const WARMUP = 2;
const FIELDS = [
  // Searched and filtered by "contains": marked 支持模糊搜索 (decision 0119), as an administrator of such a form would.
  { type: 'textBox', code: 'Title', options: { searchable: true } },
  { type: 'textBox', code: 'Customer', options: { searchable: true } },
  { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
  { type: 'dropDown', code: 'Kind', options: { defaultItems: ['x', 'y', 'z'] } },
];

const timed = (run: () => Promise<unknown>) => medianAndP95(run, WARMUP, ROUNDS);
const signUp = (app: App, mobile: string, userName: string) => registerBenchEngine(app, mobile, userName, `${userName}的公司`);

async function measure(databaseUrl: string, version: string) {
  const { app, database } = await openBenchApp(databaseUrl);
  const direct = new pg.Client({ connectionString: databaseUrl });
  await direct.connect();
  try {
    const admin = await signUp(app, '13600000011', '压测管理员');
    const headers = { authorization: `Bearer ${admin.token}`, enginecode: admin.engineCode };
    const appNode = await post(app, '/v1/functionnode', { code: 'MillionApp', displayName: '百万数据', nodeType: 190 }, headers);
    const node = await post(app, '/v1/functionnode', { code: 'Million', appCode: appNode.code, displayName: '百万订单', nodeType: 200 }, headers);
    const loaded = await post(app, '/v1/formdesign/load', { schemaCode: node.code }, headers);
    const saved = await post(app, '/v1/formdesign/save', { schemaCode: node.code, baseVersion: loaded.draft.version, definition: { attributes: { displayName: '百万订单' }, controls: FIELDS } }, headers);
    await post(app, '/v1/formdesign/publish', { schemaCode: node.code, version: saved.version }, headers);
    const me: string = (await post(app, '/v1/form/loaddata', { schemaCode: node.code }, headers)).system.CreatedBy;

    // A member in 销售部 (one department of ten) who may open the form.
    const companyId = (await database.db.selectFrom('platform.engines').select('company_id').where('engine_code', '=', admin.engineCode).executeTakeFirstOrThrow()).company_id;
    const depts: string[] = [];
    for (let i = 0; i < 10; i++) depts.push((await post(app, '/v1/org/department/create', { parentId: companyId, name: `销售${i}部` }, headers)).id);
    const memberSelf = await signUp(app, '13600000012', '压测成员');
    const memberUser = await post(app, '/v1/org/user/create', { name: '压测成员', mobile: '13600000012', departmentIds: [depts[0]] }, headers);
    await post(app, '/v1/functionnode/auth/set', { code: node.code, unitId: memberUser.id, permission: 'access' }, headers);
    const memberHeaders = { authorization: `Bearer ${memberSelf.token}`, enginecode: admin.engineCode };

    const schema = `e_${admin.engineCode}`;
    const tableName = `i_${node.code.toLowerCase()}`;
    const table = sql.id(schema, tableName);
    const trigram = await sql<{ name: string; def: string }>`select indexname as name, indexdef as def from pg_indexes where schemaname = ${schema} and tablename = ${tableName} and indexname like 'xt_%'`.execute(database.db);
    const t0 = Date.now();
    for (const i of trigram.rows) await sql`drop index ${sql.id(schema, i.name)}`.execute(database.db);
    // Customers from 120 Chinese names; owners spread over the ten departments; one record a minute back in time;
    // one record in fifty (outside the member's department) created by the member, so "relevant" to them.
    await sql`
      insert into ${table} ("ObjectId", "Name", "Status", "CreatedBy", "ModifiedBy", "OwnerId", "OwnerDeptId", "CreatedTime", "ModifiedTime",
        "Title", "Customer", "Amount", "Kind")
      select gen_random_uuid(), '订单' || g, 1, (case when g % 50 = 1 then ${memberUser.id} else ${me} end)::uuid, ${me}, ${me}, (${sql.val(depts)}::uuid[])[1 + g % 10],
        now() - g * interval '1 minute', now(), '订单' || g,
        (array['华东','华南','华北','西南','东北'])[1 + g % 5] || (array['贸易','科技','实业','物流','电子','机械','食品','医药'])[1 + (g / 5) % 8]
          || (array['有限公司','集团','股份公司'])[1 + (g / 40) % 3],
        (g % 1000) + 0.5, (array['x','y','z'])[1 + g % 3]
      from generate_series(1, ${RECORDS}::int) g`.execute(database.db);
    for (const i of trigram.rows) await sql.raw(i.def).execute(database.db);
    // Vacuumed as autovacuum would after a load this size: the visibility map lets index-only scans skip the table
    // (the administrator's count and the member's scoped branches alike).
    await sql`vacuum analyze ${table}`.execute(database.db);
    const seedSeconds = round1((Date.now() - t0) / 1000);

    const api = (body: Record<string, unknown>, h = headers) => () => post(app, '/v1/bizdata/query', { schemaCode: node.code, pageIndex: 0, pageSize: 20, ...body }, h);
    const t = `"${schema}"."${tableName}"`;
    const order = 'order by "CreatedTime" desc, "ObjectId" desc';
    // The statement the query engine builds: the page LATERAL-joined to the count of the same WHERE.
    const shape = (where: string, limit = 20) =>
      `select t.__total, p.* from (select count(*)::int as __total from ${t} as m where ${where}) as t ` +
      `left join lateral (select m.* from ${t} as m where ${where} ${order.replaceAll('"C', 'm."C').replaceAll('"O', 'm."O')} limit ${limit} offset 0) as p on true ${order.replaceAll('"C', 'p."C').replaceAll('"O', 'p."O')}`;
    const run = (text: string, values: unknown[] = []) => () => direct.query(text, values);
    // The open API's count: LoadBizObjects with an empty window and RequireCount (no page is read).
    const { value: secret } = await post(app, '/v1/engine/secret/create', { name: '压测' }, headers);
    const invokeCount = async () => {
      const res = await app.inject({ method: 'POST', url: '/OpenApi/Invoke', headers: { EngineCode: admin.engineCode, EngineSecret: secret }, payload: { ActionName: 'LoadBizObjects', SchemaCode: node.code, Filter: '{"FromRowNum":0,"ToRowNum":0,"RequireCount":true}' } });
      const body = res.json() as { Successful: boolean; ReturnData: { TotalCount: number } };
      if (!body.Successful || body.ReturnData.TotalCount !== RECORDS) throw new Error(`Invoke count: ${res.body.slice(0, 300)}`);
    };
    const filtered = { type: 'And', children: [{ field: 'Customer', operator: 'Contains', value: '华东贸易' }, { field: 'Amount', operator: 'Above', value: 900 }] };
    const filteredWhere = `(m."Customer" ilike $1 and m."Amount" > $2)`;
    const cases = {
      firstPage: { api: api({}), sql: run(shape('true')) },
      count: { api: api({ pageSize: 1 }), sql: run(`select count(*)::int from ${t} as m`) },
      countSameStatement: { api: api({ pageSize: 1 }), sql: run(shape('true', 1)) },
      openApiCount: { api: invokeCount, sql: run(`select count(*)::int from ${t} as m`) },
      filteredPage: { api: api({ filter: filtered }), sql: run(shape(filteredWhere), ['%华东贸易%', 900]) },
    };
    const result: Record<string, any> = { database: `PostgreSQL ${version}`, records: RECORDS, seedSeconds, totals: {}, figures: {} };
    result.totals.filtered = (await api({ filter: filtered })()).total;
    result.totals.memberOwnDept = (await api({ scope: 'ownDept' }, memberHeaders)()).total;
    for (const [name, c] of Object.entries(cases)) {
      const viaApi = await timed(c.api);
      const viaSql = await timed(c.sql);
      result.figures[name] = { api: viaApi, sql: viaSql, ratio: Number((viaApi.medianMs / viaSql.medianMs).toFixed(2)) };
    }
    result.figures.adminAll = await timed(api({}));
    result.figures.memberOwnDept = await timed(api({ scope: 'ownDept' }, memberHeaders));
    // Issue 19: the member's rights from permission groups — one group "own department", one "relevant" (creator,
    // owner, a user field or a participant of the record's flow); their list is the union, with no scope asked.
    for (const [name, viewScope] of [['本部门', 'ownDept'], ['相关的', 'relevant']] as const) {
      await post(app, '/v1/form/permission/group/save', { schemaCode: node.code, group: { name, members: { users: [memberUser.id] }, actions: ['view'], viewScope, editScope: 'own' } }, headers);
    }
    result.totals.memberScoped = (await api({}, memberHeaders)()).total;
    result.figures.memberScoped = await timed(api({}, memberHeaders));
    result.figures.adminAllAgain = await timed(api({}));
    result.figures.memberScopedRatio = Number((result.figures.memberScoped.medianMs / result.figures.adminAllAgain.medianMs).toFixed(2));
    // The member's condition as one "or" over every row — the shape before docs/decisions/0063 — and as the sum of
    // disjoint branches the query engine now counts with (permission/scope-sql.ts scopeBranches), both run directly.
    // The id columns are uuid in tables made since decision 0128 (text before): the department ids compared as the column's type.
    const uuidIds = (await direct.query(`select data_type from information_schema.columns where table_schema = $1 and table_name = $2 and column_name = 'OwnerDeptId'`, [schema, tableName])).rows[0].data_type === 'uuid';
    const inDepts = `m."OwnerDeptId" = any(array(select department_id${uuidIds ? '::uuid' : ''} from "${schema}".org_user_departments where user_id = $1))`;
    const inFlow = `m."ObjectId" in (select pi.object_id from "${schema}".wf_instances pi join "${schema}".wf_work_items pw on pw.instance_id = pi.id where pi.schema_code = $2 and pw.participant = $1)`;
    const member = uuidIds ? '$1::uuid' : '$1';
    const scopedWhere = `(${inDepts} or (m."CreatedBy" = ${member} or m."OwnerId" = ${member} or ${inFlow}))`;
    const terms = [inDepts, `m."OwnerId" = ${member}`, `m."CreatedBy" = ${member}`, inFlow];
    const branchCount = terms.map((term, i) => `(select count(*)::int from ${t} as m where ${[term, ...terms.slice(0, i).map((e) => `(${e}) is not true`)].join(' and ')})`).join(' + ');
    const orTotal = (await direct.query(`select count(*)::int as n from ${t} as m where ${scopedWhere}`, [memberUser.id, node.code])).rows[0].n;
    if (orTotal !== result.totals.memberScoped) throw new Error(`the member's total ${result.totals.memberScoped} is not the "or" count ${orTotal}`);
    result.figures.memberScopedSql = await timed(run(shape(scopedWhere), [memberUser.id, node.code]));
    result.figures.memberBranchesSql = await timed(run(`select ${branchCount} as n`, [memberUser.id, node.code]));
    const explain = async (text: string, values: unknown[] = []) => (await direct.query(`explain (analyze, buffers off) ${text}`, values)).rows.map((r) => r['QUERY PLAN']).join('\n');
    result.uuidIds = uuidIds;
    result.sizes = (await direct.query(`select pg_relation_size($1::regclass)::bigint::text as heap, pg_indexes_size($1::regclass)::bigint::text as indexes,
      (select round(avg(pg_column_size(m.*)))::int from (select * from ${t} limit 10000) m) as "rowBytes"`, [t])).rows[0];
    result.plans = {
      firstPage: await explain(shape('true')),
      filteredPage: await explain(shape(filteredWhere), ['%华东贸易%', 900]),
      memberScoped: await explain(shape(scopedWhere), [memberUser.id, node.code]),
      memberBranches: await explain(`select ${branchCount} as n`, [memberUser.id, node.code]),
    };
    console.log(JSON.stringify(result, null, 2));
    return result;
  } finally {
    await direct.end();
    await app.close();
    await database.close();
  }
}

const run = await onThrowawayPostgres('tritium_bench_million', measure);
if (!run) {
  console.warn('No PostgreSQL server: nothing measured.');
  process.exit(0);
}
const result = saveResult('query-million', { rounds: ROUNDS, run });
const f = run.figures;
const ms = (x: { medianMs: number; p95Ms: number }) => `${x.medianMs} / ${x.p95Ms}`;
writePerformanceSection('Query engine at 1,000,000 records', [
  '## Query engine at 1,000,000 records',
  '',
  `Measured by \`npm run bench:query-million\` on ${result.date.slice(0, 10)}: Node ${process.version}, ${result.cpus} × ${result.cpu ?? 'CPU'}, ${run.database}.`,
  `A form of 4 controls created and published through the API, ${RECORDS.toLocaleString('en-US')} records written with one INSERT … SELECT`,
  `(${run.seedSeconds} s with its two trigram indexes built after loading). POST /v1/bizdata/query through \`app.inject\` against the`,
  'same statement run directly on a pg client; page size 20 with the total; ' + `${WARMUP} warm-up then ${ROUNDS} timed calls, median / p95 in ms.`,
  `The filtered page is Customer contains "华东贸易" and Amount > 900 (${run.totals.filtered} records).`,
  '',
  '| call | API | same SQL directly | API / SQL |',
  '|---|---|---|---|',
  `| first page, default order (page + count in one statement) | ${ms(f.firstPage.api)} | ${ms(f.firstPage.sql)} | ${f.firstPage.ratio} |`,
  `| count (API: page size 1 with the total; SQL: count(*)) | ${ms(f.count.api)} | ${ms(f.count.sql)} | ${f.count.ratio} |`,
  `| count, against the API's own statement (page of 1 LATERAL-joined to the count) | ${ms(f.countSameStatement.api)} | ${ms(f.countSameStatement.sql)} | ${f.countSameStatement.ratio} |`,
  `| count through /OpenApi/Invoke (LoadBizObjects, empty window, RequireCount; SQL: count(*)) | ${ms(f.openApiCount.api)} | ${ms(f.openApiCount.sql)} | ${f.openApiCount.ratio} |`,
  `| filtered page | ${ms(f.filteredPage.api)} | ${ms(f.filteredPage.sql)} | ${f.filteredPage.ratio} |`,
  '',
  `Data scope: the administrator's first page (scope all) ${ms(f.adminAll)}; a member's with scope "own department" (${run.totals.memberOwnDept} records,`,
  `a tenth of the table) ${ms(f.memberOwnDept)}.`,
  '',
  '### A member\'s scoped list (issue 19)',
  '',
  'The member then gets two permission groups, "own department" and "relevant" (docs/decisions/0037, 0057); their first page',
  `with the total is the union (${run.totals.memberScoped} records: their department's tenth and the one record in fifty they created),`,
  'measured right after the administrator\'s again, on the same warm table:',
  '',
  '| call | median / p95 ms |',
  '|---|---|',
  `| administrator, first page (every record) | ${ms(f.adminAllAgain)} |`,
  `| member, first page within own department + relevant | ${ms(f.memberScoped)} |`,
  `| the member's total as the sum of disjoint branches, run directly (what the API counts with, docs/decisions/0063) | ${ms(f.memberBranchesSql)} |`,
  `| the member's page and total with the one "or" over every row, run directly (the shape before 0063) | ${ms(f.memberScopedSql)} |`,
  '',
  `Member / administrator: **${f.memberScopedRatio}×** (goal 1.2×; 1.72× with the "or" shape, session 12). The API's total was checked`,
  'against a count with the "or" shape before timing.',
  '',
  'EXPLAIN ANALYZE of the member\'s total as branches (each an index-only scan of a system index):',
  '',
  '```',
  ...String(run.plans.memberBranches).split('\n').filter((l) => !/never executed|Recheck Cond/.test(l)).slice(0, 40),
  '```',
  '',
  'EXPLAIN ANALYZE of the "or" shape:',
  '',
  '```',
  ...String(run.plans.memberScoped).split('\n').slice(0, 24),
  '```',
  '',
  'Finding: every main table has an index on the default order (CreatedTime desc, ObjectId desc), one on OwnerId and one',
  'on OwnerDeptId, made at publish. The page of a count is then an index scan of its first rows, so the API\'s count (a',
  'page joined to the count) costs what a bare count(*) costs, and every call stays within 1.5× of its SQL. Without those',
  'indexes (the first run of this bench) the page sorted the whole table: the first page took 887 ms and the count 3.8×',
  'a bare count(*). The count itself remains a parallel scan of the table: an unfiltered total of 1,000,000 records is',
  'about 0.2 s on these two cores.',
  '',
  'What the time is spent on (EXPLAIN ANALYZE of the first page):',
  '',
  '```',
  ...String(run.plans.firstPage).split('\n').slice(0, 14),
  '```',
  '',
]);
