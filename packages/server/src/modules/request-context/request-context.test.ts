import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@tritium/shared';
import { call, createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { addMember, createApp, createRole, grant, nodeClient, orgClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';

// test-databases: both — the context statement and the version triggers (docs/testing.md "Runs on both databases").

// The request context (docs/decisions/0032): a sign-out, a disabled user, a role taken away, a disabled engine, a
// republished or removed form take effect on the very next request — in the app that made the change and in a second
// app (a second server process) on the same database, whose caches were warm.

let one: TestApp, two: TestApp, admin: Person, a: OrgClient, appCode: string;
const SCHEMA = 'D000032ctx';
const FORM = [
  { type: 'textBox', code: 'Title' },
  { type: 'number', code: 'Amount' },
];

beforeAll(async () => {
  one = await createTestApp();
  two = await createTestApp({ database: one.database });
  admin = await registerPerson(one.app);
  a = nodeClient(one.app, admin);
  appCode = (await createApp(a)).code;
  await createForm(a, appCode, { code: SCHEMA });
  await publish(a, SCHEMA, definition(FORM));
});
afterAll(async () => {
  await two.close();
  await one.close();
});

const list = (t: TestApp, p: Person, schemaCode = SCHEMA) =>
  call(t.app, 'POST', '/v1/bizdata/query', { token: p.token, engineCode: p.engineCode, body: { schemaCode, pageIndex: 0, pageSize: 20 } });
const errorOf = (res: { body: any }) => res.body?.errorCode ?? 0;

/** A member who may open the app through a role of theirs; answers the member and the role. */
async function memberThroughRole() {
  const member = await addMember(one, admin);
  const roleId = await createRole(one, admin, [member.userId]);
  await grant(a, appCode, roleId, 'access');
  return { member, roleId };
}

const pairs: [string, () => TestApp, () => TestApp][] = [
  ['in the app that made the change', () => one, () => one],
  ['in a second app on the same database', () => one, () => two],
];

describe.each(pairs)('the very next request, %s', (_label, changer, checker) => {
  it('refuses a token signed out', async () => {
    const { member } = await memberThroughRole();
    expect(errorOf(await list(checker(), member))).toBe(0);
    const out = await call(changer().app, 'GET', '/Login/Logout', { token: member.token });
    expect(out.body.successful).toBe(true);
    const res = await list(checker(), member);
    expect([res.status, errorOf(res)]).toEqual([401, ERRORS.NotAuth.code]);
  });

  it('refuses a user disabled', async () => {
    const { member } = await memberThroughRole();
    expect(errorOf(await list(checker(), member))).toBe(0);
    await orgClient(changer().app, admin).post('/v1/org/user/disable', { id: member.userId });
    expect(errorOf(await list(checker(), member))).toBe(ERRORS.UserDisabled.code);
    // Enabled again: admitted again at once.
    await orgClient(changer().app, admin).post('/v1/org/user/enable', { id: member.userId });
    expect(errorOf(await list(checker(), member))).toBe(0);
  });

  it('takes away what a role gave', async () => {
    const { member, roleId } = await memberThroughRole();
    expect(errorOf(await list(checker(), member))).toBe(0);
    await orgClient(changer().app, admin).post('/v1/org/role/member/remove', { roleId, userIds: [member.userId] });
    expect(errorOf(await list(checker(), member))).toBe(ERRORS.FunctionNodeNotFound.code);
  });

  it('refuses an engine disabled', async () => {
    const owner = await registerPerson(changer().app, { engineName: '将停用的公司' });
    const info = () => call(checker().app, 'GET', '/v1/user/info', { token: owner.token, engineCode: owner.engineCode });
    expect((await info()).body.successful).toBe(true);
    // No API disables an engine (operators do, in the platform tables); the change is the database's either way.
    await changer().database.db.updateTable('platform.engines').set({ state: 'disabled' }).where('engine_code', '=', owner.engineCode).execute();
    const res = await info();
    expect([res.status, errorOf(res)]).toEqual([403, ERRORS.EngineDisabled.code]);
  });

  it('answers with the form as last published, and not at all once removed', async () => {
    const code = `${SCHEMA}${checker() === one ? 'a' : 'b'}`;
    await createForm(a, appCode, { code });
    await publish(a, code, definition(FORM));
    const create = (values: Record<string, unknown>) =>
      call(checker().app, 'POST', '/v1/form/action/execute', { token: admin.token, engineCode: admin.engineCode, body: { schemaCode: code, actionCode: 'Submit', values } });
    expect(errorOf(await create({ Title: '一' }))).toBe(0);
    expect(errorOf(await create({ Title: '二', Extra: 'x' }))).not.toBe(0);
    await publish(nodeClient(changer().app, admin), code, definition([...FORM, { type: 'textBox', code: 'Extra' }]));
    const created = await create({ Title: '三', Extra: '新字段' });
    expect(errorOf(created)).toBe(0);
    const page = await list(checker(), admin, code);
    expect(page.body.data.list.map((r: { Extra?: string }) => r.Extra)).toContain('新字段');
    await nodeClient(changer().app, admin).post('/v1/functionnode/remove', { code });
    expect(errorOf(await list(checker(), admin, code))).toBe(ERRORS.FunctionNodeNotFound.code);
  });
});
