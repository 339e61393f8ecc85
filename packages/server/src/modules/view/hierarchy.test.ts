import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { HIERARCHY_LIMIT_MESSAGE, TREE_LIMIT_MESSAGE } from '@tritium/shared/constants/limits';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { createApp, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, engineSql, indexesOf, publish, saveDraft, tableRef } from '../../../test/form-helpers.ts';
import { treeParentIndexName } from '../form-design/tree-structure.ts';

// test-databases: both — level-by-level queries (docs/testing.md "Runs on both databases").

// Tree forms in the designer and the Hierarchy view (docs/decisions/0023) on PGlite and PostgreSQL: checktreestructure
// with a parent control, publishing refused over bad rows, hierarchy views checked when saved, levels answered a page
// at a time with child counts, the level and record limits, and other engines kept out.

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
beforeAll(async () => ({ t, admin, a, appCode } = await adminWithApp()));
afterAll(() => t.close());

const q = (query: ReturnType<typeof sql>) => engineSql(t, query);
const CONTROLS = (code: string) => [
  { type: 'textBox', code: 'Title', options: { displayName: '名称' } },
  { type: 'number', code: 'Size', options: { displayName: '人数' } },
  { type: 'associationQuery', code: 'Parent', options: { displayName: '上级', schemaCode: code } },
];

async function departments(attributes: Record<string, unknown> = {}) {
  const code = (await createForm(a, appCode, { displayName: '部门' })).code as string;
  await publish(a, code, definition(CONTROLS(code), attributes));
  const name = `i_${code.toLowerCase()}`;
  return { code, name, table: tableRef(admin.engineCode, name) };
}

async function insert(table: ReturnType<typeof tableRef>, title: string, parent: string | null, size = 1): Promise<string> {
  const [row] = await q(sql`insert into ${table} ("Title", "Parent", "Size", "Status", "Name") values (${title}, ${parent}, ${size}, 1, ${title}) returning "ObjectId"::text as id`);
  return row.id as string;
}

const HIERARCHY = { code: 'Tree', title: '组织架构', mode: 6, parentField: 'Parent', columns: [{ field: 'Title' }, { field: 'Size' }], sort: [{ field: 'Size', direction: 'asc' }] };

describe('checktreestructure and publishing', () => {
  it('checks a parent control named in the call, and indexes its column', async () => {
    const { code, name, table } = await departments();
    const root = await insert(table, '总部', null);
    await insert(table, '华东', root);
    const check = await a.post('/v1/formdesign/checktreestructure', { schemaCode: code, parentCode: 'Parent' });
    expect(check).toEqual({ valid: true, records: 2, levels: 2 });
    expect(Object.keys(await indexesOf(t, admin.engineCode, name))).toContain(treeParentIndexName(name, 'Parent'));
    expect(await a.post('/v1/formdesign/checktreestructure', { schemaCode: code, parentCode: 'Title' })).toMatchObject({ valid: false, problem: 'notAssociation' });
  });

  it('refuses to publish tree display on over a cycle, and publishes it over good rows', async () => {
    const { code, table } = await departments();
    const x = await insert(table, 'x', null);
    const y = await insert(table, 'y', x);
    await q(sql`update ${table} set "Parent" = ${y} where "ObjectId"::text = ${x}`);
    expect(await a.post('/v1/formdesign/checktreestructure', { schemaCode: code, parentCode: 'Parent' })).toMatchObject({ valid: false, problem: 'cycle' });
    const tree = definition(CONTROLS(code), { isTreeStructure: true, treeStructureControlCode: 'Parent' });
    const version = await saveDraft(a, code, tree);
    const refused = await a.raw('POST', '/v1/formdesign/publish', { schemaCode: code, version, confirm: [], dryRun: false });
    expect(refused.body).toMatchObject({ successful: false, errorCode: 240090, detail: { problem: 'cycle', message: TREE_LIMIT_MESSAGE } });
    await q(sql`update ${table} set "Parent" = null where "ObjectId"::text = ${x}`);
    expect((await a.raw('POST', '/v1/formdesign/publish', { schemaCode: code, version, confirm: [], dryRun: false })).body.successful).toBe(true);
  });
});

describe('hierarchy views', () => {
  let code: string, name: string, table: ReturnType<typeof tableRef>;
  const ids = new Map<string, string>();
  beforeAll(async () => {
    ({ code, name, table } = await departments({ isTreeStructure: true, treeStructureControlCode: 'Parent' }));
    ids.set('总部', await insert(table, '总部', null, 100));
    for (let i = 1; i <= 12; i++) ids.set(`分部${String(i).padStart(2, '0')}`, await insert(table, `分部${String(i).padStart(2, '0')}`, null, i));
    ids.set('华东', await insert(table, '华东', ids.get('总部')!, 30));
    ids.set('华北', await insert(table, '华北', ids.get('总部')!, 0));
    ids.set('上海', await insert(table, '上海', ids.get('华东')!, 10));
    // A record whose parent was removed shows among the roots.
    ids.set('孤儿', await insert(table, '孤儿', '0192aaaa-0000-7000-8000-0000000000ff', 13));
    await a.post('/v1/view/designer/save', { schemaCode: code, views: [{ code: 'All', title: '全部', columns: [{ field: 'Title' }] }, HIERARCHY, { ...HIERARCHY, code: 'Big', title: '大部门', filter: { field: 'Size', operator: 'Above', value: 5 } }] });
  });
  const children = (body: Record<string, unknown>, client = a) => client.raw('POST', '/v1/bizdata/view/children', { schemaCode: code, viewCode: 'Tree', ...body });

  it('refuses a hierarchy view without a parent field, or with one that is not an association to the form', async () => {
    const r = await a.raw('POST', '/v1/view/designer/save', { schemaCode: code, views: [{ ...HIERARCHY, parentField: undefined }, { ...HIERARCHY, code: 'T2', parentField: 'Title' }] });
    expect(r.body).toMatchObject({ successful: false, errorCode: 777 });
    expect(r.body.detail.issues.map((i: { path: string }) => i.path)).toEqual(['views.0.parentField', 'views.1.parentField']);
    expect((await a.get('/v1/view/setting', { schemaCode: code })).views[1]).toMatchObject({ mode: 6, parentField: 'Parent' });
    expect(Object.keys(await indexesOf(t, admin.engineCode, name))).toContain(treeParentIndexName(name, 'Parent'));
  });

  it('answers the roots a page at a time with child counts, then the children of one record', async () => {
    const first = (await children({ pageSize: 10 })).body.data;
    expect(first).toMatchObject({ total: 14, hasMore: true, level: 1, parentField: 'Parent', viewTotal: 17 });
    expect(first.list.map((r: any) => r.Title)).toEqual(['分部01', '分部02', '分部03', '分部04', '分部05', '分部06', '分部07', '分部08', '分部09', '分部10']);
    const second = (await children({ pageSize: 10, pageIndex: 1 })).body.data;
    expect(second.list.map((r: any) => [r.Title, r.$childCount])).toEqual([['分部11', 0], ['分部12', 0], ['孤儿', 0], ['总部', 2]]);
    expect(second.hasMore).toBe(false);
    const level2 = (await children({ parentId: ids.get('总部') })).body.data;
    expect(level2).toMatchObject({ total: 2, level: 2 });
    expect(level2.viewTotal).toBeUndefined();
    expect(level2.list.map((r: any) => [r.Title, r.$childCount])).toEqual([['华北', 0], ['华东', 1]]);
    expect((await children({ parentId: ids.get('华东') })).body.data).toMatchObject({ level: 3, list: [expect.objectContaining({ Title: '上海', Parent: ids.get('华东') })] });
  });

  it("applies the view's fixed filter to every level and to the child counts", async () => {
    const roots = (await children({ viewCode: 'Big', pageSize: 50 })).body.data;
    expect(roots.list.map((r: any) => r.Title)).toEqual(['分部06', '分部07', '分部08', '分部09', '分部10', '分部11', '分部12', '孤儿', '总部']);
    expect(roots.list.at(-1).$childCount).toBe(1);
    expect((await children({ viewCode: 'Big', parentId: ids.get('总部') })).body.data.list.map((r: any) => r.Title)).toEqual(['华东']);
  });

  it('refuses a level past 10, a view that is not a hierarchy, and an unknown parent', async () => {
    let parent = ids.get('上海')!;
    for (let level = 4; level <= 10; level++) parent = await insert(table, `第${level}级`, parent);
    const tooDeep = await children({ parentId: parent });
    expect(tooDeep.body).toMatchObject({ successful: false, errorCode: 290011, errorMessage: HIERARCHY_LIMIT_MESSAGE });
    expect((await children({ viewCode: 'All' })).body).toMatchObject({ successful: false, errorCode: 290012 });
    expect((await children({ parentId: '0192aaaa-0000-7000-8000-0000000000ee' })).status).toBe(404);
  });

  it("never shows another engine's records", async () => {
    const other = await registerPerson(t.app);
    const o = nodeClient(t.app, other);
    await createForm(o, (await createApp(o)).code);
    expect((await children({}, o)).status).toBe(404);
    expect((await children({ parentId: ids.get('总部') }, o)).status).toBe(404);
  });
});

describe('the record limit of a hierarchy view', () => {
  it('refuses a view of more than 100,000 records with the message', async () => {
    const { code, table } = await departments();
    await q(sql`insert into ${table} ("Title", "Status") select 'r' || g, 1 from generate_series(1, 100001) g`);
    await a.post('/v1/view/designer/save', { schemaCode: code, views: [HIERARCHY] });
    const r = await a.raw('POST', '/v1/bizdata/view/children', { schemaCode: code, viewCode: 'Tree' });
    expect(r.body).toMatchObject({ successful: false, errorCode: 290010, errorMessage: HIERARCHY_LIMIT_MESSAGE });
  });
});
