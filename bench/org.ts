/**
 * Organisation benchmark (issue 3): /v1/org/search and the department tree load on an engine of 10,000 users
 * and 1,000 departments, on PGlite and (when reachable) on PostgreSQL in a throw-away database.
 * The organisation is built through the org repo layer; the calls go through app.inject (the full Fastify
 * chain: authentication, engine checks, validation, service, SQL, presenter), so the figures exclude only
 * the network. Each call runs a few times to warm up, then ROUNDS times; the median and p95 are reported.
 * Run: node --import tsx bench/org.ts   (writes bench/results/org.json and the "Organisation" section of
 * docs/performance.md)
 */
import { sql } from 'kysely';
import { openDatabase, engineDb, type Database } from '../packages/server/src/db/database.ts';
import { migratePlatform } from '../packages/server/src/db/migrate.ts';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { newId } from '../packages/server/src/lib/ids.ts';
import { insertUnits, insertUsers } from '../packages/server/src/modules/org/org.repo.ts';
import { onThrowawayPostgres, saveResult, writePerformanceSection } from './lib.ts';

const USERS = Number(process.env.BENCH_ORG_USERS ?? 10_000);
const DEPARTMENTS = Number(process.env.BENCH_ORG_DEPARTMENTS ?? 1_000);
const ROUNDS = Number(process.env.BENCH_ORG_ROUNDS ?? 40);
const WARMUP = 3;
const CODE = '246810';

// A fixed pseudo-random sequence, so that every run builds the same organisation.
const SEED = 20261122;
let seed = SEED;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];

const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周', '徐', '孙', '马', '朱', '胡', '郭', '何', '高', '林', '罗', '郑', '梁', '谢', '宋', '唐', '许', '韩', '冯', '邓', '曹', '彭', '曾', '肖', '田', '董', '袁', '潘', '于', '蒋', '蔡', '余', '杜', '叶', '程', '苏', '魏', '吕', '丁', '任', '沈', '欧阳', '司马'];
const GIVEN = ['伟', '芳', '娜', '秀英', '敏', '静', '丽', '强', '磊', '军', '洋', '勇', '艳', '杰', '娟', '涛', '明', '超', '秀兰', '霞', '平', '刚', '桂英', '建华', '文', '华', '红', '玉兰', '志强', '晨', '宇', '浩然', '子涵', '欣怡', '梓轩', '雨桐', '思远', '一鸣', '嘉怡', '俊杰'];
const PLACES = ['北京', '上海', '广州', '深圳', '杭州', '成都', '武汉', '西安', '南京', '重庆', '苏州', '长沙', '郑州', '青岛', '厦门', '合肥'];
const FUNCTIONS = ['销售', '研发', '财务', '人事', '市场', '客服', '采购', '生产', '质检', '物流', '法务', '运营', '设计', '测试', '行政', '培训'];

interface Figure {
  call: string;
  rows: number;
  medianMs: number;
  p95Ms: number;
}

async function post(app: Awaited<ReturnType<typeof buildApp>>, url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'POST', url, payload: body as object, headers });
  return res.json() as any;
}

/** Builds the organisation and answers the admin's session. */
async function build(database: Database, app: Awaited<ReturnType<typeof buildApp>>) {
  const mobile = '13600000000';
  await post(app, '/v1/captcha/verifycode/send', { mobile, scene: 'register' });
  const reg = await post(app, '/v1/register/engine', { mobile, code: CODE, password: 'Passw0rd1', userName: '压测管理员', engineName: '压测集团' });
  if (!reg.successful) throw new Error(JSON.stringify(reg));
  const engineCode = reg.data.engineCode as string;
  const headers = { authorization: `Bearer ${reg.data.accessToken}`, enginecode: engineCode };
  const edb = engineDb(database.db, engineCode);
  const company = await database.db.selectFrom('platform.engines').select('company_id').where('engine_code', '=', engineCode).executeTakeFirstOrThrow();

  const started = Date.now();
  // Departments: 10 under the company, each further one under a random earlier department (a ragged tree).
  const departments: { id: string; parent_id: string }[] = [];
  for (let i = 0; i < DEPARTMENTS; i++) {
    const parent = i < 10 ? company.company_id : departments[Math.floor(random() * departments.length)].id;
    departments.push({ id: newId(), parent_id: parent });
  }
  for (let i = 0; i < departments.length; i += 500) {
    await insertUnits(
      edb,
      departments.slice(i, i + 500).map((d, k) => ({ ...d, unit_type: 'OrganizationUnit' as const, name: `${pick(PLACES)}${pick(FUNCTIONS)}${i + k}部`, sort_key: i + k })),
    );
  }
  // Users: a main department each; one in five also belongs to a second department.
  const users = Array.from({ length: USERS }, (_, i) => ({
    id: newId(),
    account_id: null,
    name: pick(SURNAMES) + pick(GIVEN),
    mobile: `135${String(10_000_000 + i * 7919).slice(-8)}`,
    auth_type: 3,
    is_external: false,
    main_department_id: pick(departments).id,
  }));
  for (let i = 0; i < users.length; i += 1000) await insertUsers(edb, users.slice(i, i + 1000));
  const extra = users.filter(() => random() < 0.2).map((u) => ({ user_id: u.id, department_id: pick(departments).id, is_main: false }));
  for (let i = 0; i < extra.length; i += 1000) {
    await edb.insertInto('org_user_departments').values(extra.slice(i, i + 1000)).onConflict((oc) => oc.doNothing()).execute();
  }
  // Fresh statistics, as autovacuum would have gathered on a live server.
  await sql`analyze`.execute(database.db);
  return { headers, companyId: company.company_id, buildSeconds: (Date.now() - started) / 1000 };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function time(app: Awaited<ReturnType<typeof buildApp>>, headers: Record<string, string>, label: string, url: string, body: unknown): Promise<Figure> {
  const samples: number[] = [];
  let rows = 0;
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    const started = process.hrtime.bigint();
    const res = await post(app, url, body, headers);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (!res.successful) throw new Error(`${label}: ${JSON.stringify(res)}`);
    rows = res.data.total ?? res.data.list.length;
    if (i >= WARMUP) samples.push(ms);
  }
  samples.sort((x, y) => x - y);
  return { call: label, rows, medianMs: Math.round(percentile(samples, 50) * 10) / 10, p95Ms: Math.round(percentile(samples, 95) * 10) / 10 };
}

async function measure(label: string, databaseUrl?: string) {
  seed = SEED;
  const database = await openDatabase(databaseUrl ? { databaseUrl } : {});
  await migratePlatform(database.db);
  const app = await buildApp({ config: { ...loadConfig({}), rateLimit: false, fixedVerifyCode: CODE, jwtSecret: 'bench-secret-0123456789abcdef' }, db: database.db, logger: false });
  await app.ready();
  try {
    const { headers, companyId, buildSeconds } = await build(database, app);
    console.log(`${label}: built ${USERS} users and ${DEPARTMENTS} departments in ${buildSeconds.toFixed(1)} s`);
    const figures = [
      await time(app, headers, 'search 汉字 prefix "张"', '/v1/org/search', { keyword: '张' }),
      await time(app, headers, 'search 汉字 name "王伟"', '/v1/org/search', { keyword: '王伟' }),
      await time(app, headers, 'search full pinyin "zhangwei"', '/v1/org/search', { keyword: 'zhangwei' }),
      await time(app, headers, 'search initials "zw"', '/v1/org/search', { keyword: 'zw' }),
      await time(app, headers, 'search mobile fragment "5678"', '/v1/org/search', { keyword: '5678' }),
      await time(app, headers, 'department tree, all 1,001 (recursive, pageSize -1)', '/v1/org/department/list', { recursive: true, pageSize: -1 }),
      await time(app, headers, 'department tree, one level (the company\'s children)', '/v1/org/department/list', { parentId: companyId }),
      await time(app, headers, 'user list, first page of 50 of all users', '/v1/org/user/list', {}),
    ];
    for (const f of figures) console.log(`  ${f.call}: ${f.rows} rows, median ${f.medianMs} ms, p95 ${f.p95Ms} ms`);
    return { database: label, buildSeconds, figures };
  } finally {
    await app.close();
    await database.close();
  }
}

const started = Date.now();
const runs = [await measure('PGlite')];
const pgRun = await onThrowawayPostgres('tritium_bench_org', (url, version) => measure(`PostgreSQL ${version}`, url));
if (pgRun) runs.push(pgRun);

const result = saveResult('org', { users: USERS, departments: DEPARTMENTS, rounds: ROUNDS, runs });

// The "Organisation" section of docs/performance.md; other sections are kept as they are.
const lines = [
  '## Organisation',
  '',
  `Measured by \`node --import tsx bench/org.ts\` on ${result.date.slice(0, 10)}: Node ${process.version}, ${result.cpus} × ${result.cpu ?? 'CPU'}.`,
  `One engine with ${USERS.toLocaleString('en')} users (a fifth of them in a second department) and ${DEPARTMENTS.toLocaleString('en')} departments`,
  'in a ragged tree, built through the org repo layer. Each call goes through `app.inject` (authentication, engine and',
  `user checks, validation, SQL, presenter; no network), ${WARMUP} warm-up calls then ${ROUNDS} timed ones. Search answers the first page of 50.`,
  '',
  `| call | ${runs.map((r) => `${r.database} median ms | p95 ms`).join(' | ')} | rows in all (total) |`,
  `|---|${runs.map(() => '---|---').join('|')}|---|`,
  ...runs[0].figures.map((f, i) => `| ${f.call} | ${runs.map((r) => `${r.figures[i].medianMs} | ${r.figures[i].p95Ms}`).join(' | ')} | ${f.rows} |`),
  '',
  `Building the organisation took ${runs.map((r) => `${r.buildSeconds.toFixed(1)} s on ${r.database}`).join(' and ')}.`,
  'Search matches a fragment anywhere in one stored text per user (compact name, full pinyin, initials, mobile), so it',
  'reads every user of the engine: linear in the number of users. Past ~50,000 users per engine a pg_trgm GIN index',
  'on `search_text` (PostgreSQL) is the next step; see docs/decisions/0003-organisation.md.',
  '',
];
writePerformanceSection('Organisation', lines);
console.log(`Total ${((Date.now() - started) / 1000).toFixed(0)} s`);
