import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { companyIdOf, orgClient, type Person } from '../../../test/org-helpers.ts';
import { invokeApi, issueSecret } from '../../../test/open-api-helpers.ts';

// Token exchange (decision 0079): a session trades itself for a one-use code; another client trades the code for a
// session of the same account in the same engine — bound to it when the first was — once, within a minute.

let t: TestApp;
let admin: Person;
let person: Person;
let memberId: string;

const exchange = (query: Record<string, string>, session?: { token: string; engineCode: string }) => call(t.app, 'GET', '/v1/token/exchange', { query, ...(session ?? {}) });
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string; eng?: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerPerson(t.app, { userName: '交换管理员' });
  person = await registerPerson(t.app, { userName: '交换成员', engineName: '成员自己的公司' });
  const created = await orgClient(t.app, admin).post('/v1/org/user/create', { name: '交换成员', mobile: person.mobile, departmentIds: [await companyIdOf(t, admin.engineCode)] });
  memberId = created.id as string;
});
afterAll(() => t?.close());

describe('token exchange', () => {
  it('hands a session to another client once: same account, same engine, a new token', async () => {
    const asked = await exchange({ redirectUrl: '/workbench/app/A1' }, { token: person.token, engineCode: admin.engineCode });
    expect(asked.body.successful, JSON.stringify(asked.body)).toBe(true);
    const { code, expiresIn, openPath } = asked.body.data;
    expect(expiresIn).toBe(60);
    expect(openPath).toBe(`/entry/login/exchange?code=${code}&redirectUrl=${encodeURIComponent('/workbench/app/A1')}`);

    const redeemed = await exchange({ code });
    expect(redeemed.body.successful, JSON.stringify(redeemed.body)).toBe(true);
    expect(redeemed.body.data.engineCode).toBe(admin.engineCode);
    const token = redeemed.body.data.accessToken as string;
    expect(token).not.toBe(person.token);
    expect(claimsOf(token).sub).toBe(claimsOf(person.token).sub);
    // Not bound: the person's own engine opens too, as with their first session.
    expect(claimsOf(token).eng).toBeUndefined();
    const info = await call(t.app, 'GET', '/v1/user/info', { token, engineCode: admin.engineCode });
    expect(JSON.stringify(info.body.data)).toContain(memberId);
    expect((await call(t.app, 'GET', '/v1/user/info', { token, engineCode: person.engineCode })).status).toBe(200);

    // Once.
    expect((await exchange({ code })).body.errorCode).toBe(201001);
  });

  it('a session bound to one engine (an outside sign-in) exchanges only for a session bound to it', async () => {
    const secret = (await issueSecret(orgClient(t.app, admin))).value;
    const issued = await invokeApi(t.app, admin.engineCode, secret, { ActionName: 'CreateExternalLoginCode', UserId: memberId });
    const bound = (await call(t.app, 'POST', '/v1/external/login', { body: { code: issued.body.ReturnData.Code, engineCode: admin.engineCode } })).body.data.accessToken as string;
    expect(claimsOf(bound).eng).toBe(admin.engineCode);

    const { code } = (await exchange({}, { token: bound, engineCode: admin.engineCode })).body.data;
    const token = (await exchange({ code })).body.data.accessToken as string;
    expect(claimsOf(token).eng).toBe(admin.engineCode);
    expect((await call(t.app, 'GET', '/v1/user/info', { token, engineCode: admin.engineCode })).status).toBe(200);
    expect((await call(t.app, 'GET', '/v1/user/info', { token, engineCode: person.engineCode })).body.errorCode).toBe(100405);
  });

  it('refuses without a session, another site to go to, an unknown or expired code, and a user disabled since', async () => {
    expect((await exchange({})).status).toBe(401);
    const before = await t.database.db.selectFrom('platform.sign_in_flows').select((e) => e.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    for (const redirectUrl of ['https://elsewhere.example/x', '//elsewhere.example/x', 'a\uFFFDb']) {
      expect((await exchange({ redirectUrl }, { token: person.token, engineCode: admin.engineCode })).body.errorCode).toBe(208006);
    }
    const after = await t.database.db.selectFrom('platform.sign_in_flows').select((e) => e.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    expect((await exchange({ code: 'no-such-code' })).body.errorCode).toBe(201001);

    const late = (await exchange({}, { token: person.token, engineCode: admin.engineCode })).body.data.code as string;
    await t.database.db.updateTable('platform.sign_in_flows').set({ expires_at: new Date(Date.now() - 1000) }).where('state', '=', late).execute();
    expect((await exchange({ code: late })).body.errorCode).toBe(201001);

    const pending = (await exchange({}, { token: person.token, engineCode: admin.engineCode })).body.data.code as string;
    await orgClient(t.app, admin).post('/v1/org/user/disable', { id: memberId });
    const refused = await exchange({ code: pending });
    // The member is disabled in the engine the code was for; the account's own engine is not taken instead.
    expect(refused.body.errorCode, JSON.stringify(refused.body)).toBe(200502);
  });
});
