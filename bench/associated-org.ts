/**
 * Associated organisations (issue 25, docs/decisions/0091): what adding a partner's people to the host, taking them
 * out and ending the association cost, in SQL statements (independent of the machine's load) and in time, on PGlite
 * in memory. The partner has PEOPLE users, half of them with an account (they join the host at once), half without
 * (they wait as invitations). Run: node --import tsx bench/associated-org.ts   (writes bench/results/associated-org.json
 * and the "Session 15 — associated organisations" section of docs/performance.md)
 */
import os from 'node:os';
import { openDatabase, engineDb } from '../packages/server/src/db/database.ts';
import { migratePlatform } from '../packages/server/src/db/migrate.ts';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { newId } from '../packages/server/src/lib/ids.ts';
import { insertUsers, setUserDepartments } from '../packages/server/src/modules/org/org.repo.ts';
import { post, saveResult, writePerformanceSection } from './lib.ts';
import { BENCH_CODE, registerBenchEngine, round1 } from './setup.ts';

const PEOPLE = Number(process.env.BENCH_ASSOCIATED_PEOPLE ?? 200);
let statements = 0;

async function main() {
  const database = await openDatabase({ onQuery: () => void (statements += 1) });
  await migratePlatform(database.db);
  const app = await buildApp({ config: { ...loadConfig({}), rateLimit: false, fixedVerifyCode: BENCH_CODE, jwtSecret: 'bench-secret-0123456789abcdef' }, db: database.db, logger: false });
  await app.ready();
  const host = await registerBenchEngine(app, '13600000001', '宿主管理员', '宿主制造');
  const partner = await registerBenchEngine(app, '13600000002', '供方管理员', '甲供应商');
  const company = await database.db.selectFrom('platform.engines').select('company_id').where('engine_code', '=', partner.engineCode).executeTakeFirstOrThrow();
  const edb = engineDb(database.db, partner.engineCode);
  const ids: string[] = [];
  for (let i = 0; i < PEOPLE; i++) {
    const id = newId();
    const mobile = `137${String(i).padStart(8, '0')}`;
    let accountId: string | null = null;
    if (i % 2 === 0) {
      accountId = newId();
      await database.db.insertInto('platform.accounts').values({ id: accountId, mobile, name: `供方${i}`, password_hash: null, state: 'active', locked_until: null, last_engine_code: null }).execute();
    }
    await insertUsers(edb, [{ id, account_id: accountId, name: `供方${i}`, mobile, auth_type: 3, is_external: false, main_department_id: company.company_id }]);
    await setUserDepartments(edb, id, [company.company_id], company.company_id);
    ids.push(id);
  }
  const link = await post(app, '/v1/org/associated/code/create', {}, host.headers);
  const accepted = (await app.inject({ method: 'POST', url: '/v1/org/associated/accept', payload: { associatedCode: link.associatedCode, engineCode: partner.engineCode }, headers: { authorization: partner.headers.authorization } })).json() as any;
  if (!accepted.successful) throw new Error(JSON.stringify(accepted));
  const id = accepted.data.id as string;

  /** One call: its statements and time. */
  async function measure(url: string, body: unknown, headers: Record<string, string>) {
    statements = 0;
    const t0 = process.hrtime.bigint();
    const answer = await post(app, url, body, headers);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    return { answer, statements, ms: round1(ms) };
  }
  const addOne = await measure('/v1/org/associated/member/add', { id, userIds: [ids[0]] }, partner.headers);
  const addAll = await measure('/v1/org/associated/member/add', { id, userIds: ids }, partner.headers);
  const removeAll = await measure('/v1/org/associated/member/remove', { id, userIds: ids }, partner.headers);
  const readdAll = await measure('/v1/org/associated/member/add', { id, userIds: ids }, partner.headers);
  const end = await measure('/v1/org/associated/end', { id }, host.headers);
  const figures = {
    people: PEOPLE,
    loadAverage: os.loadavg().map(round1),
    addOne: { statements: addOne.statements, ms: addOne.ms },
    addRest: { people: addAll.answer.changed, statements: addAll.statements, ms: addAll.ms },
    removeAll: { people: removeAll.answer.changed, statements: removeAll.statements, ms: removeAll.ms },
    readdAll: { people: readdAll.answer.changed, statements: readdAll.statements, ms: readdAll.ms },
    end: { people: readdAll.answer.changed, statements: end.statements, ms: end.ms },
  };
  saveResult('associated-org', figures);
  const line = (what: string, f: { statements: number; ms: number }, people: number) => `| ${what} | ${people} | ${f.statements} | ${round1(f.statements / people)} | ${f.ms} |`;
  writePerformanceSection('Session 15 — associated organisations', [
    '## Session 15 — associated organisations',
    '',
    `\`node --import tsx bench/associated-org.ts\` (PGlite in memory; load average ${figures.loadAverage.join(' / ')} while it ran, the machine shared).`,
    `A partner of ${PEOPLE} people, half with an account (they join the host at once), half without (they wait as invitations).`,
    'Statements are counted through the database\'s query log (the request\'s own context statement included) and do not depend on the load; times do.',
    '',
    '| call | people | statements | per person | ms |',
    '|---|---|---|---|---|',
    line('member/add, one person', addOne, 1),
    line('member/add, the rest at once', addAll, figures.addRest.people),
    line('member/remove, everyone', removeAll, figures.removeAll.people),
    line('member/add again (former host users enabled again)', readdAll, figures.readdAll.people),
    line('end (everyone taken out)', end, figures.readdAll.people),
    '',
    'Adding is set-wise: one statement for each step (the host users of those numbers, the new users with their department,',
    'the accounts, memberships, invitations, links) whatever the number of people, in one transaction under the host\'s',
    'organisation lock. The first version looped over the people: 2,194 statements and 7.1 s for 199 people on the same',
    'machine (load average ~20), 11 a person; taking out and ending were set-wise from the start.',
  ]);
  await app.close();
  await database.close();
}

await main();
