import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { companyIdOf, orgClient, type OrgClient, type Person } from '../../../test/org-helpers.ts';
import { engineDb } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { insertUsers } from './org.repo.ts';

// test-databases: both — trigram and ILIKE searches (docs/testing.md "Runs on both databases").

let t: TestApp;
let admin: Person;
let org: OrgClient;
let companyId: string;
const ids: Record<string, string> = {};

const people = [
  ['张三丰', '13911110001'],
  ['张伟', '13911110002'],
  ['李张', '13911110003'],
  ['曾小贤', '13911110004'],
  ['吕布', '13911110005'],
  ['欧阳娜娜', '13811112345'],
  ['Tom 李', '13911110007'],
] as const;

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerPerson(t.app, { userName: '管理员', engineName: '搜索测试' });
  org = orgClient(t.app, admin);
  companyId = await companyIdOf(t, admin.engineCode);
  const rd = await org.post('/v1/org/department/create', { parentId: companyId, name: '张家口分公司' });
  ids.rd = rd.id;
  for (const [name, mobile] of people) ids[name] = (await org.post('/v1/org/user/create', { name, mobile, departmentIds: [name === '张伟' ? rd.id : companyId] })).id;
});
afterAll(() => t.close());

const names = async (body: Record<string, unknown>) => (await org.post('/v1/org/search', body)).list.map((x: { name: string }) => x.name);

describe('/v1/org/search', () => {
  it('finds by a 汉字 fragment, names starting with it first, then departments before users', async () => {
    expect(await names({ keyword: '张' })).toEqual(['张家口分公司', '张三丰', '张伟', '李张']);
    expect(await names({ keyword: '三丰' })).toEqual(['张三丰']);
  });

  it('finds by full pinyin, with or without spaces, in any case', async () => {
    expect(await names({ keyword: 'zhangsanfeng' })).toEqual(['张三丰']);
    expect(await names({ keyword: 'Zhang San', unitTypes: ['User'] })).toEqual(['张三丰']);
    expect(await names({ keyword: 'zengxiaoxian' })).toEqual(['曾小贤']);
    expect(await names({ keyword: 'lvbu' })).toEqual(['吕布']);
    expect(await names({ keyword: 'ouyang' })).toEqual(['欧阳娜娜']);
  });

  it('finds by pinyin initials', async () => {
    expect(await names({ keyword: 'zsf' })).toEqual(['张三丰']);
    expect(await names({ keyword: 'zw', unitTypes: ['User'] })).toEqual(['张伟']);
    expect(await names({ keyword: 'oynn' })).toEqual(['欧阳娜娜']);
    expect(await names({ keyword: 'zjk' })).toEqual(['张家口分公司']);
  });

  it('finds by a mobile number or a fragment of one', async () => {
    expect(await names({ keyword: '13811112345' })).toEqual(['欧阳娜娜']);
    expect(await names({ keyword: '2345' })).toEqual(['欧阳娜娜']);
    const res = await org.post('/v1/org/search', { keyword: '1391111000', pageSize: 3 });
    expect(res).toMatchObject({ total: 6, hasMore: true });
    expect(res.list[0]).toMatchObject({ unitType: 'User', nodeType: 'user', mobile: expect.stringMatching(/^1391111000/) });
  });

  it('finds names with Latin letters, and treats LIKE wildcards as text', async () => {
    expect(await names({ keyword: 'tom' })).toEqual(['Tom 李']);
    expect(await names({ keyword: '%' })).toEqual([]);
    expect(await names({ keyword: '_' })).toEqual([]);
  });

  it('limits to unit types, a department subtree, a scope and a state', async () => {
    expect(await names({ keyword: 'zhang', unitTypes: ['OrganizationUnit'] })).toEqual(['张家口分公司']);
    expect(await names({ keyword: 'zhang', departmentId: ids.rd })).toEqual(['张家口分公司', '张伟']);
    expect(await names({ keyword: 'zhang', scope: 'external' })).toEqual([]);
    await org.post('/v1/org/user/disable', { id: ids['张伟'] });
    expect(await names({ keyword: 'zhangwei', unitTypes: ['User'] })).toEqual([]);
    expect(await names({ keyword: 'zhangwei', unitTypes: ['User'], state: 'all' })).toEqual(['张伟']);
    await org.post('/v1/org/user/enable', { id: ids['张伟'] });
  });

  it('follows renames: the pinyin keys are computed on every write', async () => {
    await org.post('/v1/org/user/update', { id: ids['吕布'], name: '貂蝉' });
    expect(await names({ keyword: 'lvbu' })).toEqual([]);
    expect(await names({ keyword: 'dc', unitTypes: ['User'] })).toEqual(['貂蝉']);
    await org.post('/v1/org/user/update', { id: ids['吕布'], name: '吕布' });
  });
});

describe('/v1/org/search/byname', () => {
  it('matches whole names exactly, several at once, and keeps namesakes apart by department', async () => {
    const res = await org.post('/v1/org/search/byname', { names: ['张伟', '李张', '无此人'] });
    expect(res.list.map((x: { name: string; parentName: string }) => [x.name, x.parentName])).toEqual([['李张', '搜索测试'], ['张伟', '张家口分公司']]);
    expect((await org.post('/v1/org/search/byname', { names: ['张'] })).total).toBe(0);
    const depts = await org.post('/v1/org/search/byname', { names: ['张家口分公司'], unitTypes: ['OrganizationUnit'] });
    expect(depts.list.map((x: { id: string }) => x.id)).toEqual([ids.rd]);
  });
});

describe('paging', () => {
  it('pages user lists from 0 with 50 by default, and refuses "all" beyond 5000 rows with a clear 777', async () => {
    const edb = engineDb(t.database.db, admin.engineCode);
    const batch = Array.from({ length: 5001 }, (_, i) => ({
      id: newId(),
      account_id: null,
      name: `批量${String(i).padStart(4, '0')}`,
      mobile: `170${String(i).padStart(8, '0')}`,
      auth_type: 3,
      is_external: false,
      main_department_id: companyId,
    }));
    for (let i = 0; i < batch.length; i += 1000) await insertUsers(edb, batch.slice(i, i + 1000));
    const first = await org.post('/v1/org/user/list', {});
    expect(first.list).toHaveLength(50);
    expect(first.hasMore).toBe(true);
    expect(first.total).toBe(5001 + people.length + 1);
    const last = await org.post('/v1/org/user/list', { pageIndex: 100, pageSize: 50 });
    expect(last.list).toHaveLength(first.total - 5000);
    expect(last.hasMore).toBe(false);
    const all = await org.raw('POST', '/v1/org/user/list', { pageSize: -1 });
    expect(all.body).toMatchObject({ successful: false, errorCode: 777, detail: { issues: [{ path: 'pageSize' }] } });
    expect(all.body.detail.issues[0].message).toContain('5000');
    const few = await org.post('/v1/org/user/list', { pageSize: -1, keyword: '批量000' });
    expect(few).toMatchObject({ total: 10, hasMore: false });
    const found = await org.post('/v1/org/search', { keyword: 'piliang4999', pageSize: 5 });
    expect(found.list.map((x: { name: string }) => x.name)).toEqual(['批量4999']);
  });
});
