import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, FIXED_CODE, forgetRecentCodes, registerPerson, uniqueMobile, type TestApp } from '../../../test/helpers.ts';
import { engineDb } from '../../db/database.ts';
import { sql } from 'kysely';
import { FEATURE_SWITCH_DEFAULTS } from '@tritium/shared';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function countRows() {
  const q = (table: 'platform.accounts' | 'platform.engines' | 'platform.memberships') =>
    t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow().then((r) => Number(r.n));
  const schemas = await sql<{ n: number }>`select count(*)::int as n from information_schema.schemata where schema_name like 'e\\_%'`.execute(t.database.db);
  return { accounts: await q('platform.accounts'), engines: await q('platform.engines'), memberships: await q('platform.memberships'), schemas: schemas.rows[0].n };
}

describe('registration', () => {
  it('creates the account, the engine, its schema, the company root and the registrant as Administrator', async () => {
    const p = await registerPerson(t.app, { userName: '王五', engineName: '氢能制造' });
    const engine = await t.database.db.selectFrom('platform.engines').selectAll().where('engine_code', '=', p.engineCode).executeTakeFirstOrThrow();
    expect(engine).toMatchObject({ engine_name: '氢能制造', state: 'normal', engine_type: 'SaaSDevelopment', scale: '1-20' });
    const edb = engineDb(t.database.db, p.engineCode);
    const root = await edb.selectFrom('org_units').selectAll().where('unit_type', '=', 'Company').executeTakeFirstOrThrow();
    expect(root).toMatchObject({ id: engine.company_id, name: '氢能制造', parent_id: null });
    const user = await edb.selectFrom('org_users').selectAll().executeTakeFirstOrThrow();
    expect(user).toMatchObject({ name: '王五', mobile: p.mobile, auth_type: 1, main_department_id: engine.company_id });
    const info = await call(t.app, 'GET', '/v1/user/info', { token: p.token, engineCode: p.engineCode });
    expect(info.body.data.user).toMatchObject({ isAdmin: true, authType: 1, companyId: engine.company_id });
  });

  it('tells whether a number is registered', async () => {
    const p = await registerPerson(t.app);
    expect((await call(t.app, 'GET', '/v1/register/validate', { query: { mobile: p.mobile } })).body.data).toEqual({ registered: true });
    expect((await call(t.app, 'GET', '/v1/register/validate', { query: { mobile: uniqueMobile() } })).body.data).toEqual({ registered: false });
  });

  it('lists the company scales', async () => {
    const res = await call(t.app, 'GET', '/v1/register/getscalelist');
    expect(res.body.data.list.length).toBeGreaterThan(3);
    expect(res.body.data.list[0]).toEqual({ code: '1-20', name: '1-20人' });
  });

  it('adds a second engine to a signed-in account and lists both, primary flag set', async () => {
    const p = await registerPerson(t.app);
    const second = await call(t.app, 'POST', '/v1/register/engine', { token: p.token, body: { engineName: '第二组织' } });
    expect(second.body.data.engineCode).not.toBe(p.engineCode);
    const list = await call(t.app, 'GET', '/v1/engine/connected', { token: p.token, query: { pageIndex: '0', pageSize: '50' } });
    expect(list.body.data.total).toBe(2);
    expect(list.body.data.hasMore).toBe(false);
    expect(list.body.data.list.map((e: { engineName: string }) => e.engineName)).toEqual(['测试科技有限公司', '第二组织']);
    expect(list.body.data.list.every((e: { isPrimary: boolean }) => e.isPrimary)).toBe(true);
    const firstPage = await call(t.app, 'GET', '/v1/engine/connected', { token: p.token, query: { pageIndex: '0', pageSize: '1' } });
    expect(firstPage.body.data).toMatchObject({ total: 2, hasMore: true });
    const secondPage = await call(t.app, 'GET', '/v1/engine/connected', { token: p.token, query: { pageIndex: '1', pageSize: '1' } });
    expect(secondPage.body.data.list[0].engineName).toBe('第二组织');
    expect(secondPage.body.data.hasMore).toBe(false);
  });

  it('adds an engine to an existing account proven by code, without a new password', async () => {
    const p = await registerPerson(t.app);
    await forgetRecentCodes(t.database, p.mobile);
    await call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile: p.mobile, scene: 'register' } });
    const res = await call(t.app, 'POST', '/v1/register/engine', { body: { mobile: p.mobile, code: FIXED_CODE, engineName: '另一家' } });
    expect(res.body.successful).toBe(true);
    // The old password still works: registering did not touch the account.
    const login = await call(t.app, 'POST', '/v1/login/mobile/password', { body: { mobile: p.mobile, password: p.password } });
    expect(login.body.successful).toBe(true);
  });

  it('asks a new number for name and password (777) and writes nothing', async () => {
    const mobile = uniqueMobile();
    await call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile, scene: 'register' } });
    const before = await countRows();
    const res = await call(t.app, 'POST', '/v1/register/engine', { body: { mobile, code: FIXED_CODE, engineName: '缺少密码' } });
    expect(res.body.errorCode).toBe(777);
    expect(res.body.detail.issues.map((i: { path: string }) => i.path).sort()).toEqual(['password', 'userName']);
    expect(await countRows()).toEqual(before);
    // The code was not spent: the corrected request goes through.
    const ok = await call(t.app, 'POST', '/v1/register/engine', { body: { mobile, code: FIXED_CODE, engineName: '补全信息', password: 'Passw0rd1', userName: '赵六' } });
    expect(ok.body.successful).toBe(true);
  });

  it('refuses a wrong code (201101) and writes nothing', async () => {
    const mobile = uniqueMobile();
    await call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile, scene: 'register' } });
    const before = await countRows();
    const res = await call(t.app, 'POST', '/v1/register/engine', { body: { mobile, code: '999999', engineName: '错误验证码', password: 'Passw0rd1', userName: '钱七' } });
    expect(res.body.errorCode).toBe(201101);
    expect(await countRows()).toEqual(before);
  });

  it('refuses an unknown scale with 777', async () => {
    const p = await registerPerson(t.app);
    const res = await call(t.app, 'POST', '/v1/register/engine', { token: p.token, body: { engineName: '规模不对', scale: '7-8' } });
    expect(res.body.errorCode).toBe(777);
    expect(res.body.detail.issues[0].path).toBe('scale');
  });
});

describe('switching engines', () => {
  it('remembers the chosen engine for the next sign-in', async () => {
    const p = await registerPerson(t.app);
    const second = (await call(t.app, 'POST', '/v1/register/engine', { token: p.token, body: { engineName: '切换目标' } })).body.data.engineCode;
    expect((await call(t.app, 'PUT', '/v1/engine/current', { token: p.token, body: { engineCode: p.engineCode } })).body.successful).toBe(true);
    let login = await call(t.app, 'POST', '/v1/login/mobile/password', { body: { mobile: p.mobile, password: p.password } });
    expect(login.body.data.engineCode).toBe(p.engineCode);
    await call(t.app, 'PUT', '/v1/engine/current', { token: p.token, body: { engineCode: second } });
    login = await call(t.app, 'POST', '/v1/login/mobile/password', { body: { mobile: p.mobile, password: p.password } });
    expect(login.body.data.engineCode).toBe(second);
    const current = await call(t.app, 'GET', '/v1/engine/current', { token: p.token, engineCode: second });
    expect(current.body.data).toMatchObject({ engineCode: second, engineName: '切换目标', isPrimary: true });
  });

  it('refuses to switch into an engine the account is not in (403)', async () => {
    const a = await registerPerson(t.app);
    const b = await registerPerson(t.app);
    const res = await call(t.app, 'PUT', '/v1/engine/current', { token: a.token, body: { engineCode: b.engineCode } });
    expect(res.status).toBe(403);
    expect(res.body.errorCode).toBe(100405);
  });
});

describe('feature switches', () => {
  it('answers every asked name with the engine value or the default', async () => {
    const p = await registerPerson(t.app);
    await t.database.db.insertInto('platform.feature_switches').values({ engine_code: p.engineCode, name: 'kanbanView', value: '0' }).execute();
    const res = await call(t.app, 'POST', '/v1/switch/batch', { token: p.token, engineCode: p.engineCode, body: { names: ['kanbanView', 'businessRule', 'ai', 'noSuchSwitch'] } });
    expect(res.body.data.switches).toEqual([
      { name: 'kanbanView', value: '0' },
      { name: 'businessRule', value: FEATURE_SWITCH_DEFAULTS.businessRule },
      { name: 'ai', value: FEATURE_SWITCH_DEFAULTS.ai },
      { name: 'noSuchSwitch', value: '0' },
    ]);
    expect(FEATURE_SWITCH_DEFAULTS.businessRule).toBe('1');
  });
});
