import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { call, createTestApp, registerPerson, type TestApp } from './helpers.ts';

let t: TestApp;
let person: Awaited<ReturnType<typeof registerPerson>>;
beforeAll(async () => {
  t = await createTestApp();
  person = await registerPerson(t.app);
});
afterAll(() => t.close());

/** Row counts of every platform table and of the engine schemas: a refused request must change none. */
async function snapshot() {
  const tables = ['accounts', 'engines', 'memberships', 'verify_codes', 'revoked_tokens', 'feature_switches', 'error_logs'];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`platform.${table}`)}`.execute(t.database.db);
    counts[table] = r.rows[0].n;
  }
  const accounts = await sql<{ h: string }>`select md5(string_agg(id || coalesce(password_hash, '') || failed_password_count || coalesce(last_engine_code, ''), ',' order by id)) as h from platform.accounts`.execute(t.database.db);
  counts[`accounts:${accounts.rows[0].h}`] = 1;
  return counts;
}

type Case = { name: string; method: string; url: string; body?: unknown; query?: Record<string, string>; auth?: boolean; paths: string[] };

const cases: Case[] = [
  { name: 'send code: bad mobile', method: 'POST', url: '/v1/captcha/verifycode/send', body: { mobile: '12345', scene: 'login' }, paths: ['mobile'] },
  { name: 'send code: unknown scene', method: 'POST', url: '/v1/captcha/verifycode/send', body: { mobile: '13800000000', scene: 'spam' }, paths: ['scene'] },
  { name: 'send code: extra field', method: 'POST', url: '/v1/captcha/verifycode/send', body: { mobile: '13800000000', scene: 'login', admin: true }, paths: [''] },
  { name: 'password login: missing password', method: 'POST', url: '/v1/login/mobile/password', body: { mobile: '13800000000' }, paths: ['password'] },
  { name: 'password login: 10-digit mobile', method: 'POST', url: '/v1/login/mobile/password', body: { mobile: '1380000000', password: 'x' }, paths: ['mobile'] },
  { name: 'tokens/password: bad engine code', method: 'POST', url: '/v1/login/tokens/password', body: { mobile: '13800000000', password: 'x', engineCode: 'DROP TABLE' }, paths: ['engineCode'] },
  { name: 'code login: 5-digit code', method: 'GET', url: '/v1/login/mobile/verifycode', query: { mobile: '13800000000', code: '12345' }, paths: ['code'] },
  { name: 'code login: no mobile', method: 'GET', url: '/v1/login/mobile/verifycode', query: { code: '123456' }, paths: ['mobile'] },
  { name: 'reset: short password', method: 'PUT', url: '/v1/login/password/reset', body: { mobile: '13800000000', code: '123456', password: 'a1' }, paths: ['password'] },
  { name: 'reset: letters-only password', method: 'PUT', url: '/v1/login/password/reset', body: { mobile: '13800000000', code: '123456', password: 'abcdefghij' }, paths: ['password'] },
  { name: 'guest: no engine', method: 'POST', url: '/v1/login/h3/guest', body: {}, paths: ['engineCode'] },
  { name: 'validate: bad mobile', method: 'GET', url: '/v1/register/validate', query: { mobile: 'abc' }, paths: ['mobile'] },
  { name: 'register: one-char engine name', method: 'POST', url: '/v1/register/engine', body: { mobile: '13800000000', code: '123456', engineName: '甲' }, paths: ['engineName'] },
  { name: 'register: 33-char engine name', method: 'POST', url: '/v1/register/engine', body: { mobile: '13800000000', code: '123456', engineName: '公'.repeat(33) }, paths: ['engineName'] },
  { name: 'register: weak password', method: 'POST', url: '/v1/register/engine', body: { mobile: '13800000000', code: '123456', engineName: '某公司', password: '1234567890' }, paths: ['password'] },
  { name: 'register: missing mobile and code', method: 'POST', url: '/v1/register/engine', body: { engineName: '某公司' }, paths: ['mobile', 'code'] },
  { name: 'connected: negative page', method: 'GET', url: '/v1/engine/connected', query: { pageIndex: '-1' }, auth: true, paths: ['pageIndex'] },
  { name: 'connected: page size 501', method: 'GET', url: '/v1/engine/connected', query: { pageSize: '501' }, auth: true, paths: ['pageSize'] },
  { name: 'switch engine: bad code', method: 'PUT', url: '/v1/engine/current', body: { engineCode: '../etc' }, auth: true, paths: ['engineCode'] },
  { name: 'switches: empty names', method: 'POST', url: '/v1/switch/batch', body: { names: [] }, auth: true, paths: ['names'] },
  { name: 'log: unknown level', method: 'POST', url: '/v1/log', body: { Content: 'x', LogTime: 'now', Level: 'Fatal' }, paths: ['Level'] },
  { name: 'log: 11 breadcrumbs', method: 'POST', url: '/v1/log', body: { Content: 'x', LogTime: 'now', Level: 'Error', BreadCrumb: Array(11).fill('/a') }, paths: ['BreadCrumb'] },
  { name: 'external login: no code', method: 'POST', url: '/v1/external/login', body: { engineCode: 'abcd1234' }, paths: ['code'] },
];

describe('bad input is answered with 777, names the fields, and writes nothing', () => {
  it.each(cases)('$name', async (c) => {
    const before = await snapshot();
    const res = await call(t.app, c.method, c.url, {
      body: c.body,
      query: c.query,
      ...(c.auth ? { token: person.token, engineCode: person.engineCode } : {}),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ successful: false, errorCode: 777, errorType: 'BIZ' });
    const paths = res.body.detail.issues.map((i: { path: string }) => i.path);
    for (const p of c.paths) {
      if (p) expect(paths).toContain(p);
    }
    expect(res.body.detail.issues.every((i: { message: string }) => typeof i.message === 'string' && i.message.length > 0)).toBe(true);
    expect(await snapshot()).toEqual(before);
  });

  it('answers a body that is not JSON with 777', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/login/mobile/password', headers: { 'content-type': 'application/json' }, payload: '{"mobile":' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ successful: false, errorCode: 777 });
  });
});
