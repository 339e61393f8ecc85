import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FIXED_CODE, registerPerson } from '../../../test/helpers.ts';
import { addInvitedMember, engineDb, openOrgEngine, orgClient, orgSnapshot, uniqueMobile, type OrgClient, type Person } from '../../../test/org-helpers.ts';
import type { TestApp } from '../../../test/helpers.ts';

// Invitation links (docs/decisions/0112): issued by Administrators, opened by anyone, joining by a proven number.

let t: TestApp;
let admin: Person;
let org: OrgClient;
let companyId: string;
let salesId: string;

beforeAll(async () => {
  ({ t, admin, org, companyId } = await openOrgEngine('林管理', '链邀科技'));
  salesId = (await org.post('/v1/org/department/create', { parentId: companyId, name: '销售部' })).id;
});
afterAll(() => t.close());

const createLink = (body: Record<string, unknown> = { validDays: 7, departmentId: salesId }) => org.post('/v1/org/invitation/link/create', body);
const info = (token: string) => call(t.app, 'GET', '/v1/org/invitation/link/info', { query: { token } });
const join = (body: Record<string, unknown>, token?: string) => call(t.app, 'POST', '/v1/org/invitation/link/join', { body, token });
const linkRow = (id: string) => t.database.db.selectFrom('platform.invitation_links').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function sendRegisterCode(mobile: string) {
  const sent = await call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile, scene: 'register' } });
  expect(sent.body.successful).toBe(true);
}

describe('invitation links', () => {
  it('creates a link with an unguessable token, stored only as its hash, and lists it', async () => {
    const before = Date.now();
    const created = await createLink();
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.link).toBe(`/entry/join/${created.token}`);
    expect(created).toMatchObject({ state: 'active', departmentId: salesId, departmentName: '销售部', creatorName: '林管理', joinCount: 0, revokedTime: null });
    const days = (new Date(created.expiresTime).getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    const row = await linkRow(created.id);
    expect(row.token_hash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.token);
    const { list } = await org.get('/v1/org/invitation/link/list');
    expect(list[0]).toMatchObject({ id: created.id, state: 'active' });
    expect(list[0].token).toBeUndefined();
    const shown = await info(created.token);
    expect(shown.body.data).toEqual({ engineName: '链邀科技', inviterName: '林管理', departmentName: '销售部', expiresTime: created.expiresTime });
  });

  it('lets a new person join by mobile and code, as a member of the link department, and counts the join', async () => {
    const { token, id } = await createLink();
    const mobile = uniqueMobile();
    await sendRegisterCode(mobile);
    const res = await join({ token, mobile, code: FIXED_CODE, userName: '新同事', password: 'Passw0rd1' });
    expect(res.body.successful).toBe(true);
    expect(res.body.data).toMatchObject({ engineCode: admin.engineCode, alreadyMember: false, authType: 3 });
    const edb = engineDb(t.database.db, admin.engineCode);
    const user = await edb.selectFrom('org_users').selectAll().where('mobile', '=', mobile).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ name: '新同事', auth_type: 3, main_department_id: salesId, is_external: false, state: 'active' });
    expect(user.account_id).not.toBeNull();
    const me = await call(t.app, 'GET', '/v1/user/info', { token: res.body.data.accessToken, engineCode: admin.engineCode });
    expect(me.body.data.user).toMatchObject({ isAdmin: false });
    expect((await linkRow(id)).join_count).toBe(1);
    // The password chosen on the join page works.
    expect((await call(t.app, 'POST', '/v1/login/mobile/password', { body: { mobile, password: 'Passw0rd1' } })).body.successful).toBe(true);
  });

  it('lets an existing account join signed in, or by code; a second join changes nothing', async () => {
    const { token, id } = await createLink({ validDays: 1 });
    const someone = await registerPerson(t.app, { userName: '老账号', engineName: '别家公司' });
    const first = await join({ token }, someone.token);
    expect(first.body.data).toMatchObject({ engineCode: admin.engineCode, alreadyMember: false });
    const user = await engineDb(t.database.db, admin.engineCode).selectFrom('org_users').selectAll().where('mobile', '=', someone.mobile).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ name: '老账号', main_department_id: companyId });
    const again = await join({ token }, someone.token);
    expect(again.body.data).toMatchObject({ engineCode: admin.engineCode, alreadyMember: true });
    expect((await linkRow(id)).join_count).toBe(1);

    const other = await registerPerson(t.app, { userName: '验证码加入', engineName: '另一家' });
    await t.database.db.updateTable('platform.verify_codes').set({ created_time: new Date(Date.now() - 120_000) }).where('mobile', '=', other.mobile).execute();
    await sendRegisterCode(other.mobile);
    const byCode = await join({ token, mobile: other.mobile, code: FIXED_CODE });
    expect(byCode.body.data).toMatchObject({ engineCode: admin.engineCode, alreadyMember: false });
    expect((await linkRow(id)).join_count).toBe(2);
  });

  it('gives a number the administrator added already its waiting user', async () => {
    const { token } = await createLink({ validDays: 7 });
    const mobile = uniqueMobile();
    const added = await org.post('/v1/org/user/invite', { mobile, name: '预先添加', departmentId: salesId });
    await sendRegisterCode(mobile);
    const res = await join({ token, mobile, code: FIXED_CODE, userName: '自己填的名字' });
    expect(res.body.data.alreadyMember).toBe(false);
    const users = await engineDb(t.database.db, admin.engineCode).selectFrom('org_users').selectAll().where('mobile', '=', mobile).execute();
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ id: added.id, name: '预先添加' });
    expect(users[0].account_id).not.toBeNull();
  });

  it('refuses an expired link clearly and changes nothing', async () => {
    const { token, id } = await createLink();
    await t.database.db.updateTable('platform.invitation_links').set({ expires_time: new Date(Date.now() - 1000) }).where('id', '=', id).execute();
    expect((await info(token)).body).toMatchObject({ successful: false, errorCode: 220018, errorMessage: '邀请链接已过期，请向管理员索取新的链接' });
    const mobile = uniqueMobile();
    await sendRegisterCode(mobile);
    const before = await orgSnapshot(t, admin.engineCode);
    const res = await join({ token, mobile, code: FIXED_CODE, userName: '迟到者' });
    expect(res.status).toBe(200);
    expect(res.body.errorCode).toBe(220018);
    expect(await orgSnapshot(t, admin.engineCode)).toEqual(before);
    const en = await call(t.app, 'GET', '/v1/org/invitation/link/info', { query: { token }, headers: { 'accept-language': 'en-US' } });
    expect(en.body).toMatchObject({ errorCode: 220018, errorMessage: 'This invitation link has expired: ask the administrator for a new one' });
    expect((await org.get('/v1/org/invitation/link/list')).list.find((l: { id: string }) => l.id === id).state).toBe('expired');
  });

  it('turns a link off: it is refused at once and changes nothing', async () => {
    const { token, id } = await createLink();
    const revoked = await org.post('/v1/org/invitation/link/revoke', { id });
    expect(revoked).toMatchObject({ id, state: 'revoked' });
    expect(revoked.revokedTime).not.toBeNull();
    expect((await info(token)).body.errorCode).toBe(220019);
    const someone = await registerPerson(t.app, { userName: '被拒者' });
    const before = await orgSnapshot(t, admin.engineCode);
    const res = await join({ token }, someone.token);
    expect(res.body).toMatchObject({ successful: false, errorCode: 220019, errorMessage: '邀请链接已被管理员关闭' });
    expect(await orgSnapshot(t, admin.engineCode)).toEqual(before);
    expect((await linkRow(id)).join_count).toBe(0);
    expect((await info('A'.repeat(43))).body.errorCode).toBe(220017);
  });

  it('refuses members who are not Administrators', async () => {
    const member = await addInvitedMember(t, admin, { name: '普通成员' });
    const { id } = await createLink();
    const asMember = orgClient(t.app, member);
    for (const [method, url, body] of [
      ['POST', '/v1/org/invitation/link/create', { validDays: 7 }],
      ['GET', '/v1/org/invitation/link/list', undefined],
      ['POST', '/v1/org/invitation/link/revoke', { id }],
    ] as const) {
      const res = await asMember.raw(method, url, body);
      expect(res.status).toBe(403);
      expect(res.body.errorCode).toBe(100403);
    }
    expect((await linkRow(id)).revoked_time).toBeNull();
  });

  it('keeps every engine to its own links', async () => {
    const { token, id } = await createLink();
    const otherAdmin = await registerPerson(t.app, { userName: '他家管理员', engineName: '他家' });
    const other = orgClient(t.app, otherAdmin);
    const res = await other.raw('POST', '/v1/org/invitation/link/revoke', { id });
    expect(res.body.errorCode).toBe(220017);
    expect((await other.get('/v1/org/invitation/link/list')).list).toEqual([]);
    expect((await linkRow(id)).revoked_time).toBeNull();
    // A department of another engine cannot be the link's department.
    const foreign = await other.raw('POST', '/v1/org/invitation/link/create', { validDays: 7, departmentId: salesId });
    expect(foreign.body.errorCode).toBe(220001);
    // The token joins its own engine, whatever engine the caller names.
    const joined = await call(t.app, 'POST', '/v1/org/invitation/link/join', { body: { token }, token: otherAdmin.token, engineCode: otherAdmin.engineCode });
    expect(joined.body.data.engineCode).toBe(admin.engineCode);
  });

  it('answers bad input with 777, never a 5xx, and writes nothing', async () => {
    const { token } = await createLink();
    const before = await orgSnapshot(t, admin.engineCode);
    const bad = [
      await org.raw('POST', '/v1/org/invitation/link/create', { validDays: 0 }),
      await org.raw('POST', '/v1/org/invitation/link/create', { validDays: 31 }),
      await org.raw('POST', '/v1/org/invitation/link/create', { validDays: '7' }),
      await org.raw('POST', '/v1/org/invitation/link/create', { validDays: 7, extra: 1 }),
      await org.raw('POST', '/v1/org/invitation/link/revoke', { id: 'no such id!' }),
      await info('bad token!'),
      await call(t.app, 'GET', '/v1/org/invitation/link/info'),
      await join({ token }),
      await join({ token, mobile: '123', code: FIXED_CODE }),
      await join({ token: '' }),
    ];
    for (const res of bad) {
      expect(res.status).toBe(200);
      expect(res.body.errorCode).toBe(777);
    }
    const newcomer = uniqueMobile();
    await sendRegisterCode(newcomer);
    const nameless = await join({ token, mobile: newcomer, code: FIXED_CODE });
    expect(nameless.body.errorCode).toBe(777);
    expect(nameless.body.detail.issues.map((i: { path: string }) => i.path)).toEqual(['userName']);
    expect(await orgSnapshot(t, admin.engineCode)).toEqual(before);
  });
});
