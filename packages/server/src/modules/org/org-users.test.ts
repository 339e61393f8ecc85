import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FIXED_CODE, forgetRecentCodes, registerPerson, uniqueMobile, type TestApp } from '../../../test/helpers.ts';
import { addMember, companyIdOf, openOrgEngine, orgClient, orgSnapshot, type OrgClient, type Person } from '../../../test/org-helpers.ts';
import { engineDb } from '../../db/database.ts';

let t: TestApp;
let admin: Person;
let org: OrgClient;
let companyId: string;

beforeAll(async () => {
  ({ t, admin, org, companyId } = await openOrgEngine('管理员甲', '用户测试公司'));
});
afterAll(() => t.close());

const dept = async (name: string, parentId = companyId) => (await org.post('/v1/org/department/create', { parentId, name })).id as string;
const userInfo = (p: { token: string; engineCode: string }) => call(t.app, 'GET', '/v1/user/info', { token: p.token, engineCode: p.engineCode });

describe('users in several departments with one main', () => {
  it('adds a user to several departments, the main one first', async () => {
    const a = await dept('多部门甲');
    const b = await dept('多部门乙');
    const user = await org.post('/v1/org/user/create', { name: '孙八', mobile: uniqueMobile(), departmentIds: [a, b], mainDepartmentId: b });
    expect(user).toMatchObject({ name: '孙八', unitType: 'User', nodeType: 'user', parentId: b, mainDepartmentId: b, mainDepartmentName: '多部门乙', authType: 3, isJoined: false, state: 'active' });
    expect(user.departments.map((d: { name: string; isMain: boolean }) => [d.name, d.isMain])).toEqual([['多部门乙', true], ['多部门甲', false]]);
    for (const id of [a, b]) {
      const members = await org.post('/v1/org/user/list', { departmentId: id });
      expect(members.list.map((u: { id: string }) => u.id)).toEqual([user.id]);
    }
    const edb = engineDb(t.database.db, admin.engineCode);
    const mains = await edb.selectFrom('org_user_departments').select('department_id').where('user_id', '=', user.id).where('is_main', '=', true).execute();
    expect(mains).toEqual([{ department_id: b }]);
  });

  it('refuses a main department outside the list (777) and a department that does not exist (220001), writing nothing', async () => {
    const a = await dept('主部门校验');
    const before = await orgSnapshot(t, admin.engineCode);
    const res = await org.raw('POST', '/v1/org/user/create', { name: '周九', mobile: uniqueMobile(), departmentIds: [a], mainDepartmentId: companyId });
    expect(res.body).toMatchObject({ errorCode: 777, detail: { issues: [{ path: 'mainDepartmentId' }] } });
    const missing = await org.raw('POST', '/v1/org/user/create', { name: '周九', mobile: uniqueMobile(), departmentIds: [a, 'no-such-dept'] });
    expect(missing.body).toMatchObject({ errorCode: 220001, detail: { ids: ['no-such-dept'] } });
    expect(await orgSnapshot(t, admin.engineCode)).toEqual(before);
  });

  it('changes the main department and replaces the department list', async () => {
    const a = await dept('换主部门甲');
    const b = await dept('换主部门乙');
    const c = await dept('换主部门丙');
    const user = await org.post('/v1/org/user/create', { name: '吴十', mobile: uniqueMobile(), departmentIds: [a, b] });
    expect(user.mainDepartmentId).toBe(a);
    expect((await org.post('/v1/org/user/update', { id: user.id, mainDepartmentId: b })).mainDepartmentId).toBe(b);
    const notMine = await org.raw('POST', '/v1/org/user/update', { id: user.id, mainDepartmentId: c });
    expect(notMine.body.errorCode).toBe(220011);
    // Replacing the list keeps the main department when it stays in the list.
    const replaced = await org.post('/v1/org/user/update', { id: user.id, departmentIds: [c, b] });
    expect(replaced.mainDepartmentId).toBe(b);
    expect(replaced.departments.map((d: { id: string }) => d.id).sort()).toEqual([b, c].sort());
    const again = await org.post('/v1/org/user/update', { id: user.id, departmentIds: [a] });
    expect(again.mainDepartmentId).toBe(a);
  });

  it('moves users out of one department into another; the moved main department follows', async () => {
    const from = await dept('调出部门');
    const to = await dept('调入部门');
    const other = await dept('其他部门');
    const u1 = await org.post('/v1/org/user/create', { name: '郑一', mobile: uniqueMobile(), departmentIds: [from, other] });
    const u2 = await org.post('/v1/org/user/create', { name: '郑二', mobile: uniqueMobile(), departmentIds: [other, from] });
    const moved = await org.post('/v1/org/user/move', { userIds: [u1.id, u2.id], fromDepartmentId: from, toDepartmentId: to });
    expect(moved).toEqual({ changed: 2 });
    const d1 = await org.get('/v1/org/user', { id: u1.id });
    expect(d1.mainDepartmentId).toBe(to);
    expect(d1.departments.map((d: { id: string; isMain: boolean }) => [d.id, d.isMain]).sort()).toEqual([[other, false], [to, true]].sort());
    const d2 = await org.get('/v1/org/user', { id: u2.id });
    expect(d2.mainDepartmentId).toBe(other);
    expect((await org.post('/v1/org/user/list', { departmentId: from })).total).toBe(0);
    // Without fromDepartmentId the target becomes the only department.
    await org.post('/v1/org/user/move', { userIds: [u2.id], toDepartmentId: from });
    const only = await org.get('/v1/org/user', { id: u2.id });
    expect(only.departments.map((d: { id: string }) => d.id)).toEqual([from]);
    // A user not in the source department is named.
    const wrong = await org.raw('POST', '/v1/org/user/move', { userIds: [u1.id], fromDepartmentId: from, toDepartmentId: other });
    expect(wrong.body).toMatchObject({ errorCode: 220011, detail: { userIds: [u1.id] } });
  });

  it('refuses a second user with a mobile number already in the engine (220007)', async () => {
    const mobile = uniqueMobile();
    await org.post('/v1/org/user/create', { name: '重复号码', mobile, departmentIds: [companyId] });
    const dup = await org.raw('POST', '/v1/org/user/create', { name: '重复号码二', mobile, departmentIds: [companyId] });
    expect(dup.body.errorCode).toBe(220007);
    const self = await org.raw('POST', '/v1/org/user/invite', { name: '自己', mobile: admin.mobile });
    expect(self.body.errorCode).toBe(220007);
  });
});

describe('disable and re-enable', () => {
  it('ends a disabled user\'s sessions at once and lets them back in when re-enabled', async () => {
    const member = await addMember(t, admin, { name: '停用测试' });
    expect((await userInfo(member)).status).toBe(200);
    expect(await org.post('/v1/org/user/disable', { id: member.userId })).toEqual({});
    const refused = await userInfo(member);
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(200502);
    // Reads of the organisation are refused too: the same token, the same moment.
    expect((await call(t.app, 'POST', '/v1/org/search', { token: member.token, engineCode: member.engineCode, body: { keyword: '停用' } })).status).toBe(403);
    const listed = await org.post('/v1/org/user/list', { state: 'disabled' });
    expect(listed.list.map((u: { id: string; state: string }) => [u.id, u.state])).toContainEqual([member.userId, 'disabled']);
    expect((await org.post('/v1/org/user/list', {})).list.some((u: { id: string }) => u.id === member.userId)).toBe(false);
    await org.post('/v1/org/user/enable', { id: member.userId });
    expect((await userInfo(member)).status).toBe(200);
  });

  it('does not let an administrator disable themself (220009)', async () => {
    const self = (await userInfo(admin)).body.data.user.userId;
    expect((await org.raw('POST', '/v1/org/user/disable', { id: self })).body.errorCode).toBe(220009);
  });

  it('keeps the last active Administrator: no demotion of the only one (220008); fine once there is another', async () => {
    const p = await registerPerson(t.app, { userName: '唯一管理员', engineName: '单管理员公司' });
    const o = orgClient(t.app, p);
    const me = (await userInfo(p)).body.data.user.userId;
    const demote = await o.raw('POST', '/v1/org/user/update', { id: me, authType: 3 });
    expect(demote.body.errorCode).toBe(220008);
    const second = await addMember(t, p, { name: '第二管理员', authType: 1 });
    expect(second.user.authType).toBe(1);
    // The second administrator may now change the organisation…
    expect((await orgClient(t.app, second).post('/v1/org/department/create', { parentId: await companyIdOf(t, p.engineCode), name: '新部门' })).name).toBe('新部门');
    // …and the first may step down.
    expect((await o.post('/v1/org/user/update', { id: me, authType: 2 })).authType).toBe(2);
    expect((await o.raw('POST', '/v1/org/department/create', { parentId: await companyIdOf(t, p.engineCode), name: '再建' })).status).toBe(403);
    // Now the second is the last one.
    const s = orgClient(t.app, second);
    expect((await s.raw('POST', '/v1/org/user/update', { id: second.userId, authType: 3 })).body.errorCode).toBe(220008);
  });

  it('gives the auth types of domain.md §6 and refuses Anonymous (777)', async () => {
    for (const authType of [1, 2, 3, 6]) {
      const u = await org.post('/v1/org/user/create', { name: `类型${authType}`, mobile: uniqueMobile(), departmentIds: [companyId], authType });
      expect(u.authType).toBe(authType);
    }
    const anon = await org.raw('POST', '/v1/org/user/create', { name: '匿名', mobile: uniqueMobile(), departmentIds: [companyId], authType: 4 });
    expect(anon.body).toMatchObject({ errorCode: 777, detail: { issues: [{ path: 'authType' }] } });
    const listed = await org.post('/v1/org/user/list', { authTypes: [6] });
    expect(listed.list.map((u: { name: string }) => u.name)).toEqual(['类型6']);
  });
});

describe('invitations', () => {
  it('a new number registers and lands in the inviting engine with the invited name and department', async () => {
    const sales = await dept('邀请部门');
    const mobile = uniqueMobile();
    const invited = await org.post('/v1/org/user/invite', { mobile, name: '受邀者', departmentId: sales });
    expect(invited).toMatchObject({ isJoined: false, mainDepartmentId: sales, name: '受邀者' });
    const inv = await t.database.db.selectFrom('platform.invitations').selectAll().where('mobile', '=', mobile).execute();
    expect(inv).toEqual([expect.objectContaining({ engine_code: admin.engineCode, user_id: invited.id })]);

    const person = await registerPerson(t.app, { mobile, userName: '自己填的名字', engineName: '自己的公司' });
    const inOrg = await call(t.app, 'GET', '/v1/user/info', { token: person.token, engineCode: admin.engineCode });
    expect(inOrg.body.data.user).toMatchObject({ userId: invited.id, name: '受邀者', authType: 3, isExternal: false });
    expect(inOrg.body.data.currentEngine.isPrimary).toBe(true);
    const self = await orgClient(t.app, { token: person.token, engineCode: admin.engineCode }).get('/v1/org/user');
    expect(self).toMatchObject({ id: invited.id, name: '受邀者', mainDepartmentId: sales, mainDepartmentName: '邀请部门', isJoined: true });
    expect((await org.get('/v1/org/user', { id: invited.id })).isJoined).toBe(true);
    expect(await t.database.db.selectFrom('platform.invitations').selectAll().where('mobile', '=', mobile).execute()).toEqual([]);
    const engines = await call(t.app, 'GET', '/v1/engine/connected', { token: person.token });
    expect(engines.body.data.total).toBe(2);
  });

  it('an existing account joins at once; its next sign-in can start in the engine', async () => {
    const person = await registerPerson(t.app, { userName: '已有账号' });
    const d = await dept('即时加入');
    const user = await org.post('/v1/org/user/create', { name: '已有账号的成员', mobile: person.mobile, departmentIds: [d] });
    expect(user.isJoined).toBe(true);
    const info = await call(t.app, 'GET', '/v1/user/info', { token: person.token, engineCode: admin.engineCode });
    expect(info.body.data.user).toMatchObject({ userId: user.id, name: '已有账号的成员' });
    const login = await call(t.app, 'POST', '/v1/login/mobile/password', { body: { mobile: person.mobile, password: person.password, engineCode: admin.engineCode } });
    expect(login.body.data).toMatchObject({ engineCode: admin.engineCode, authType: 3 });
  });

  it('correcting an invited number to one that has an account joins at once; then the number is locked', async () => {
    // The admin first types a wrong number, then corrects it to the number of an existing account.
    const person = await registerPerson(t.app, { userName: '改号者' });
    await t.database.db.deleteFrom('platform.invitations').execute();
    const wrong = uniqueMobile();
    const user = await org.post('/v1/org/user/invite', { mobile: wrong, name: '改号者' });
    expect(user.isJoined).toBe(false);
    const fixed = await org.post('/v1/org/user/update', { id: user.id, mobile: person.mobile });
    expect(fixed.isJoined).toBe(true);
    expect(await t.database.db.selectFrom('platform.invitations').selectAll().where('engine_code', '=', admin.engineCode).execute()).toEqual([]);
    // Once joined the number is locked.
    expect((await org.raw('POST', '/v1/org/user/update', { id: user.id, mobile: uniqueMobile() })).body.errorCode).toBe(220010);
  });

  it('a code sign-in of an invited number with an account claims the invitation', async () => {
    const person = await registerPerson(t.app, { userName: '验证码登录者' });
    // The account exists, but the invitation was recorded as if it did not (e.g. the account was made afterwards).
    const edb = engineDb(t.database.db, admin.engineCode);
    const user = await org.post('/v1/org/user/invite', { mobile: uniqueMobile(), name: '验证码登录者' });
    await edb.updateTable('org_users').set({ mobile: person.mobile }).where('id', '=', user.id).execute();
    await t.database.db.updateTable('platform.invitations').set({ mobile: person.mobile }).where('user_id', '=', user.id).execute();
    await forgetRecentCodes(t.database, person.mobile);
    await call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile: person.mobile, scene: 'login' } });
    const login = await call(t.app, 'GET', '/v1/login/mobile/verifycode', { query: { mobile: person.mobile, code: FIXED_CODE, engineCode: admin.engineCode } });
    expect(login.body.data).toMatchObject({ engineCode: admin.engineCode, authType: 3 });
    const member = await t.database.db.selectFrom('platform.memberships').select(['user_id', 'is_external']).where('engine_code', '=', admin.engineCode).where('user_id', '=', user.id).executeTakeFirst();
    expect(member).toEqual({ user_id: user.id, is_external: false });
  });

  it('an external user joins as an external member (not primary)', async () => {
    const { EXTERNAL_ROOT_NODE_ID } = await import('@tritium/shared/constants/org');
    const person = await registerPerson(t.app, { userName: '外部人' });
    const partner = await dept('外部客户', EXTERNAL_ROOT_NODE_ID);
    const user = await org.post('/v1/org/user/create', { name: '外部人', mobile: person.mobile, departmentIds: [partner] });
    expect(user).toMatchObject({ isExternal: true, authType: 5, isJoined: true });
    const info = await call(t.app, 'GET', '/v1/user/info', { token: person.token, engineCode: admin.engineCode });
    expect(info.body.data.user).toMatchObject({ isExternal: true, authType: 5 });
    expect(info.body.data.currentEngine.isPrimary).toBe(false);
  });
});

describe('the caller', () => {
  it('GET /v1/org/user without id answers the caller', async () => {
    const me = await org.get('/v1/org/user');
    expect(me).toMatchObject({ name: '管理员甲', authType: 1, isJoined: true, mainDepartmentId: companyId });
    expect(me.departments).toEqual([{ id: companyId, name: '用户测试公司', isMain: true, isManager: false, isExternal: false }]);
  });
});

describe('an invited number new to the platform', () => {
  it('signs in by verification code, gets its account with the invited name and lands in the engine', async () => {
    const admin = await registerPerson(t.app, { engineName: '邀请测试公司' });
    const mobile = uniqueMobile();
    const invite = await call(t.app, 'POST', '/v1/org/user/invite', { token: admin.token, engineCode: admin.engineCode, body: { mobile, name: '孙八' } });
    expect(invite.body.successful).toBe(true);
    expect((await call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile, scene: 'login' } })).body.successful).toBe(true);
    const login = await call(t.app, 'GET', '/v1/login/mobile/verifycode', { query: { mobile, code: FIXED_CODE } });
    expect(login.body.data).toMatchObject({ engineCode: admin.engineCode });
    const info = await call(t.app, 'GET', '/v1/user/info', { token: login.body.data.accessToken, engineCode: admin.engineCode });
    expect(info.body.data.user).toMatchObject({ name: '孙八', mobile, isAdmin: false });
    // No password was set: password sign-in is refused until one is set through reset.
    const byPassword = await call(t.app, 'POST', '/v1/login/mobile/password', { body: { mobile, password: 'Passw0rd1' } });
    expect(byPassword.body.errorCode).toBe(201201);
  });

  it('is still unknown (200504) when nobody invited it', async () => {
    const mobile = uniqueMobile();
    expect((await call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile, scene: 'login' } })).body.errorCode).toBe(200504);
    expect((await call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile, scene: 'reset' } })).body.errorCode).toBe(200504);
  });
});
