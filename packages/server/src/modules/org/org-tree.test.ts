import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_ROOT_NODE_ID, EXTERNAL_ROOT_NODE_NAME } from '@tritium/shared/constants/org';
import { uniqueMobile, type TestApp } from '../../../test/helpers.ts';
import { openOrgEngine, orgSnapshot, type OrgClient, type Person } from '../../../test/org-helpers.ts';
import type { AppError } from '../../lib/app-error.ts';
import { updateUnit } from './org.repo.ts';
import { inOrgTransaction } from './org.service.ts';
import { moveDepartment } from './department.service.ts';

// test-databases: both — recursive queries over departments (docs/testing.md "Runs on both databases").

let t: TestApp;
let admin: Person;
let org: OrgClient;
let companyId: string;

beforeAll(async () => {
  ({ t, admin, org, companyId } = await openOrgEngine('张三', '氚星科技'));
});
afterAll(() => t.close());

const create = (parentId: string, name: string, extra: Record<string, unknown> = {}) => org.post('/v1/org/department/create', { parentId, name, ...extra });
const children = async (parentId: string) => (await org.post('/v1/org/department/list', { parentId, pageSize: -1 })).list.map((d: { name: string }) => d.name);

describe('the roots', () => {
  it('has the company root and the external root 外部组织 with its fixed id', async () => {
    const roots = await org.post('/v1/org/department/list', { scope: 'all' });
    expect(roots.list.map((d: { id: string }) => d.id)).toEqual([companyId, EXTERNAL_ROOT_NODE_ID]);
    expect(roots.list[0]).toMatchObject({ unitType: 'Company', name: '氚星科技', parentId: null, isExternal: false, nodeType: 'department', state: 'normal' });
    expect(roots.list[1]).toMatchObject({ unitType: 'OrganizationUnit', name: EXTERNAL_ROOT_NODE_NAME, isExternal: true, parentId: null, hasChild: false });
    expect(EXTERNAL_ROOT_NODE_NAME).toBe('外部组织');
    expect((await org.post('/v1/org/department/list', {})).list.map((d: { id: string }) => d.id)).toEqual([companyId]);
    expect((await org.post('/v1/org/department/list', { scope: 'external' })).list.map((d: { id: string }) => d.id)).toEqual([EXTERNAL_ROOT_NODE_ID]);
  });

  it('refuses to move, remove or rename a root', async () => {
    const d = await create(companyId, '根测试');
    for (const [url, body] of [
      ['/v1/org/department/remove', { id: companyId }],
      ['/v1/org/department/remove', { id: EXTERNAL_ROOT_NODE_ID }],
      ['/v1/org/department/move', { id: companyId, parentId: d.id }],
      ['/v1/org/department/update', { id: EXTERNAL_ROOT_NODE_ID, name: '外部' }],
      ['/v1/org/department/update', { id: companyId, name: '别名' }],
    ] as const) {
      const res = await org.raw('POST', url, body);
      expect(res.body, url).toMatchObject({ successful: false, errorCode: 220004 });
    }
  });
});

describe('department tree', () => {
  it('creates departments in order and reports hasChild', async () => {
    const sales = await create(companyId, '销售部');
    expect(sales).toMatchObject({ parentId: companyId, name: '销售部', unitType: 'OrganizationUnit', hasChild: false, isExternal: false, managerId: null });
    const north = await create(sales.id, '华北区');
    await create(sales.id, '华南区');
    expect(await children(sales.id)).toEqual(['华北区', '华南区']);
    const detail = await org.get('/v1/org/department', { id: sales.id });
    expect(detail).toMatchObject({ hasChild: true, childCount: 2, userCount: 0, path: [{ id: companyId, name: '氚星科技' }] });
    const deep = await org.get('/v1/org/department', { id: north.id });
    expect(deep.path.map((p: { name: string }) => p.name)).toEqual(['氚星科技', '销售部']);
  });

  it('refuses a second department of the same name under one parent (220005) but allows it elsewhere', async () => {
    const a = await create(companyId, '同名测试');
    const dup = await org.raw('POST', '/v1/org/department/create', { parentId: companyId, name: '同名测试' });
    expect(dup.body.errorCode).toBe(220005);
    expect((await create(a.id, '同名测试')).parentId).toBe(a.id);
  });

  it('moves a department with its whole subtree and its members', async () => {
    const rd = await create(companyId, '研发部');
    const backend = await create(rd.id, '后端组');
    const db = await create(backend.id, '数据库小组');
    const member = await org.post('/v1/org/user/create', { name: '李四', mobile: uniqueMobile(), departmentIds: [db.id] });
    const product = await create(companyId, '产品部');
    const moved = await org.post('/v1/org/department/move', { id: backend.id, parentId: product.id });
    expect(moved.parentId).toBe(product.id);
    expect(await children(product.id)).toEqual(['后端组']);
    expect(await children(rd.id)).toEqual([]);
    const subtree = await org.post('/v1/org/department/list', { parentId: product.id, recursive: true, pageSize: -1 });
    expect(subtree.list.map((d: { name: string }) => d.name).sort()).toEqual(['后端组', '数据库小组']);
    const path = await org.get('/v1/org/department', { id: db.id });
    expect(path.path.map((p: { name: string }) => p.name)).toEqual(['氚星科技', '产品部', '后端组']);
    const users = await org.post('/v1/org/user/list', { departmentId: product.id, recursive: true });
    expect(users.list.map((u: { id: string }) => u.id)).toEqual([member.id]);
  });

  it('refuses a cycle: under itself or under one of its descendants (220002), changing nothing', async () => {
    const top = await create(companyId, '环路测试');
    const mid = await create(top.id, '中层');
    const leaf = await create(mid.id, '底层');
    const before = await orgSnapshot(t, admin.engineCode);
    for (const parentId of [top.id, mid.id, leaf.id]) {
      const res = await org.raw('POST', '/v1/org/department/move', { id: top.id, parentId });
      expect(res.body).toMatchObject({ successful: false, errorCode: 220002, errorMessage: '不能把部门移动到它自己或它的下级部门之下' });
    }
    expect(await orgSnapshot(t, admin.engineCode)).toEqual(before);
    // Moving a descendant up is fine.
    expect((await org.post('/v1/org/department/move', { id: leaf.id, parentId: top.id })).parentId).toBe(top.id);
  });

  it('serialises changes of one engine: a move waiting on another sees it and refuses the cycle', async () => {
    const x = await create(companyId, '并发甲');
    const y = await create(companyId, '并发乙');
    const ctx = { db: t.database.db, engineCode: admin.engineCode, companyId, userId: 'test' };
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The first change moves x under y and holds its transaction open.
    const first = inOrgTransaction(ctx, async ({ edb }) => {
      await updateUnit(edb, x.id, { parent_id: y.id });
      await gate;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Without the engine's organisation lock this would read the old tree and build a cycle on PostgreSQL.
    const second = moveDepartment(ctx, { id: y.id, parentId: x.id }).then(
      () => 'moved',
      (error: AppError) => error.errorName,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await first;
    expect(await second).toBe('DepartmentCycle');
  });

  it('refuses to move a department under a parent that already has one of its name', async () => {
    const a = await create(companyId, '移动重名A');
    const b = await create(companyId, '移动重名B');
    const inner = await create(a.id, '小组');
    await create(b.id, '小组');
    expect((await org.raw('POST', '/v1/org/department/move', { id: inner.id, parentId: b.id })).body.errorCode).toBe(220005);
  });

  it('refuses to remove a department with sub-departments or members (220003) and removes an empty one', async () => {
    const parent = await create(companyId, '待删除');
    const child = await create(parent.id, '子部门');
    const withChild = await org.raw('POST', '/v1/org/department/remove', { id: parent.id });
    expect(withChild.body).toMatchObject({ successful: false, errorCode: 220003, detail: { childCount: 1, userCount: 0 } });
    const user = await org.post('/v1/org/user/create', { name: '王五', mobile: uniqueMobile(), departmentIds: [child.id] });
    const withMember = await org.raw('POST', '/v1/org/department/remove', { id: child.id });
    expect(withMember.body).toMatchObject({ errorCode: 220003, detail: { childCount: 0, userCount: 1 } });
    // Moving the member out empties it.
    await org.post('/v1/org/user/move', { userIds: [user.id], fromDepartmentId: child.id, toDepartmentId: companyId });
    expect(await org.post('/v1/org/department/remove', { id: child.id })).toEqual({});
    expect(await org.post('/v1/org/department/remove', { id: parent.id })).toEqual({});
    expect((await org.raw('GET', '/v1/org/department', { id: parent.id })).body).toMatchObject({ errorCode: 220001 });
    expect((await org.raw('GET', '/v1/org/department', { id: parent.id })).status).toBe(404);
  });

  it('a disabled member still keeps the department from being removed', async () => {
    const d = await create(companyId, '停用成员部门');
    const u = await org.post('/v1/org/user/create', { name: '赵六', mobile: uniqueMobile(), departmentIds: [d.id] });
    await org.post('/v1/org/user/disable', { id: u.id });
    expect((await org.raw('POST', '/v1/org/department/remove', { id: d.id })).body.errorCode).toBe(220003);
  });

  it('re-orders siblings by sortKey', async () => {
    const p = await create(companyId, '排序测试');
    const a = await create(p.id, '甲');
    await create(p.id, '乙');
    await org.post('/v1/org/department/update', { id: a.id, sortKey: 99 });
    expect(await children(p.id)).toEqual(['乙', '甲']);
  });
});

describe('managers', () => {
  it('sets, shows and clears a department manager', async () => {
    const d = await create(companyId, '主管测试');
    const boss = await org.post('/v1/org/user/create', { name: '钱七', mobile: uniqueMobile(), departmentIds: [d.id] });
    const updated = await org.post('/v1/org/department/update', { id: d.id, managerId: boss.id });
    expect(updated).toMatchObject({ managerId: boss.id, managerName: '钱七' });
    const user = await org.get('/v1/org/user', { id: boss.id });
    expect(user.departments).toEqual([{ id: d.id, name: '主管测试', isMain: true, isManager: true, isExternal: false }]);
    const assoc = await org.post('/v1/org/association/list', { userIds: [boss.id] });
    expect(assoc.list).toEqual([{ userId: boss.id, unitId: d.id, unitType: 'OrganizationUnit', name: '主管测试', isMain: true, isManager: true }]);
    expect(await org.post('/v1/org/department/update', { id: d.id, managerId: null })).toMatchObject({ managerId: null, managerName: null });
    const withManager = await create(companyId, '带主管新建', { managerId: boss.id });
    expect(withManager.managerName).toBe('钱七');
  });

  it('refuses a manager that is not a user of the engine', async () => {
    const d = await create(companyId, '主管无效');
    const res = await org.raw('POST', '/v1/org/department/update', { id: d.id, managerId: d.id });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ errorCode: 220001, detail: { id: d.id, expected: 'User' } });
  });
});

describe('external organisation', () => {
  it('keeps external departments under 外部组织 and refuses mixing with the internal tree', async () => {
    const partner = await create(EXTERNAL_ROOT_NODE_ID, '合作伙伴甲');
    expect(partner).toMatchObject({ isExternal: true, parentId: EXTERNAL_ROOT_NODE_ID });
    const team = await create(partner.id, '对接小组');
    expect(team.isExternal).toBe(true);
    const ext = await org.get('/v1/org/external/department/list');
    expect(ext.list.map((d: { name: string }) => d.name)).toContain('合作伙伴甲');
    const all = await org.get('/v1/org/external/department/list', { recursive: 'true' });
    expect(all.list.map((d: { name: string }) => d.name)).toEqual(expect.arrayContaining(['合作伙伴甲', '对接小组']));
    expect((await org.raw('GET', '/v1/org/external/department/list', { parentId: companyId })).body.errorCode).toBe(220001);
    // A named external department lists its children without asking for the external scope.
    expect(await children(partner.id)).toEqual(['对接小组']);
    expect((await org.post('/v1/org/list', { parentId: partner.id })).list.map((x: { name: string }) => x.name)).toEqual(['对接小组']);

    const inner = await create(companyId, '内部部门');
    expect((await org.raw('POST', '/v1/org/department/move', { id: inner.id, parentId: partner.id })).body.errorCode).toBe(220006);
    expect((await org.raw('POST', '/v1/org/department/move', { id: team.id, parentId: companyId })).body.errorCode).toBe(220006);

    const guest = await org.post('/v1/org/user/create', { name: '外部联系人', mobile: uniqueMobile(), departmentIds: [team.id] });
    expect(guest).toMatchObject({ isExternal: true, authType: 5, mainDepartmentId: team.id });
    const mixed = await org.raw('POST', '/v1/org/user/create', { name: '混合', mobile: uniqueMobile(), departmentIds: [team.id, inner.id] });
    expect(mixed.body.errorCode).toBe(220006);
    const wrongType = await org.raw('POST', '/v1/org/user/create', { name: '类型', mobile: uniqueMobile(), departmentIds: [team.id], authType: 3 });
    expect(wrongType.body.errorCode).toBe(220016);
    const innerExternal = await org.raw('POST', '/v1/org/user/create', { name: '类型二', mobile: uniqueMobile(), departmentIds: [inner.id], authType: 5 });
    expect(innerExternal.body.errorCode).toBe(220016);
    expect((await org.raw('POST', '/v1/org/user/move', { userIds: [guest.id], toDepartmentId: inner.id })).body.errorCode).toBe(220006);

    const inner2 = await org.post('/v1/org/user/list', { scope: 'inner', pageSize: -1 });
    expect(inner2.list.some((u: { id: string }) => u.id === guest.id)).toBe(false);
    const external = await org.post('/v1/org/user/list', { scope: 'external' });
    expect(external.list.map((u: { id: string }) => u.id)).toEqual([guest.id]);
    expect((await org.post('/v1/org/user/list', { departmentId: team.id })).list.map((u: { id: string }) => u.id)).toEqual([guest.id]);
    const both = await org.post('/v1/org/user/list', { scope: 'all', pageSize: -1 });
    expect(both.list.some((u: { id: string }) => u.id === guest.id)).toBe(true);
  });
});

describe('picker lists', () => {
  it('/v1/org/list shows sub-departments first, then the members, and pages in SQL', async () => {
    const d = await create(companyId, '选择器');
    await create(d.id, '子一');
    await create(d.id, '子二');
    for (const name of ['艾伦', '贝蒂', '陈晨']) await org.post('/v1/org/user/create', { name, mobile: uniqueMobile(), departmentIds: [d.id] });
    const all = await org.post('/v1/org/list', { parentId: d.id });
    expect(all.list.map((u: { name: string; unitType: string }) => `${u.unitType}:${u.name}`)).toEqual([
      'OrganizationUnit:子一', 'OrganizationUnit:子二', 'User:艾伦', 'User:贝蒂', 'User:陈晨',
    ]);
    expect(all).toMatchObject({ total: 5, hasMore: false });
    const page1 = await org.post('/v1/org/list', { parentId: d.id, pageIndex: 1, pageSize: 2 });
    expect(page1.list.map((u: { name: string }) => u.name)).toEqual(['艾伦', '贝蒂']);
    expect(page1).toMatchObject({ total: 5, hasMore: true });
    const page2 = await org.post('/v1/org/list', { parentId: d.id, pageIndex: 2, pageSize: 2 });
    expect(page2).toMatchObject({ total: 5, hasMore: false });
    expect(page2.list.map((u: { name: string }) => u.name)).toEqual(['陈晨']);
    const beyond = await org.post('/v1/org/list', { parentId: d.id, pageIndex: 9, pageSize: 2 });
    expect(beyond).toEqual({ list: [], total: 5, hasMore: false });
    const onlyUsers = await org.post('/v1/org/list', { parentId: d.id, unitTypes: ['User'] });
    expect(onlyUsers.total).toBe(3);
    expect(all.list[0]).toMatchObject({ hasChild: false, nodeType: 'department', parentName: '选择器' });
    expect(all.list[2]).toMatchObject({ nodeType: 'user', parentName: '选择器', authType: 3 });
    const top = await org.post('/v1/org/list', {});
    expect(top.list.map((u: { id: string }) => u.id)).toEqual([companyId]);
    expect(top.list[0].hasChild).toBe(true);
  });

  it('/v1/org/currentandchild gives a department and everything below it; by default the caller\'s main department', async () => {
    const d = await create(companyId, '当前及下级');
    const c = await create(d.id, '下级一');
    await create(c.id, '下级二');
    const res = await org.post('/v1/org/currentandchild', { departmentId: d.id });
    expect(res.current).toMatchObject({ id: d.id, name: '当前及下级', hasChild: true });
    expect(res.list.map((x: { name: string }) => x.name).sort()).toEqual(['下级一', '下级二']);
    expect(res.total).toBe(2);
    const mine = await org.post('/v1/org/currentandchild', {});
    expect(mine.current.id).toBe(companyId);
    expect(mine.total).toBeGreaterThan(5);
  });

  it('loads the whole tree with pageSize -1 and refuses a page size beyond the options', async () => {
    const tree = await org.post('/v1/org/department/list', { recursive: true, scope: 'all', pageSize: -1 });
    expect(tree.hasMore).toBe(false);
    expect(tree.total).toBe(tree.list.length);
    const ids = new Set(tree.list.map((d: { id: string }) => d.id));
    // Every department's parent is in the answer (a tree the client can build), except the roots.
    expect(tree.list.every((d: { parentId: string | null }) => d.parentId === null || ids.has(d.parentId))).toBe(true);
  });
});
