import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueMobile, type TestApp } from '../../../test/helpers.ts';
import { openOrgEngine, type OrgClient, type Person } from '../../../test/org-helpers.ts';

let t: TestApp;
let admin: Person;
let org: OrgClient;
let companyId: string;

beforeAll(async () => {
  ({ t, admin, org, companyId } = await openOrgEngine('管理员', '角色测试公司'));
});
afterAll(() => t.close());

const newUser = async (name: string, departmentIds = [companyId]) => (await org.post('/v1/org/user/create', { name, mobile: uniqueMobile(), departmentIds })).id as string;

describe('role groups and roles', () => {
  it('groups roles, lists them and counts members', async () => {
    const group = await org.post('/v1/org/rolegroup/create', { name: '财务角色' });
    expect(group).toMatchObject({ unitType: 'RoleGroup', nodeType: 'role', parentId: companyId, roleCount: 0, hasChild: false });
    const cashier = await org.post('/v1/org/role/create', { groupId: group.id, name: '出纳' });
    const accountant = await org.post('/v1/org/role/create', { groupId: group.id, name: '会计' });
    expect(cashier).toMatchObject({ unitType: 'Role', nodeType: 'role', parentId: group.id, groupName: '财务角色', memberCount: 0 });
    const a = await newUser('甲一');
    const b = await newUser('乙二');
    expect(await org.post('/v1/org/role/member/add', { roleId: cashier.id, userIds: [a, b] })).toEqual({ changed: 2 });
    // Adding again changes nothing.
    expect(await org.post('/v1/org/role/member/add', { roleId: cashier.id, userIds: [a] })).toEqual({ changed: 0 });
    const roles = await org.get('/v1/org/role/list', { groupId: group.id });
    expect(roles.list.map((r: { name: string; memberCount: number }) => [r.name, r.memberCount])).toEqual([['出纳', 2], ['会计', 0]]);
    const groups = await org.get('/v1/org/rolegroup/list');
    expect(groups.list.find((g: { id: string }) => g.id === group.id)).toMatchObject({ roleCount: 2, hasChild: true });
    const members = await org.post('/v1/org/user/list', { roleId: cashier.id });
    expect(members.list.map((u: { name: string }) => u.name)).toEqual(['甲一', '乙二']);
    expect(await org.post('/v1/org/role/member/remove', { roleId: cashier.id, userIds: [b] })).toEqual({ changed: 1 });
    expect((await org.post('/v1/org/user/list', { roleId: cashier.id })).total).toBe(1);
    const detail = await org.get('/v1/org/user', { id: a });
    expect(detail.roles).toEqual([{ id: cashier.id, name: '出纳', groupId: group.id }]);
    // Keyword search in the role list.
    expect((await org.get('/v1/org/role/list', { keyword: 'kj' })).list.map((r: { id: string }) => r.id)).toEqual([accountant.id]);
  });

  it('refuses duplicate names, removes an empty group only, and moves or removes roles', async () => {
    const g1 = await org.post('/v1/org/rolegroup/create', { name: '组一' });
    const g2 = await org.post('/v1/org/rolegroup/create', { name: '组二' });
    expect((await org.raw('POST', '/v1/org/rolegroup/create', { name: '组一' })).body.errorCode).toBe(220014);
    const role = await org.post('/v1/org/role/create', { groupId: g1.id, name: '审批人' });
    expect((await org.raw('POST', '/v1/org/role/create', { groupId: g1.id, name: '审批人' })).body.errorCode).toBe(220013);
    expect((await org.raw('POST', '/v1/org/rolegroup/remove', { id: g1.id })).body).toMatchObject({ errorCode: 220012, detail: { roleCount: 1 } });
    const moved = await org.post('/v1/org/role/update', { id: role.id, groupId: g2.id, name: '审批人员' });
    expect(moved).toMatchObject({ parentId: g2.id, groupName: '组二', name: '审批人员' });
    expect(await org.post('/v1/org/rolegroup/remove', { id: g1.id })).toEqual({});
    expect((await org.post('/v1/org/rolegroup/update', { id: g2.id, name: '组二改' })).name).toBe('组二改');
    const u = await newUser('角色成员');
    await org.post('/v1/org/role/member/add', { roleId: role.id, userIds: [u] });
    expect(await org.post('/v1/org/role/remove', { id: role.id })).toEqual({});
    expect((await org.get('/v1/org/user', { id: u })).roles).toEqual([]);
    expect((await org.raw('GET', '/v1/org/unit/info', { id: role.id })).body.errorCode).toBe(220001);
  });

  it('refuses a role in something that is not a role group, and members that are not users', async () => {
    const dept = await org.post('/v1/org/department/create', { parentId: companyId, name: '不是角色组' });
    expect((await org.raw('POST', '/v1/org/role/create', { groupId: dept.id, name: '错位' })).body).toMatchObject({ errorCode: 220001, detail: { expected: 'RoleGroup' } });
    const g = await org.post('/v1/org/rolegroup/create', { name: '成员校验组' });
    const r = await org.post('/v1/org/role/create', { groupId: g.id, name: '成员校验' });
    expect((await org.raw('POST', '/v1/org/role/member/add', { roleId: r.id, userIds: [dept.id] })).body).toMatchObject({ errorCode: 220001, detail: { ids: [dept.id] } });
    expect((await org.raw('POST', '/v1/org/role/member/add', { roleId: g.id, userIds: [] })).body.errorCode).toBe(777);
  });

  it('assigns roles and posts when creating or updating a user', async () => {
    const g = await org.post('/v1/org/rolegroup/create', { name: '创建时角色' });
    const r1 = await org.post('/v1/org/role/create', { groupId: g.id, name: '角色一' });
    const r2 = await org.post('/v1/org/role/create', { groupId: g.id, name: '角色二' });
    const p = await org.post('/v1/org/post/create', { name: '创建时岗位' });
    const user = await org.post('/v1/org/user/create', { name: '带角色', mobile: uniqueMobile(), departmentIds: [companyId], roleIds: [r1.id], postIds: [p.id] });
    expect(user.roles.map((r: { id: string }) => r.id)).toEqual([r1.id]);
    expect(user.posts).toEqual([{ id: p.id, name: '创建时岗位' }]);
    const updated = await org.post('/v1/org/user/update', { id: user.id, roleIds: [r2.id, r1.id], postIds: [] });
    expect(updated.roles.map((r: { name: string }) => r.name)).toEqual(['角色二', '角色一']);
    expect(updated.posts).toEqual([]);
    expect((await org.raw('POST', '/v1/org/user/update', { id: user.id, roleIds: [p.id] })).body).toMatchObject({ errorCode: 220001, detail: { expected: 'Role' } });
  });
});

describe('posts', () => {
  it('creates, renames, staffs and removes posts', async () => {
    const post = await org.post('/v1/org/post/create', { name: '质检员' });
    expect(post).toMatchObject({ unitType: 'Post', nodeType: 'post', parentId: companyId, memberCount: 0 });
    expect((await org.raw('POST', '/v1/org/post/create', { name: '质检员' })).body.errorCode).toBe(220015);
    const u = await newUser('岗位人');
    expect(await org.post('/v1/org/post/member/add', { postId: post.id, userIds: [u] })).toEqual({ changed: 1 });
    expect((await org.get('/v1/org/post/list')).list.find((p: { id: string }) => p.id === post.id)).toMatchObject({ memberCount: 1 });
    expect((await org.post('/v1/org/user/list', { postId: post.id })).list.map((x: { id: string }) => x.id)).toEqual([u]);
    expect((await org.post('/v1/org/post/update', { id: post.id, name: '质检主管' })).name).toBe('质检主管');
    expect((await org.get('/v1/org/post/list', { keyword: 'zjzg' })).list.map((p: { id: string }) => p.id)).toEqual([post.id]);
    expect(await org.post('/v1/org/post/member/remove', { postId: post.id, userIds: [u] })).toEqual({ changed: 1 });
    expect(await org.post('/v1/org/post/remove', { id: post.id })).toEqual({});
  });
});

describe('units by id, associations and ranges', () => {
  it('answers units of every type by id and leaves unknown ids out', async () => {
    const d = await org.post('/v1/org/department/create', { parentId: companyId, name: '批量部门' });
    const u = await newUser('批量人', [d.id]);
    const g = await org.post('/v1/org/rolegroup/create', { name: '批量组' });
    const r = await org.post('/v1/org/role/create', { groupId: g.id, name: '批量角色' });
    const batch = await org.post('/v1/org/unit/batch', { ids: [u, d.id, r.id, g.id, 'unknown-id'] });
    expect(batch.list.map((x: { unitType: string }) => x.unitType)).toEqual(['OrganizationUnit', 'User', 'Role', 'RoleGroup']);
    expect(batch.list.find((x: { id: string }) => x.id === u)).toMatchObject({ name: '批量人', parentName: '批量部门', mobile: expect.stringMatching(/^1\d{10}$/) });
    const info = await org.post('/v1/org/info/byids', { ids: [u, d.id, r.id, g.id, 'unknown-id'] });
    expect(info.users.map((x: { id: string }) => x.id)).toEqual([u]);
    expect(info.departments.map((x: { id: string }) => x.id)).toEqual([d.id]);
    expect(info.roles.map((x: { id: string }) => x.id)).toEqual([r.id]);
    expect(await org.get('/v1/org/unit/info', { id: d.id })).toMatchObject({ id: d.id, unitType: 'OrganizationUnit', hasChild: true });
  });

  it('lists a user\'s departments, roles and posts', async () => {
    const d1 = await org.post('/v1/org/department/create', { parentId: companyId, name: '关联一' });
    const d2 = await org.post('/v1/org/department/create', { parentId: companyId, name: '关联二' });
    const u = await newUser('关联人', [d2.id, d1.id]);
    const g = await org.post('/v1/org/rolegroup/create', { name: '关联组' });
    const r = await org.post('/v1/org/role/create', { groupId: g.id, name: '关联角色' });
    const p = await org.post('/v1/org/post/create', { name: '关联岗位' });
    await org.post('/v1/org/role/member/add', { roleId: r.id, userIds: [u] });
    await org.post('/v1/org/post/member/add', { postId: p.id, userIds: [u] });
    const assoc = await org.post('/v1/org/association/list', { userIds: [u] });
    expect(assoc.list.map((a: { name: string; unitType: string; isMain: boolean }) => [a.unitType, a.name, a.isMain])).toEqual([
      ['OrganizationUnit', '关联二', true],
      ['OrganizationUnit', '关联一', false],
      ['Role', '关联角色', false],
      ['Post', '关联岗位', false],
    ]);
    const rolesOnly = await org.post('/v1/org/association/list', { userIds: [u], unitTypes: ['Role'] });
    expect(rolesOnly.total).toBe(1);
    const paged = await org.post('/v1/org/association/list', { userIds: [u], pageSize: 1, pageIndex: 3 });
    expect(paged).toMatchObject({ total: 4, hasMore: false });
  });

  it('checks whether units lie within a range of departments, roles, posts and users', async () => {
    const top = await org.post('/v1/org/department/create', { parentId: companyId, name: '范围顶' });
    const sub = await org.post('/v1/org/department/create', { parentId: top.id, name: '范围下' });
    const outside = await org.post('/v1/org/department/create', { parentId: companyId, name: '范围外' });
    const inSub = await newUser('范围内', [sub.id]);
    const out = await newUser('范围外人', [outside.id]);
    const roleMember = await newUser('角色内', [outside.id]);
    const g = await org.post('/v1/org/rolegroup/create', { name: '范围组' });
    const r = await org.post('/v1/org/role/create', { groupId: g.id, name: '范围角色' });
    await org.post('/v1/org/role/member/add', { roleId: r.id, userIds: [roleMember] });
    const res = await org.post('/v1/org/unit/checkRange', { unitIds: [inSub, sub.id, out, outside.id, roleMember, 'nope'], rangeIds: [top.id, r.id] });
    expect(res.list).toEqual([
      { unitId: inSub, inRange: true },
      { unitId: sub.id, inRange: true },
      { unitId: out, inRange: false },
      { unitId: outside.id, inRange: false },
      { unitId: roleMember, inRange: true },
      { unitId: 'nope', inRange: false },
    ]);
    expect(res.allInRange).toBe(false);
    expect((await org.post('/v1/org/unit/checkRange', { unitIds: [out], rangeIds: [out] })).allInRange).toBe(true);
  });
});
