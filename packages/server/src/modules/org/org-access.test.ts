import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, uniqueMobile, type TestApp } from '../../../test/helpers.ts';
import { addMember, companyIdOf, orgClient, orgSnapshot, type OrgClient, type Person } from '../../../test/org-helpers.ts';

let t: TestApp;
let adminA: Person;
let orgA: OrgClient;
let adminB: Person;
let orgB: OrgClient;
const a: Record<string, string> = {};
const b: Record<string, string> = {};

/** Builds a small organisation: a department, a user in it, a role group with a role, a post. */
async function seed(org: OrgClient, companyId: string, into: Record<string, string>, tag: string) {
  into.company = companyId;
  into.dept = (await org.post('/v1/org/department/create', { parentId: companyId, name: `${tag}部门` })).id;
  into.dept2 = (await org.post('/v1/org/department/create', { parentId: companyId, name: `${tag}部门二` })).id;
  into.user = (await org.post('/v1/org/user/create', { name: `${tag}员工`, mobile: uniqueMobile(), departmentIds: [into.dept] })).id;
  into.group = (await org.post('/v1/org/rolegroup/create', { name: `${tag}角色组` })).id;
  into.role = (await org.post('/v1/org/role/create', { groupId: into.group, name: `${tag}角色` })).id;
  into.post = (await org.post('/v1/org/post/create', { name: `${tag}岗位` })).id;
}

beforeAll(async () => {
  t = await createTestApp();
  adminA = await registerPerson(t.app, { userName: '甲管理员', engineName: '甲公司' });
  adminB = await registerPerson(t.app, { userName: '乙管理员', engineName: '乙公司' });
  orgA = orgClient(t.app, adminA);
  orgB = orgClient(t.app, adminB);
  await seed(orgA, await companyIdOf(t, adminA.engineCode), a, '甲');
  await seed(orgB, await companyIdOf(t, adminB.engineCode), b, '乙');
});
afterAll(() => t.close());

type Call = { method: 'GET' | 'POST'; url: string; body?: Record<string, unknown>; query?: Record<string, string> };

/** Every write, with a body that would succeed for an administrator (built from the ids of `ids`). */
const writes = (ids: Record<string, string>): Call[] => [
  { method: 'POST', url: '/v1/org/department/create', body: { parentId: ids.company, name: '越权部门' } },
  { method: 'POST', url: '/v1/org/department/update', body: { id: ids.dept, name: '越权改名' } },
  { method: 'POST', url: '/v1/org/department/move', body: { id: ids.dept, parentId: ids.dept2 } },
  { method: 'POST', url: '/v1/org/department/remove', body: { id: ids.dept2 } },
  { method: 'POST', url: '/v1/org/user/create', body: { name: '越权', mobile: '13700000001', departmentIds: [ids.dept] } },
  { method: 'POST', url: '/v1/org/user/invite', body: { name: '越权', mobile: '13700000002' } },
  { method: 'POST', url: '/v1/org/user/update', body: { id: ids.user, name: '越权改名' } },
  { method: 'POST', url: '/v1/org/user/disable', body: { id: ids.user } },
  { method: 'POST', url: '/v1/org/user/enable', body: { id: ids.user } },
  { method: 'POST', url: '/v1/org/user/move', body: { userIds: [ids.user], toDepartmentId: ids.dept2 } },
  { method: 'POST', url: '/v1/org/rolegroup/create', body: { name: '越权组' } },
  { method: 'POST', url: '/v1/org/rolegroup/update', body: { id: ids.group, name: '越权组名' } },
  { method: 'POST', url: '/v1/org/rolegroup/remove', body: { id: ids.group } },
  { method: 'POST', url: '/v1/org/role/create', body: { groupId: ids.group, name: '越权角色' } },
  { method: 'POST', url: '/v1/org/role/update', body: { id: ids.role, name: '越权角色名' } },
  { method: 'POST', url: '/v1/org/role/remove', body: { id: ids.role } },
  { method: 'POST', url: '/v1/org/role/member/add', body: { roleId: ids.role, userIds: [ids.user] } },
  { method: 'POST', url: '/v1/org/role/member/remove', body: { roleId: ids.role, userIds: [ids.user] } },
  { method: 'POST', url: '/v1/org/post/create', body: { name: '越权岗位' } },
  { method: 'POST', url: '/v1/org/post/update', body: { id: ids.post, name: '越权岗位名' } },
  { method: 'POST', url: '/v1/org/post/remove', body: { id: ids.post } },
  { method: 'POST', url: '/v1/org/post/member/add', body: { postId: ids.post, userIds: [ids.user] } },
  { method: 'POST', url: '/v1/org/post/member/remove', body: { postId: ids.post, userIds: [ids.user] } },
];

/** Every read, naming the ids of `ids`. */
const reads = (ids: Record<string, string>): Call[] => [
  { method: 'POST', url: '/v1/org/user/list', body: { departmentId: ids.dept } },
  { method: 'POST', url: '/v1/org/department/list', body: { parentId: ids.company } },
  { method: 'POST', url: '/v1/org/association/list', body: { userIds: [ids.user] } },
  { method: 'POST', url: '/v1/org/search', body: { keyword: '员工', departmentId: ids.dept } },
  { method: 'POST', url: '/v1/org/list', body: { parentId: ids.dept } },
  { method: 'POST', url: '/v1/org/currentandchild', body: { departmentId: ids.company } },
  { method: 'POST', url: '/v1/org/unit/checkRange', body: { unitIds: [ids.user], rangeIds: [ids.dept] } },
  { method: 'POST', url: '/v1/org/unit/batch', body: { ids: [ids.user, ids.dept, ids.role] } },
  { method: 'POST', url: '/v1/org/info/byids', body: { ids: [ids.user, ids.dept, ids.role] } },
  { method: 'POST', url: '/v1/org/search/byname', body: { names: ['员工'] } },
  { method: 'GET', url: '/v1/org/role/list', query: { groupId: ids.group } },
  { method: 'GET', url: '/v1/org/rolegroup/list' },
  { method: 'GET', url: '/v1/org/post/list' },
  { method: 'GET', url: '/v1/org/user', query: { id: ids.user } },
  { method: 'GET', url: '/v1/org/department', query: { id: ids.dept } },
  { method: 'GET', url: '/v1/org/unit/info', query: { id: ids.role } },
  { method: 'GET', url: '/v1/org/external/department/list' },
];

function send(c: Call, as: { token: string; engineCode: string }) {
  return call(t.app, c.method, c.url, { token: as.token, engineCode: as.engineCode, ...(c.method === 'GET' ? { query: c.query } : { body: c.body ?? {} }) });
}

describe('permission: only Administrators change the organisation', () => {
  it('refuses every write of a Personal user with 403 and writes nothing', async () => {
    const personal = await addMember(t, adminA, { name: '普通员工', authType: 3 });
    const before = await orgSnapshot(t, adminA.engineCode);
    for (const c of writes(a)) {
      const res = await send(c, personal);
      expect(res.status, c.url).toBe(403);
      expect(res.body, c.url).toMatchObject({ successful: false, errorCode: 100403 });
    }
    expect(await orgSnapshot(t, adminA.engineCode)).toEqual(before);
  });

  it('refuses every write of a SubAdministrator too, but lets members read', async () => {
    const sub = await addMember(t, adminA, { name: '子管理员', authType: 2 });
    for (const c of writes(a).slice(0, 3)) expect((await send(c, sub)).status, c.url).toBe(403);
    for (const c of reads(a)) {
      const res = await send(c, sub);
      expect(res.status, c.url).toBe(200);
      expect(res.body.successful, c.url).toBe(true);
    }
  });

  it('refuses every read and write to guests and to callers without a token', async () => {
    const guest = await call(t.app, 'POST', '/v1/login/h3/guest', { body: { engineCode: adminA.engineCode } });
    const session = { token: guest.body.data.accessToken as string, engineCode: adminA.engineCode };
    for (const c of [...reads(a), ...writes(a)]) {
      expect((await send(c, session)).status, c.url).toBe(403);
      const anonymous = await call(t.app, c.method, c.url, { engineCode: adminA.engineCode, ...(c.method === 'GET' ? { query: c.query } : { body: c.body ?? {} }) });
      expect(anonymous.status, c.url).toBe(401);
    }
  });
});

describe('cross-engine isolation', () => {
  it('an administrator of A cannot read units of B by id', async () => {
    const notFound = ['/v1/org/user/list', '/v1/org/department/list', '/v1/org/search', '/v1/org/list', '/v1/org/currentandchild', '/v1/org/role/list', '/v1/org/user', '/v1/org/department', '/v1/org/unit/info'];
    for (const c of reads(b)) {
      const res = await send(c, adminA);
      if (notFound.includes(c.url)) {
        expect(res.status, c.url).toBe(404);
        expect(res.body.errorCode, c.url).toBe(220001);
        continue;
      }
      expect(res.body.successful, c.url).toBe(true);
      const data = res.body.data;
      if (c.url === '/v1/org/unit/checkRange') {
        // Ids are echoed back, never found: B's user is in no range of A.
        expect(data.list, c.url).toEqual([{ unitId: b.user, inRange: false }]);
        continue;
      }
      const text = JSON.stringify(data);
      for (const id of [b.user, b.dept, b.role, b.group, b.company]) expect(text, c.url).not.toContain(id);
      expect(text, c.url).not.toContain('乙');
    }
    // Even a range naming B's user itself does not contain it: only units of A exist for A.
    const range = await send({ method: 'POST', url: '/v1/org/unit/checkRange', body: { unitIds: [b.user], rangeIds: [b.user] } }, adminA);
    expect(range.body.data.list).toEqual([{ unitId: b.user, inRange: false }]);
  });

  it('an administrator of A cannot change units of B, even passing B\'s ids', async () => {
    const beforeB = await orgSnapshot(t, adminB.engineCode);
    for (const c of writes(b)) {
      if (['/v1/org/rolegroup/create', '/v1/org/post/create', '/v1/org/user/invite'].includes(c.url)) continue; // no id of B in them
      const res = await send(c, adminA);
      expect(res.body.successful, c.url).toBe(false);
      expect(res.body.errorCode, c.url).toBe(220001);
    }
    // A's own department cannot be hung under B's, nor A's user put into B's department.
    expect((await orgA.raw('POST', '/v1/org/department/move', { id: a.dept2, parentId: b.dept })).body.errorCode).toBe(220001);
    expect((await orgA.raw('POST', '/v1/org/user/move', { userIds: [a.user], toDepartmentId: b.dept })).body.errorCode).toBe(220001);
    expect((await orgA.raw('POST', '/v1/org/role/member/add', { roleId: a.role, userIds: [b.user] })).body.errorCode).toBe(220001);
    expect((await orgA.raw('POST', '/v1/org/department/update', { id: a.dept, managerId: b.user })).body.errorCode).toBe(220001);
    expect(await orgSnapshot(t, adminB.engineCode)).toEqual(beforeB);
  });

  it('an administrator of A is refused in B\'s engine (EngineCode header of B: 403)', async () => {
    for (const c of [...reads(b), ...writes(b)]) {
      const res = await send(c, { token: adminA.token, engineCode: adminB.engineCode });
      expect(res.status, c.url).toBe(403);
      expect(res.body.errorCode, c.url).toBe(100405);
    }
  });

  it('search in A never finds people of B', async () => {
    expect((await orgA.post('/v1/org/search', { keyword: '乙员工' })).total).toBe(0);
    expect((await orgB.post('/v1/org/search', { keyword: '乙员工' })).total).toBe(1);
  });
});

describe('bad input on every call: 777 with detail.issues, nothing written', () => {
  const long = 'x'.repeat(65);
  const cases: (Call & { paths: string[] })[] = [
    { method: 'POST', url: '/v1/org/user/list', body: { pageIndex: -1 }, paths: ['pageIndex'] },
    { method: 'POST', url: '/v1/org/user/list', body: { pageSize: 501 }, paths: ['pageSize'] },
    { method: 'POST', url: '/v1/org/user/list', body: { state: 'gone', scope: 'outer' }, paths: ['state', 'scope'] },
    { method: 'POST', url: '/v1/org/department/list', body: { parentId: 'a b' }, paths: ['parentId'] },
    { method: 'POST', url: '/v1/org/department/list', body: { pageSize: 0 }, paths: ['pageSize'] },
    { method: 'POST', url: '/v1/org/association/list', body: { userIds: [] }, paths: ['userIds'] },
    { method: 'POST', url: '/v1/org/search', body: {}, paths: ['keyword'] },
    { method: 'POST', url: '/v1/org/search', body: { keyword: '  ' }, paths: ['keyword'] },
    { method: 'POST', url: '/v1/org/search', body: { keyword: 'x'.repeat(51), unitTypes: ['Post'] }, paths: ['keyword', 'unitTypes.0'] },
    { method: 'POST', url: '/v1/org/list', body: { parentId: long }, paths: ['parentId'] },
    { method: 'POST', url: '/v1/org/currentandchild', body: { departmentId: 1 }, paths: ['departmentId'] },
    { method: 'POST', url: '/v1/org/unit/checkRange', body: { unitIds: ['x'] }, paths: ['rangeIds'] },
    { method: 'POST', url: '/v1/org/unit/batch', body: { ids: Array(501).fill('x') }, paths: ['ids'] },
    { method: 'POST', url: '/v1/org/info/byids', body: { ids: 'x' }, paths: ['ids'] },
    { method: 'POST', url: '/v1/org/search/byname', body: { names: [] }, paths: ['names'] },
    { method: 'GET', url: '/v1/org/role/list', query: { pageSize: 'abc' }, paths: ['pageSize'] },
    { method: 'GET', url: '/v1/org/rolegroup/list', query: { pageIndex: '-3' }, paths: ['pageIndex'] },
    { method: 'GET', url: '/v1/org/post/list', query: { keyword: '' }, paths: ['keyword'] },
    { method: 'GET', url: '/v1/org/user', query: { id: '<script>' }, paths: ['id'] },
    { method: 'GET', url: '/v1/org/department', query: { id: long }, paths: ['id'] },
    { method: 'GET', url: '/v1/org/unit/info', query: {}, paths: ['id'] },
    { method: 'GET', url: '/v1/org/external/department/list', query: { recursive: 'yes' }, paths: ['recursive'] },
    { method: 'POST', url: '/v1/org/department/create', body: { parentId: 'p', name: '' }, paths: ['name'] },
    { method: 'POST', url: '/v1/org/department/create', body: { name: '部'.repeat(51) }, paths: ['parentId', 'name'] },
    { method: 'POST', url: '/v1/org/department/update', body: { id: 'x' }, paths: [''] },
    { method: 'POST', url: '/v1/org/department/update', body: { id: 'x', sortKey: -1 }, paths: ['sortKey'] },
    { method: 'POST', url: '/v1/org/department/move', body: { id: 'x' }, paths: ['parentId'] },
    { method: 'POST', url: '/v1/org/department/remove', body: {}, paths: ['id'] },
    { method: 'POST', url: '/v1/org/user/create', body: { name: '某人', mobile: '12345', departmentIds: ['x'] }, paths: ['mobile'] },
    { method: 'POST', url: '/v1/org/user/create', body: { name: '', mobile: '13700000009', departmentIds: [] }, paths: ['name', 'departmentIds'] },
    { method: 'POST', url: '/v1/org/user/create', body: { name: '某人', mobile: '13700000009', departmentIds: ['x'], isAdmin: true }, paths: [''] },
    { method: 'POST', url: '/v1/org/user/invite', body: { mobile: '1370000000' }, paths: ['mobile', 'name'] },
    { method: 'POST', url: '/v1/org/user/update', body: { id: 'x' }, paths: [''] },
    { method: 'POST', url: '/v1/org/user/update', body: { id: 'x', authType: 7 }, paths: ['authType'] },
    { method: 'POST', url: '/v1/org/user/disable', body: { id: '' }, paths: ['id'] },
    { method: 'POST', url: '/v1/org/user/enable', body: { ids: ['x'] }, paths: [''] },
    { method: 'POST', url: '/v1/org/user/move', body: { userIds: ['x'] }, paths: ['toDepartmentId'] },
    { method: 'POST', url: '/v1/org/rolegroup/create', body: { name: '名'.repeat(33) }, paths: ['name'] },
    { method: 'POST', url: '/v1/org/rolegroup/update', body: { id: 'x' }, paths: ['name'] },
    { method: 'POST', url: '/v1/org/rolegroup/remove', body: { id: null }, paths: ['id'] },
    { method: 'POST', url: '/v1/org/role/create', body: { name: '角色' }, paths: ['groupId'] },
    { method: 'POST', url: '/v1/org/role/update', body: { id: 'x' }, paths: [''] },
    { method: 'POST', url: '/v1/org/role/remove', body: {}, paths: ['id'] },
    { method: 'POST', url: '/v1/org/role/member/add', body: { roleId: 'x', userIds: Array(501).fill('u') }, paths: ['userIds'] },
    { method: 'POST', url: '/v1/org/role/member/remove', body: { userIds: ['u'] }, paths: ['roleId'] },
    { method: 'POST', url: '/v1/org/post/create', body: {}, paths: ['name'] },
    { method: 'POST', url: '/v1/org/post/update', body: { id: 'x', name: ' ' }, paths: ['name'] },
    { method: 'POST', url: '/v1/org/post/remove', body: { id: 3 }, paths: ['id'] },
    { method: 'POST', url: '/v1/org/post/member/add', body: { postId: 'x', userIds: 'u' }, paths: ['userIds'] },
    { method: 'POST', url: '/v1/org/post/member/remove', body: { postId: 'x' }, paths: ['userIds'] },
    { method: 'POST', url: '/v1/org/associated/code/create', body: { validDays: 31 }, paths: ['validDays'] },
    { method: 'POST', url: '/v1/org/associated/end', body: { id: 'a b' }, paths: ['id'] },
    { method: 'GET', url: '/v1/org/associated/code', query: {}, paths: ['associatedCode'] },
    { method: 'POST', url: '/v1/org/associated/accept', body: { associatedCode: 'x' }, paths: ['engineCode'] },
    { method: 'POST', url: '/v1/org/associated/make-org', body: { associatedCode: '<x>', engineName: '新组织' }, paths: ['associatedCode'] },
    { method: 'GET', url: '/v1/org/associated/member/list', query: { id: '' }, paths: ['id'] },
    { method: 'POST', url: '/v1/org/associated/member/add', body: { id: 'x', userIds: Array(201).fill('u') }, paths: ['userIds'] },
    { method: 'POST', url: '/v1/org/associated/member/remove', body: { id: 'x' }, paths: ['userIds'] },
    { method: 'POST', url: '/v1/org/invitation/link/create', body: { validDays: 31 }, paths: ['validDays'] },
    { method: 'POST', url: '/v1/org/invitation/link/create', body: { validDays: 7, departmentId: 'a b' }, paths: ['departmentId'] },
    { method: 'POST', url: '/v1/org/invitation/link/revoke', body: { id: 3 }, paths: ['id'] },
    { method: 'GET', url: '/v1/org/invitation/link/info', query: { token: '<x>' }, paths: ['token'] },
    { method: 'POST', url: '/v1/org/invitation/link/join', body: { token: '<x>', mobile: '12345' }, paths: ['token', 'mobile'] },
  ];
  // Routes that take no input at all: nothing to get wrong.
  const withoutInput = new Set(['/v1/org/associated/list', '/v1/org/invitation/link/list']);

  it('covers every organisation route', async () => {
    const openapi = (await call(t.app, 'GET', '/v1/openapi.json')).body;
    const routes = Object.keys(openapi.paths).filter((p) => p.startsWith('/v1/org/'));
    expect(routes.length).toBe(54);
    for (const route of routes.filter((r) => !withoutInput.has(r))) expect(cases.map((c) => c.url), route).toContain(route);
  });

  it.each(cases)('$method $url $paths', async (c) => {
    const before = await orgSnapshot(t, adminA.engineCode);
    const res = await send(c, adminA);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ successful: false, errorCode: 777, errorType: 'BIZ' });
    const paths = res.body.detail.issues.map((i: { path: string }) => i.path);
    for (const p of c.paths) if (p) expect(paths).toContain(p);
    expect(res.body.detail.issues.every((i: { message: string }) => typeof i.message === 'string' && i.message.length > 0)).toBe(true);
    expect(await orgSnapshot(t, adminA.engineCode)).toEqual(before);
  });
});
