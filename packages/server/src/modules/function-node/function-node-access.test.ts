import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { companyIdOf } from '../../../test/org-helpers.ts';
import { FunctionNodeType as T, addInvitedMember, createApp, createNode, createRole, createSampleApp, grant, nodeClient, putSort, type OrgClient, type Person } from '../../../test/node-helpers.ts';

// The authorisation matrix (docs/decisions/0004): Administrator, SubAdministrator of an app and of another, member
// with access (directly or by role, on the app or on one node), member without.

let t: TestApp;
let admin: Person;
let a: OrgClient;
let sampleA: Awaited<ReturnType<typeof createSampleApp>>;
let sampleB: Awaited<ReturnType<typeof createSampleApp>>;
let sub: InvitedMember;
let subByRole: InvitedMember;
let member: InvitedMember;
let roleMember: InvitedMember;
let formOnly: InvitedMember;
let outsider: InvitedMember;
let personalAdminGrant: InvitedMember;
type InvitedMember = Awaited<ReturnType<typeof addInvitedMember>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerPerson(t.app);
  a = nodeClient(t.app, admin);
  sampleA = await createSampleApp(a);
  sampleB = await createSampleApp(a);
  sub = await addInvitedMember(t, admin, { name: '子管理员', authType: 2 });
  subByRole = await addInvitedMember(t, admin, { name: '角色子管理员', authType: 2 });
  member = await addInvitedMember(t, admin, { name: '普通成员' });
  roleMember = await addInvitedMember(t, admin, { name: '角色成员' });
  formOnly = await addInvitedMember(t, admin, { name: '表单成员' });
  outsider = await addInvitedMember(t, admin, { name: '无权成员' });
  personalAdminGrant = await addInvitedMember(t, admin, { name: '普通管理授权' });
  await grant(a, sampleA.app.code, sub.userId, 'administrator');
  await grant(a, sampleB.app.code, sub.userId, 'access');
  await grant(a, sampleB.app.code, await createRole(t, admin, [subByRole.userId]), 'administrator');
  await grant(a, sampleA.app.code, member.userId, 'access');
  await grant(a, sampleA.app.code, await createRole(t, admin, [roleMember.userId]), 'create');
  await grant(a, sampleA.form1.code, formOnly.userId, 'access');
  await grant(a, sampleA.app.code, personalAdminGrant.userId, 'administrator');
});
afterAll(() => t.close());

const appCodes = async (p: { token: string; engineCode: string }) => (await nodeClient(t.app, p).get('/v1/functionnode/app/list')).list.map((x: { code: string }) => x.code);
const codes = (list: { code: string }[]) => list.map((n) => n.code);

describe('who sees which app', () => {
  it('Administrators see every app and administer all of them', async () => {
    expect(await appCodes(admin)).toEqual(expect.arrayContaining([sampleA.app.code, sampleB.app.code]));
    const sublist = await a.get('/v1/functionnode/app/subadminapplist');
    expect(codes(sublist.list)).toEqual(expect.arrayContaining([sampleA.app.code, sampleB.app.code]));
    expect(await a.get('/v1/functionnode/app/hascode/list')).toMatchObject({ isAdministrator: true });
  });

  it('a sub-administrator sees the apps granted to them and administers only those granted administrator', async () => {
    const s = nodeClient(t.app, sub);
    expect(await appCodes(sub)).toEqual([sampleA.app.code, sampleB.app.code]);
    expect(codes((await s.get('/v1/functionnode/app/subadminapplist')).list)).toEqual([sampleA.app.code]);
    expect(await s.get('/v1/functionnode/app/hascode/list')).toEqual({ codes: [sampleA.app.code], isAdministrator: false });
    const list = (await s.get('/v1/functionnode/app/list')).list;
    expect(list.map((x: { code: string; isAdmin: boolean }) => [x.code, x.isAdmin])).toEqual([[sampleA.app.code, true], [sampleB.app.code, false]]);
  });

  it('administrator by role works the same way', async () => {
    const s = nodeClient(t.app, subByRole);
    expect(await appCodes(subByRole)).toEqual([sampleB.app.code]);
    expect((await s.get('/v1/functionnode/app/hascode/list')).codes).toEqual([sampleB.app.code]);
  });

  it('a member with access (directly or by role) sees the whole app and administers nothing', async () => {
    for (const p of [member, roleMember]) {
      const m = nodeClient(t.app, p);
      expect(await appCodes(p)).toEqual([sampleA.app.code]);
      expect((await m.get('/v1/functionnode/app/subadminapplist')).list).toEqual([]);
      const features = await m.get('/v1/functionNode/app/feature/list', { appCode: sampleA.app.code });
      expect(features.list).toHaveLength(4);
    }
    const auth = await nodeClient(t.app, roleMember).post('/v1/functionnode/auth/bycodes', { codes: [sampleA.form1.code, sampleB.form1.code] });
    expect(auth.list).toEqual([{ code: sampleA.form1.code, permission: 'create' }, { code: sampleB.form1.code, permission: 'none' }]);
  });

  it('a grant to a department covers its members and the departments below it, and goes when it is removed', async () => {
    const company = await companyIdOf(t, admin.engineCode);
    const parent = (await a.post('/v1/org/department/create', { parentId: company, name: '华南区' })).id as string;
    const child = (await a.post('/v1/org/department/create', { parentId: parent, name: '深圳组' })).id as string;
    const inChild = await addInvitedMember(t, admin, { name: '深圳成员', departmentIds: [child] });
    expect(await appCodes(inChild)).toEqual([]);
    await grant(a, sampleB.app.code, parent, 'access');
    expect(await appCodes(inChild)).toEqual([sampleB.app.code]);
    const listed = await a.post('/v1/functionnode/auth/list', { code: sampleB.app.code });
    expect(listed.list).toEqual(expect.arrayContaining([{ unitId: parent, unitType: 'Department', name: '华南区', permission: 'access' }]));
    await grant(a, sampleB.app.code, parent, 'none');
    expect(await appCodes(inChild)).toEqual([]);
  });

  it('a grant on one form shows the app and the way to that form only', async () => {
    const m = nodeClient(t.app, formOnly);
    const [app] = (await m.get('/v1/functionnode/app/list')).list;
    expect(app.code).toBe(sampleA.app.code);
    expect(app.children.map((n: { code: string }) => n.code)).toEqual([sampleA.group.code]);
    expect(app.children[0].children.map((n: { code: string }) => n.code)).toEqual([sampleA.form1.code]);
    expect(app.defaultSchemaCode).toBe(sampleA.form1.code);
    expect((await m.raw('POST', '/v1/functionnode/list/bycodes', { codes: [sampleA.form2.code] })).body.data.list).toEqual([]);
  });

  it('a user without access neither sees nor opens the app: lists leave it out, every call by code is not found', async () => {
    const o = nodeClient(t.app, outsider);
    expect(await appCodes(outsider)).toEqual([]);
    expect(await o.get('/v1/functionnode/app/status')).toEqual({ hasApp: false, appCount: 0 });
    expect((await o.post('/v1/functionnode/list/bycodes', { codes: [sampleA.app.code, sampleA.form1.code] })).list).toEqual([]);
    expect((await o.post('/v1/functionnode/list/bykeyword', { keyword: sampleA.app.code })).list).toEqual([]);
    expect((await o.post('/v1/functionnode/auth/bycodes', { codes: [sampleA.app.code] })).list).toEqual([{ code: sampleA.app.code, permission: 'none' }]);
    const byCode: [string, string, unknown][] = [
      ['GET', '/v1/functionNode/app/feature/list', { appCode: sampleA.app.code }],
      ['GET', '/v1/functionnode/app/status', { appCode: sampleA.app.code }],
      ['POST', '/v1/functionnode/children', { parentCode: sampleA.app.code }],
      ['POST', '/v1/functionnode/update', { code: sampleA.app.code, displayName: '偷改名称' }],
      ['POST', '/v1/functionnode/remove', { code: sampleA.form1.code }],
      ['POST', '/v1/functionnode/copy', { code: sampleA.app.code }],
      ['POST', '/v1/functionNode/checkcopy', { code: sampleA.app.code }],
      ['POST', '/v1/workbench/visit', { code: sampleA.app.code }],
      ['POST', '/v1/functionnode', { appCode: sampleA.app.code, displayName: '新表单', nodeType: T.FormModule }],
    ];
    for (const [method, url, payload] of byCode) {
      const res = await o.raw(method as 'GET', url, payload);
      expect(res.status, url).toBe(404);
      expect(res.body, url).toMatchObject({ successful: false, errorCode: 230001 });
    }
    expect((await putSort(t, outsider, { code: sampleA.app.code, preCode: '' })).errorCode).toBe(230001);
  });
});

describe('the app list without children', () => {
  it('answers every viewer what the list with children answers, children left out', async () => {
    // Apps seen whole (Administrators, a grant on the app) take the SQL path; apps seen through a grant inside
    // them take the tree. A member with one of each gets both, in the engine's order.
    const mixed = await addInvitedMember(t, admin, { name: '混合成员' });
    await grant(a, sampleA.form2.code, mixed.userId, 'access');
    await grant(a, sampleB.app.code, mixed.userId, 'create');
    for (const p of [admin, sub, subByRole, member, roleMember, formOnly, outsider, personalAdminGrant, mixed]) {
      const client = nodeClient(t.app, p);
      const full = (await client.get('/v1/functionnode/app/list')).list;
      const bare = (await client.get('/v1/functionnode/app/list', { withChildren: 'false' })).list;
      expect(bare).toEqual(full.map((x: object) => ({ ...x, children: [] })));
    }
    const mixedList = (await nodeClient(t.app, mixed).get('/v1/functionnode/app/list', { withChildren: 'false' })).list;
    expect(mixedList.map((x: { code: string; permission: string; defaultSchemaCode: string }) => [x.code, x.permission, x.defaultSchemaCode])).toEqual([
      [sampleA.app.code, 'access', sampleA.form2.code],
      [sampleB.app.code, 'create', sampleB.form1.code],
    ]);
  });
});

describe('who may change what', () => {
  it('members with access, or a Personal user granted administrator, cannot write (403)', async () => {
    for (const p of [member, personalAdminGrant]) {
      const m = nodeClient(t.app, p);
      const attempts: [string, unknown][] = [
        ['/v1/functionnode/update', { code: sampleA.app.code, displayName: '改名' }],
        ['/v1/functionnode/remove', { code: sampleA.report.code }],
        ['/v1/functionnode/move', { code: sampleA.report.code, parentCode: sampleA.group.code }],
        // A grant of create or more adds nodes (docs/decisions/0115): access alone does not.
        ...(p === member ? [['/v1/functionnode', { appCode: sampleA.app.code, displayName: '新表单', nodeType: T.FormModule }] as [string, unknown]] : []),
      ];
      for (const [url, body] of attempts) {
        const res = await m.raw('POST', url, body);
        expect(res.status, url).toBe(403);
        expect(res.body, url).toMatchObject({ errorCode: 230005 });
      }
      expect(await m.post('/v1/functionNode/checkcopy', { code: sampleA.app.code })).toMatchObject({ allowed: false, errorCode: 230006 });
      expect((await m.raw('POST', '/v1/functionnode', { displayName: '我的应用', nodeType: T.AppPackage })).status).toBe(403);
    }
    expect((await nodeClient(t.app, member).get('/v1/functionNode/app/feature/list', { appCode: sampleA.app.code })).list).toHaveLength(4);
  });

  it('a sub-administrator changes their apps only, creates no app and does not reorder the app list', async () => {
    const s = nodeClient(t.app, sub);
    const form = await createNode(s, sampleA.app.code, T.FormModule, { displayName: '子管理员的表单' });
    await s.post('/v1/functionnode/update', { code: form.code, displayName: '改过的表单' });
    expect((await putSort(t, sub, { code: form.code, preCode: '' })).successful).toBe(true);
    expect((await putSort(t, sub, { code: sampleA.app.code, preCode: '' })).errorCode).toBe(230005);
    expect((await s.raw('POST', '/v1/functionnode', { displayName: '新应用', nodeType: T.AppPackage })).body).toMatchObject({ errorCode: 100403 });
    // B is visible to them (access) but not theirs.
    expect((await s.raw('POST', '/v1/functionnode/update', { code: sampleB.app.code, displayName: '改名' })).body).toMatchObject({ errorCode: 230005 });
    expect((await s.raw('POST', '/v1/functionnode/move', { code: form.code, parentCode: sampleB.group.code })).body).toMatchObject({ errorCode: 230005 });
    expect(await s.post('/v1/functionNode/checkmove', { code: form.code, parentCode: sampleB.group.code })).toMatchObject({ allowed: false, errorCode: 230005 });
    expect(await s.post('/v1/functionNode/checkcopy', { code: sampleA.app.code })).toEqual({ allowed: true });
    expect(await s.post('/v1/functionNode/checkcopy', { code: sampleB.app.code })).toMatchObject({ allowed: false });
    expect((await s.post('/v1/functionnode/remove', { code: form.code })).removed).toBe(1);
  });

  it('only Administrators grant permissions', async () => {
    const res = await nodeClient(t.app, sub).raw('POST', '/v1/functionnode/auth/set', { code: sampleA.app.code, unitId: outsider.userId, permission: 'access' });
    expect(res.status).toBe(403);
    const list = await a.post('/v1/functionnode/auth/list', { code: sampleA.app.code });
    expect(list.list).toEqual(expect.arrayContaining([{ unitId: sub.userId, unitType: 'User', name: '子管理员', permission: 'administrator' }]));
    expect((await a.raw('POST', '/v1/functionnode/auth/set', { code: sampleA.app.code, unitId: 'nobody', permission: 'access' })).body).toMatchObject({ errorCode: 220001 });
  });

  it('revoking a grant (none) hides the app again', async () => {
    const temp = await addInvitedMember(t, admin, { name: '临时成员' });
    await grant(a, sampleB.app.code, temp.userId, 'access');
    expect(await appCodes(temp)).toEqual([sampleB.app.code]);
    await grant(a, sampleB.app.code, temp.userId, 'none');
    expect(await appCodes(temp)).toEqual([]);
  });
});

describe('engines are isolated', () => {
  it('another engine sees none of these apps and may reuse their codes', async () => {
    const other = await registerPerson(t.app, { engineName: '另一家公司' });
    const o = nodeClient(t.app, other);
    expect(await appCodes(other)).toEqual([]);
    expect((await o.raw('GET', '/v1/functionNode/app/feature/list', { appCode: sampleA.app.code })).body).toMatchObject({ errorCode: 230001 });
    expect((await o.post('/v1/functionnode/list/bycodes', { codes: [sampleA.app.code] })).list).toEqual([]);
    const same = await createApp(o, { code: sampleA.app.code });
    expect(same.code).toBe(sampleA.app.code);
    expect(await appCodes(admin)).toContain(sampleA.app.code);
    const ownList = (await a.get('/v1/functionnode/app/list')).list.find((x: { code: string }) => x.code === sampleA.app.code);
    expect(ownList.displayName).toBe('销售管理');
    // A person of engine A asking with engine B's header is refused.
    const res = await nodeClient(t.app, { token: admin.token, engineCode: other.engineCode }).raw('GET', '/v1/functionnode/app/list');
    expect(res.status).toBe(403);
  });
});
