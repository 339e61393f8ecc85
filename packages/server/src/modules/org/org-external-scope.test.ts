import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_ROOT_NODE_ID } from '@tritium/shared/constants/org';
import { createTestApp, registerPerson, uniqueMobile, type TestApp } from '../../../test/helpers.ts';
import { addMember, companyIdOf, orgClient, type OrgClient, type Person } from '../../../test/org-helpers.ts';

// docs/decisions/0010: an external user (auth type 5) reads only their own external organisation (the subtree of
// the department under 外部组织 they belong to), its members and themselves; nothing of the internal organisation,
// nor of other external organisations. Internal members keep reading everything.

let t: TestApp;
let admin: Person;
let org: OrgClient;
let ext: Person & { userId: string };
let inner: Person & { userId: string };
const id: Record<string, string> = {};
/** Everything an external user of 合作伙伴甲 must never receive: ids, names and mobile numbers. */
const secrets: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerPerson(t.app, { userName: '内部管理员', engineName: '内部科技' });
  org = orgClient(t.app, admin);
  id.company = await companyIdOf(t, admin.engineCode);
  id.rd = (await org.post('/v1/org/department/create', { parentId: id.company, name: '研发部' })).id;
  const innerMobile = uniqueMobile();
  id.innerUser = (await org.post('/v1/org/user/create', { name: '内部员工', mobile: innerMobile, departmentIds: [id.rd] })).id;
  id.group = (await org.post('/v1/org/rolegroup/create', { name: '内部角色组' })).id;
  id.role = (await org.post('/v1/org/role/create', { groupId: id.group, name: '内部角色' })).id;
  id.post = (await org.post('/v1/org/post/create', { name: '内部岗位' })).id;
  await org.post('/v1/org/role/member/add', { roleId: id.role, userIds: [id.innerUser] });
  await org.post('/v1/org/post/member/add', { postId: id.post, userIds: [id.innerUser] });

  // 合作伙伴甲 (managed by an internal user) with a sub-department; 合作伙伴乙 is another external organisation.
  id.partnerA = (await org.post('/v1/org/department/create', { parentId: EXTERNAL_ROOT_NODE_ID, name: '合作伙伴甲', managerId: id.innerUser })).id;
  id.branchA = (await org.post('/v1/org/department/create', { parentId: id.partnerA, name: '甲分部' })).id;
  id.partnerB = (await org.post('/v1/org/department/create', { parentId: EXTERNAL_ROOT_NODE_ID, name: '合作伙伴乙' })).id;
  const colleagueMobile = uniqueMobile();
  id.colleague = (await org.post('/v1/org/user/create', { name: '甲员工二', mobile: colleagueMobile, departmentIds: [id.partnerA] })).id;
  const otherMobile = uniqueMobile();
  id.otherExt = (await org.post('/v1/org/user/create', { name: '乙员工', mobile: otherMobile, departmentIds: [id.partnerB] })).id;
  // An external user may be put in a role or post; an external reader still sees no roles or posts.
  await org.post('/v1/org/role/member/add', { roleId: id.role, userIds: [id.colleague] });

  ext = await addMember(t, admin, { name: '甲员工', departmentIds: [id.branchA] });
  inner = await addMember(t, admin, { name: '内部成员', authType: 3, departmentIds: [id.rd] });
  id.ext = ext.userId;
  id.inner = inner.userId;
  id.admin = (await org.get('/v1/org/user')).id;

  secrets.push(
    id.company, id.rd, id.innerUser, id.inner, id.admin, id.group, id.role, id.post, id.partnerB, id.otherExt,
    admin.mobile, innerMobile, inner.mobile, otherMobile,
    '内部科技', '研发部', '内部员工', '内部成员', '内部管理员', '内部角色', '内部岗位', '合作伙伴乙', '乙员工',
  );
});
afterAll(() => t.close());

const asExt = () => orgClient(t.app, ext);
const asInner = () => orgClient(t.app, inner);
const ids = (list: { id: string }[]) => list.map((u) => u.id).sort();

/**
 * Sends a call as the external user; the answer, whatever it is, holds nothing of the internal organisation (ids
 * the caller sent may be echoed: a 220001 names the id asked for, checkRange answers per id asked).
 */
async function extRaw(method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await asExt().raw(method, url, payload);
  const text = JSON.stringify(res.body);
  const asked = JSON.stringify(payload ?? {});
  for (const secret of secrets.filter((s) => !asked.includes(s))) expect(text, `${url} ${asked} leaks ${secret}`).not.toContain(secret);
  return res;
}
async function extOk(method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await extRaw(method, url, payload);
  expect(res.status, `${url} ${JSON.stringify(res.body)}`).toBe(200);
  expect(res.body.successful, url).toBe(true);
  return res.body.data;
}
async function extNotFound(method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await extRaw(method, url, payload);
  expect(res.status, url).toBe(404);
  expect(res.body, url).toMatchObject({ successful: false, errorCode: 220001 });
}
async function extForbidden(method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await extRaw(method, url, payload);
  expect(res.status, url).toBe(403);
  expect(res.body, url).toMatchObject({ successful: false, errorCode: 100403 });
}

describe('who is external', () => {
  it('the external user signs in with auth type 5 in an external department; the internal one is Personal', async () => {
    expect(await asExt().get('/v1/org/user')).toMatchObject({ id: id.ext, authType: 5, isExternal: true, mainDepartmentId: id.branchA });
    expect(await asInner().get('/v1/org/user')).toMatchObject({ id: id.inner, authType: 3, isExternal: false });
  });
});

describe('POST /v1/org/user/list', () => {
  it('external: the members of their own organisation only, whatever the scope or filter', async () => {
    expect(ids((await extOk('POST', '/v1/org/user/list', {})).list)).toEqual([id.colleague, id.ext].sort());
    for (const scope of ['inner', 'external', 'all']) expect(ids((await extOk('POST', '/v1/org/user/list', { scope })).list)).toEqual([id.colleague, id.ext].sort());
    expect(ids((await extOk('POST', '/v1/org/user/list', { departmentId: id.partnerA, recursive: true })).list)).toEqual([id.colleague, id.ext].sort());
    const page = await extOk('POST', '/v1/org/user/list', { keyword: admin.mobile.slice(3), scope: 'all' });
    expect(page).toMatchObject({ list: [], total: 0 });
    await extNotFound('POST', '/v1/org/user/list', { departmentId: id.rd });
    await extNotFound('POST', '/v1/org/user/list', { departmentId: id.partnerB });
    await extNotFound('POST', '/v1/org/user/list', { roleId: id.role });
    await extNotFound('POST', '/v1/org/user/list', { postId: id.post });
  });
  it('internal: unchanged', async () => {
    expect(ids((await asInner().post('/v1/org/user/list', {})).list)).toEqual([id.admin, id.innerUser, id.inner].sort());
    expect(ids((await asInner().post('/v1/org/user/list', { scope: 'all' })).list)).toEqual([id.admin, id.innerUser, id.inner, id.ext, id.colleague, id.otherExt].sort());
    const byRole = await asInner().post('/v1/org/user/list', { roleId: id.role, scope: 'all' });
    expect(ids(byRole.list)).toEqual([id.innerUser, id.colleague].sort());
    expect(byRole.list.find((u: { id: string }) => u.id === id.innerUser).mobile).toMatch(/^1\d{10}$/);
  });
});

describe('POST /v1/org/department/list', () => {
  it('external: their organisation from its top; the manager, an internal user, is left out', async () => {
    const roots = (await extOk('POST', '/v1/org/department/list', {})).list;
    expect(ids(roots)).toEqual([id.partnerA]);
    expect(roots[0]).toMatchObject({ name: '合作伙伴甲', managerId: null, managerName: null, isExternal: true, hasChild: true });
    expect(ids((await extOk('POST', '/v1/org/department/list', { recursive: true })).list)).toEqual([id.partnerA, id.branchA].sort());
    expect(ids((await extOk('POST', '/v1/org/department/list', { parentId: id.partnerA })).list)).toEqual([id.branchA]);
    expect(ids((await extOk('POST', '/v1/org/department/list', { keyword: '合作', recursive: true, scope: 'all' })).list)).toEqual([id.partnerA]);
    await extNotFound('POST', '/v1/org/department/list', { parentId: id.company, recursive: true });
    await extNotFound('POST', '/v1/org/department/list', { parentId: id.partnerB });
  });
  it('internal: unchanged', async () => {
    expect(ids((await asInner().post('/v1/org/department/list', {})).list)).toEqual([id.company]);
    expect(ids((await asInner().post('/v1/org/department/list', { scope: 'all' })).list)).toEqual([id.company, EXTERNAL_ROOT_NODE_ID].sort());
    expect(ids((await asInner().post('/v1/org/department/list', { recursive: true, scope: 'all' })).list)).toEqual(
      [id.company, id.rd, EXTERNAL_ROOT_NODE_ID, id.partnerA, id.branchA, id.partnerB].sort(),
    );
    const partners = (await asInner().post('/v1/org/department/list', { parentId: EXTERNAL_ROOT_NODE_ID })).list;
    expect(partners.find((d: { id: string }) => d.id === id.partnerA)).toMatchObject({ managerId: id.innerUser, managerName: '内部员工' });
  });
});

describe('POST /v1/org/association/list', () => {
  it('external: departments of the users they see, no roles or posts', async () => {
    const all = await extOk('POST', '/v1/org/association/list', { userIds: [id.innerUser, id.inner, id.admin, id.ext, id.colleague, id.otherExt] });
    expect(all.list.map((a: { userId: string; unitId: string }) => `${a.userId}:${a.unitId}`).sort()).toEqual([`${id.ext}:${id.branchA}`, `${id.colleague}:${id.partnerA}`].sort());
    expect((await extOk('POST', '/v1/org/association/list', { userIds: [id.colleague], unitTypes: ['Role', 'Post'] })).list).toEqual([]);
  });
  it('internal: unchanged', async () => {
    const all = await asInner().post('/v1/org/association/list', { userIds: [id.innerUser, id.colleague] });
    expect(all.list.map((a: { userId: string; unitId: string }) => `${a.userId}:${a.unitId}`).sort()).toEqual(
      [`${id.innerUser}:${id.rd}`, `${id.innerUser}:${id.role}`, `${id.innerUser}:${id.post}`, `${id.colleague}:${id.partnerA}`, `${id.colleague}:${id.role}`].sort(),
    );
  });
});

describe('POST /v1/org/search', () => {
  it('external: matches within their organisation only (names, pinyin, mobiles)', async () => {
    const everything = { unitTypes: ['User', 'OrganizationUnit', 'Role'], scope: 'all', state: 'all' };
    expect(ids((await extOk('POST', '/v1/org/search', { keyword: '员工', ...everything })).list)).toEqual([id.colleague, id.ext].sort());
    expect(ids((await extOk('POST', '/v1/org/search', { keyword: '合作伙伴', ...everything })).list)).toEqual([id.partnerA]);
    for (const keyword of ['内部', 'neibu', '研发', admin.mobile.slice(-6)]) expect((await extOk('POST', '/v1/org/search', { keyword, ...everything })).list, keyword).toEqual([]);
    await extNotFound('POST', '/v1/org/search', { keyword: '员工', departmentId: id.rd });
  });
  it('internal: unchanged', async () => {
    const found = await asInner().post('/v1/org/search', { keyword: '内部', unitTypes: ['User', 'OrganizationUnit', 'Role'], scope: 'all' });
    expect(ids(found.list)).toEqual([id.company, id.admin, id.innerUser, id.inner, id.role].sort());
    expect(ids((await asInner().post('/v1/org/search', { keyword: '员工', scope: 'all' })).list)).toEqual([id.innerUser, id.ext, id.colleague, id.otherExt].sort());
  });
});

describe('POST /v1/org/list', () => {
  it('external: the picker opens on their organisation', async () => {
    expect(ids((await extOk('POST', '/v1/org/list', {})).list)).toEqual([id.partnerA]);
    expect(ids((await extOk('POST', '/v1/org/list', { parentId: id.partnerA })).list)).toEqual([id.branchA, id.colleague].sort());
    await extNotFound('POST', '/v1/org/list', { parentId: id.company });
    await extNotFound('POST', '/v1/org/list', { parentId: id.rd });
    await extNotFound('POST', '/v1/org/list', { parentId: id.partnerB });
  });
  it('internal: unchanged', async () => {
    expect(ids((await asInner().post('/v1/org/list', {})).list)).toEqual([id.company]);
    expect(ids((await asInner().post('/v1/org/list', { scope: 'all' })).list)).toEqual([id.company, EXTERNAL_ROOT_NODE_ID].sort());
    expect(ids((await asInner().post('/v1/org/list', { parentId: id.rd })).list)).toEqual([id.innerUser, id.inner].sort());
    expect(ids((await asInner().post('/v1/org/list', { parentId: id.company })).list)).toEqual([id.rd, id.admin].sort());
  });
});

describe('POST /v1/org/currentandchild', () => {
  it('external: their main department by default; nothing outside their organisation', async () => {
    const mine = await extOk('POST', '/v1/org/currentandchild', {});
    expect(mine.current.id).toBe(id.branchA);
    expect(mine.list).toEqual([]);
    const top = await extOk('POST', '/v1/org/currentandchild', { departmentId: id.partnerA });
    expect(top.current).toMatchObject({ id: id.partnerA, managerId: null });
    expect(ids(top.list)).toEqual([id.branchA]);
    await extNotFound('POST', '/v1/org/currentandchild', { departmentId: id.company });
    await extNotFound('POST', '/v1/org/currentandchild', { departmentId: EXTERNAL_ROOT_NODE_ID });
  });
  it('internal: unchanged', async () => {
    const mine = await asInner().post('/v1/org/currentandchild', {});
    expect(mine.current.id).toBe(id.rd);
    const company = await asInner().post('/v1/org/currentandchild', { departmentId: id.company });
    expect(ids(company.list)).toEqual([id.rd]);
  });
});

describe('POST /v1/org/unit/checkRange', () => {
  it('external: what they may not see is never in range, and roles do not count', async () => {
    const res = await extOk('POST', '/v1/org/unit/checkRange', {
      unitIds: [id.innerUser, id.rd, id.ext, id.colleague, id.branchA, id.otherExt],
      rangeIds: [id.company, id.rd, id.innerUser, id.role, id.partnerA, id.otherExt],
    });
    expect(Object.fromEntries(res.list.map((r: { unitId: string; inRange: boolean }) => [r.unitId, r.inRange]))).toEqual({
      [id.innerUser]: false,
      [id.rd]: false,
      [id.ext]: true,
      [id.colleague]: true,
      [id.branchA]: true,
      [id.otherExt]: false,
    });
    expect((await extOk('POST', '/v1/org/unit/checkRange', { unitIds: [id.colleague], rangeIds: [id.role] })).list[0].inRange).toBe(false);
  });
  it('internal: unchanged', async () => {
    const res = await asInner().post('/v1/org/unit/checkRange', { unitIds: [id.innerUser, id.colleague, id.otherExt, id.branchA], rangeIds: [id.company, id.role] });
    expect(res.list.map((r: { inRange: boolean }) => r.inRange)).toEqual([true, true, false, false]);
  });
});

describe('POST /v1/org/unit/batch', () => {
  const all = () => [id.company, id.rd, id.innerUser, id.admin, id.role, id.group, id.post, EXTERNAL_ROOT_NODE_ID, id.partnerA, id.branchA, id.partnerB, id.ext, id.colleague, id.otherExt];
  it('external: only the units of their organisation', async () => {
    expect(ids((await extOk('POST', '/v1/org/unit/batch', { ids: all() })).list)).toEqual([id.partnerA, id.branchA, id.ext, id.colleague].sort());
  });
  it('internal: unchanged', async () => {
    expect(ids((await asInner().post('/v1/org/unit/batch', { ids: all() })).list)).toEqual([...all()].sort());
  });
});

describe('POST /v1/org/info/byids', () => {
  const all = () => [id.company, id.rd, id.innerUser, id.admin, id.role, id.partnerA, id.branchA, id.partnerB, id.ext, id.colleague, id.otherExt];
  it('external: their users and departments, no roles', async () => {
    const info = await extOk('POST', '/v1/org/info/byids', { ids: all() });
    expect(ids(info.users)).toEqual([id.ext, id.colleague].sort());
    expect(ids(info.departments)).toEqual([id.partnerA, id.branchA].sort());
    expect(info.roles).toEqual([]);
  });
  it('internal: unchanged', async () => {
    const info = await asInner().post('/v1/org/info/byids', { ids: all() });
    expect(ids(info.users)).toEqual([id.innerUser, id.admin, id.ext, id.colleague, id.otherExt].sort());
    expect(ids(info.departments)).toEqual([id.company, id.rd, id.partnerA, id.branchA, id.partnerB].sort());
    expect(ids(info.roles)).toEqual([id.role]);
    expect(info.departments.find((d: { id: string }) => d.id === id.partnerA).managerId).toBe(id.innerUser);
  });
});

describe('POST /v1/org/search/byname', () => {
  const body = { names: ['内部员工', '研发部', '内部角色', '甲员工二', '合作伙伴甲', '合作伙伴乙', '乙员工'], unitTypes: ['User', 'OrganizationUnit', 'Role'], scope: 'all' };
  it('external: names inside their organisation only', async () => {
    expect(ids((await extOk('POST', '/v1/org/search/byname', body)).list)).toEqual([id.colleague, id.partnerA].sort());
  });
  it('internal: unchanged', async () => {
    expect(ids((await asInner().post('/v1/org/search/byname', body)).list)).toEqual([id.innerUser, id.rd, id.role, id.colleague, id.partnerA, id.partnerB, id.otherExt].sort());
  });
});

describe('GET /v1/org/role/list, /rolegroup/list, /post/list', () => {
  it('external: refused (100403)', async () => {
    await extForbidden('GET', '/v1/org/role/list');
    await extForbidden('GET', '/v1/org/role/list', { groupId: id.group });
    await extForbidden('GET', '/v1/org/rolegroup/list');
    await extForbidden('GET', '/v1/org/post/list');
  });
  it('internal: unchanged', async () => {
    expect((await asInner().get('/v1/org/role/list')).list).toMatchObject([{ id: id.role, memberCount: 2, groupName: '内部角色组' }]);
    expect((await asInner().get('/v1/org/rolegroup/list')).list).toMatchObject([{ id: id.group, roleCount: 1 }]);
    expect((await asInner().get('/v1/org/post/list')).list).toMatchObject([{ id: id.post, memberCount: 1 }]);
  });
});

describe('GET /v1/org/user', () => {
  it('external: themselves and their colleagues; no roles or posts; nobody else', async () => {
    expect(await extOk('GET', '/v1/org/user')).toMatchObject({ id: id.ext, departments: [{ id: id.branchA, isMain: true }], roles: [], posts: [] });
    expect(await extOk('GET', '/v1/org/user', { id: id.colleague })).toMatchObject({ id: id.colleague, mainDepartmentId: id.partnerA, roles: [], posts: [] });
    for (const other of [id.innerUser, id.admin, id.otherExt, id.rd]) await extNotFound('GET', '/v1/org/user', { id: other });
  });
  it('internal: unchanged', async () => {
    const user = await asInner().get('/v1/org/user', { id: id.innerUser });
    expect(user).toMatchObject({ id: id.innerUser, roles: [{ id: id.role }], posts: [{ id: id.post }], departments: [{ id: id.rd }] });
    expect((await asInner().get('/v1/org/user', { id: id.colleague })).roles).toEqual([{ id: id.role, name: '内部角色', groupId: id.group }]);
  });
});

describe('GET /v1/org/department', () => {
  it('external: the top of their organisation by default, its departments by id, nothing else', async () => {
    expect(await extOk('GET', '/v1/org/department')).toMatchObject({ id: id.partnerA, managerId: null, managerName: null, childCount: 1, userCount: 1 });
    const branch = await extOk('GET', '/v1/org/department', { id: id.branchA });
    expect(branch.path.map((p: { id: string }) => p.id)).toEqual([EXTERNAL_ROOT_NODE_ID, id.partnerA]);
    for (const other of [id.company, id.rd, id.partnerB, EXTERNAL_ROOT_NODE_ID]) await extNotFound('GET', '/v1/org/department', { id: other });
  });
  it('internal: unchanged', async () => {
    expect(await asInner().get('/v1/org/department')).toMatchObject({ id: id.company, path: [] });
    expect(await asInner().get('/v1/org/department', { id: id.partnerA })).toMatchObject({ managerId: id.innerUser, managerName: '内部员工' });
  });
});

describe('GET /v1/org/unit/info', () => {
  it('external: units of their organisation only', async () => {
    expect(await extOk('GET', '/v1/org/unit/info', { id: id.colleague })).toMatchObject({ id: id.colleague, unitType: 'User' });
    expect(await extOk('GET', '/v1/org/unit/info', { id: id.branchA })).toMatchObject({ id: id.branchA, parentName: '合作伙伴甲' });
    for (const other of [id.company, id.rd, id.innerUser, id.role, id.group, id.post, id.partnerB, id.otherExt]) await extNotFound('GET', '/v1/org/unit/info', { id: other });
  });
  it('internal: unchanged', async () => {
    for (const unit of [id.company, id.rd, id.innerUser, id.role, id.group, id.post, id.partnerB, id.otherExt]) expect((await asInner().get('/v1/org/unit/info', { id: unit })).id).toBe(unit);
  });
});

describe('GET /v1/org/external/department/list', () => {
  it('external: under 外部组织 only their own organisation', async () => {
    expect(ids((await extOk('GET', '/v1/org/external/department/list')).list)).toEqual([id.partnerA]);
    expect(ids((await extOk('GET', '/v1/org/external/department/list', { recursive: 'true' })).list)).toEqual([id.partnerA, id.branchA].sort());
    expect(ids((await extOk('GET', '/v1/org/external/department/list', { parentId: id.partnerA })).list)).toEqual([id.branchA]);
    await extNotFound('GET', '/v1/org/external/department/list', { parentId: id.partnerB });
    await extNotFound('GET', '/v1/org/external/department/list', { parentId: id.company });
  });
  it('internal: unchanged', async () => {
    expect(ids((await asInner().get('/v1/org/external/department/list')).list)).toEqual([id.partnerA, id.partnerB].sort());
    expect(ids((await asInner().get('/v1/org/external/department/list', { recursive: 'true' })).list)).toEqual([id.partnerA, id.branchA, id.partnerB].sort());
  });
});

describe('an external user of no external organisation', () => {
  it('sees only themselves', async () => {
    const loner = await addMember(t, admin, { name: '散户', departmentIds: [EXTERNAL_ROOT_NODE_ID] });
    const c = orgClient(t.app, loner);
    expect(await c.get('/v1/org/user')).toMatchObject({ id: loner.userId, authType: 5, departments: [] });
    expect(ids((await c.post('/v1/org/user/list', {})).list)).toEqual([loner.userId]);
    expect((await c.post('/v1/org/department/list', { recursive: true })).list).toEqual([]);
    expect((await c.post('/v1/org/search', { keyword: '员工', scope: 'all' })).list).toEqual([]);
    expect((await c.get('/v1/org/external/department/list', { recursive: 'true' })).list).toEqual([]);
    expect((await c.raw('GET', '/v1/org/department')).body.errorCode).toBe(220001);
  });
});

describe('a colleague who is also in another external organisation', () => {
  it('is seen only with the departments of the viewer\'s organisation (the main one elsewhere is left out)', async () => {
    const both = (await org.post('/v1/org/user/create', { name: '两边员工', mobile: uniqueMobile(), departmentIds: [id.partnerB, id.partnerA], mainDepartmentId: id.partnerB })).id;
    const mine = (list: { id: string }[]) => list.find((u) => u.id === both) as Record<string, unknown>;
    expect(mine((await extOk('POST', '/v1/org/user/list', {})).list)).toMatchObject({ mainDepartmentId: null, mainDepartmentName: null });
    expect(mine((await extOk('POST', '/v1/org/list', { parentId: id.partnerA })).list)).toMatchObject({ parentId: null, parentName: null });
    expect(mine((await extOk('POST', '/v1/org/search', { keyword: '两边' })).list)).toMatchObject({ parentId: null });
    expect(mine((await extOk('POST', '/v1/org/unit/batch', { ids: [both] })).list)).toMatchObject({ parentId: null });
    expect(mine((await extOk('POST', '/v1/org/info/byids', { ids: [both] })).users)).toMatchObject({ mainDepartmentId: null });
    expect(await extOk('GET', '/v1/org/user', { id: both })).toMatchObject({ mainDepartmentId: null, departments: [{ id: id.partnerA, isMain: false }] });
    expect((await extOk('POST', '/v1/org/association/list', { userIds: [both] })).list).toMatchObject([{ unitId: id.partnerA }]);
    // An internal reader still sees both sides.
    expect(await asInner().get('/v1/org/user', { id: both })).toMatchObject({ mainDepartmentId: id.partnerB, mainDepartmentName: '合作伙伴乙' });
  });
});
