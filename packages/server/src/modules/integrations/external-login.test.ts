import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { companyIdOf, orgClient, type Person } from '../../../test/org-helpers.ts';
import { invokeApi, issueSecret } from '../../../test/open-api-helpers.ts';

// External login codes (docs/decisions/0073): the open API issues a one-use code for a user of the engine; the web page
// /entry/login/ext signs the person in with it (POST /v1/external/login), bound to that engine.

let t: TestApp;
let admin: Person;
let member: { userId: string };
/** The engine the member registered for themselves. */
let ownEngine: string;
let secret: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerPerson(t.app);
  const person = await registerPerson(t.app, { userName: '外部来客', engineName: '来客自己的公司' });
  ownEngine = person.engineCode;
  const created = await orgClient(t.app, admin).post('/v1/org/user/create', { name: '外部来客', mobile: person.mobile, departmentIds: [await companyIdOf(t, admin.engineCode)] });
  member = { userId: created.id as string };
  secret = (await issueSecret(orgClient(t.app, admin))).value;
});
afterAll(() => t?.close());

const issue = (body: Record<string, unknown>) => invokeApi(t.app, admin.engineCode, secret, { ActionName: 'CreateExternalLoginCode', ...body });
const login = (code: string, engineCode = admin.engineCode) => call(t.app, 'POST', '/v1/external/login', { body: { code, engineCode } });

describe('external login codes', () => {
  it('sign the code’s user in once, into that engine only', async () => {
    const issued = await issue({ UserId: member.userId });
    expect(issued.body.Successful, JSON.stringify(issued.body)).toBe(true);
    const { Code, ExpiresIn, LoginPath } = issued.body.ReturnData;
    expect(ExpiresIn).toBe(300);
    expect(LoginPath).toBe(`/entry/login/ext?engineCode=${admin.engineCode}&externalCode=${Code}`);

    const signedIn = await login(Code);
    expect(signedIn.body.successful, JSON.stringify(signedIn.body)).toBe(true);
    expect(signedIn.body.data.engineCode).toBe(admin.engineCode);
    const token = signedIn.body.data.accessToken as string;
    const info = await call(t.app, 'GET', '/v1/user/info', { token, engineCode: admin.engineCode });
    expect(JSON.stringify(info.body.data)).toContain(member.userId);
    // The member's own engine is not opened by this session.
    expect((await call(t.app, 'GET', '/v1/user/info', { token, engineCode: ownEngine })).body.errorCode).toBe(100405);

    // Once: the same code again is refused.
    expect((await login(Code)).body.errorCode).toBe(201001);
  });

  it('refuse unknown, expired and another engine’s codes alike, and a code asked for someone not in the engine', async () => {
    expect((await login('no-such-code')).body.errorCode).toBe(201001);
    const forOther = (await issue({ UserId: member.userId })).body.ReturnData.Code as string;
    expect((await login(forOther, ownEngine)).body.errorCode).toBe(201001);
    // Named with the wrong engine, the code is spent: it does not work for its own engine afterwards either.
    expect((await login(forOther)).body.errorCode).toBe(201001);

    const short = (await issue({ UserId: member.userId, ExpiresInSeconds: 30 })).body.ReturnData.Code as string;
    await t.database.db.updateTable('platform.sign_in_flows').set({ expires_at: new Date(Date.now() - 1000) }).where('state', '=', short).execute();
    expect((await login(short)).body.errorCode).toBe(201001);

    expect((await issue({ UserId: 'no-such-user' })).body.ErrorCode).toBe(200501);
    for (const seconds of [5, 601, 'soon']) expect((await issue({ UserId: member.userId, ExpiresInSeconds: seconds })).body.ErrorCode).toBe(320003);
    expect((await invokeApi(t.app, admin.engineCode, 'wrong-secret', { ActionName: 'CreateExternalLoginCode', UserId: member.userId })).body.ErrorCode).toBe(320001);
  });
});
