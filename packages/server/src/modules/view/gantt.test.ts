import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import { addMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, indexesOf, publish } from '../../../test/form-helpers.ts';
import { treeParentIndexName } from '../form-design/tree-structure.ts';

// test-databases: both — the tasks' layout and links are upserts and a recursive CTE (docs/testing.md "Runs on both databases").

// The Gantt chart (docs/decisions/0054): its tasks through the view's narrowing with levels, kinds, order and links;
// the five task calls of calls.md §7 — dates, progress and parent saved through the form runtime (so its rights and
// checks refuse), kind, order and links written beside the record under the same edit rights; loops refused.

let t: TestApp, a: OrgClient, m: OrgClient, code: string, tree: string;
let member: Person & { userId: string }, admin: Person;
const ids = new Map<string, string>();

const controls = (self: string) => [
  { type: 'textBox', code: 'Title' },
  { type: 'dateTime', code: 'StartAt' },
  { type: 'dateTime', code: 'EndAt' },
  { type: 'number', code: 'Done' },
  { type: 'dropDown', code: 'Team', options: { defaultItems: ['前端', '后端'] } },
  { type: 'associationQuery', code: 'Parent', options: { schemaCode: self } },
];
const GANTT = { scope: 3, columns: [{ field: 'Title' }], code: 'Plan', title: '计划', mode: 4, settings: { startField: 'StartAt', endField: 'EndAt', titleField: 'Title', progressField: 'Done', parentField: 'Parent', swimlanes: ['Team'] } };

async function task(client: OrgClient, title: string, day: number, extra: Record<string, unknown> = {}, schemaCode = code) {
  const d = String(day).padStart(2, '0');
  const r = await client.post('/v1/form/action/execute', { schemaCode, actionCode: 'Submit', values: { Title: title, StartAt: `2026-11-${d}T09:00:00+08:00`, EndAt: `2026-11-${d}T18:00:00+08:00`, Team: '后端', ...extra } });
  ids.set(title, r.objectId);
  return r.objectId as string;
}
const id = (title: string) => ids.get(title)!;
const tasks = (client: OrgClient, body: Record<string, unknown> = {}, schemaCode = code) => client.raw('POST', '/v1/bizdata/view/gantt', { schemaCode, viewCode: 'Plan', ...body });
const call = (client: OrgClient, path: string, body: Record<string, unknown>, schemaCode = code) => client.raw('POST', `/v1/gantt/task/${path}`, { schemaCode, viewCode: 'Plan', ...body });
const values = async (title: string) => (await a.post('/v1/form/loaddata', { schemaCode: code, objectId: id(title) })).values;
const layout = async () => {
  const r = await tasks(a);
  const titles = new Map(r.body.data.list.map((row: any) => [row.ObjectId, row.Title]));
  return {
    tasks: Object.fromEntries(r.body.data.tasks.map((x: any) => [titles.get(x.objectId), [x.parentId ? titles.get(x.parentId) : null, x.type, x.sort]])),
    links: r.body.data.links.map((l: any) => `${titles.get(l.predecessor)}→${titles.get(l.successor)}`).sort(),
  };
};

beforeAll(async () => {
  let appCode: string;
  ({ t, admin, a, appCode } = await adminWithApp());
  code = (await createForm(a, appCode)).code as string;
  await publish(a, code, definition(controls(code)));
  member = await addMember(t, admin, { name: '成员' });
  m = nodeClient(t.app, member);
  await grant(a, code, member.userId, 'create');
  await a.post('/v1/view/designer/save', { schemaCode: code, views: [GANTT, { scope: 3, columns: [{ field: 'Title' }], code: 'List', title: '列表' }] });
  await task(a, '设计', 2);
  await task(a, '开发', 4);
  await task(a, '测试', 9);
  await task(m, '成员的', 10, { Team: '前端' });
  // A tree form: levels come from its parent control when the view names none.
  tree = (await createForm(a, appCode)).code as string;
  await publish(a, tree, definition(controls(tree), { isTreeStructure: true, treeStructureControlCode: 'Parent' }));
  await a.post('/v1/view/designer/save', { schemaCode: tree, views: [{ ...GANTT, settings: { startField: 'StartAt', endField: 'EndAt', dependencyStorage: 'none' } }] });
});
afterAll(() => t.close());

describe('the Gantt tasks', () => {
  it('answers the view\'s tasks by start with levels, kinds, order and links', async () => {
    const r = await tasks(a);
    expect(r.body.data).toMatchObject({ total: 4, hasMore: false, parentField: 'Parent', links: [] });
    expect(r.body.data.list.map((row: any) => row.Title)).toEqual(['设计', '开发', '测试', '成员的']);
    expect((await layout()).tasks).toEqual({ 设计: [null, 'task', null], 开发: [null, 'task', null], 测试: [null, 'task', null], 成员的: [null, 'task', null] });
    // Another mode's view, and a flat tree-form view's parent control.
    expect((await tasks(a, { viewCode: 'List' })).body.errorCode).toBe(290021);
    const top = await task(a, '阶段一', 1, {}, tree);
    await task(a, '子任务', 2, { Parent: top }, tree);
    const onTree = await tasks(a, {}, tree);
    expect(onTree.body.data.parentField).toBe('Parent');
    expect(onTree.body.data.tasks.find((x: any) => x.objectId === id('子任务')).parentId).toBe(top);
  });

  it('indexes the start and end columns when a dated view is saved', async () => {
    const table = `i_${code.toLowerCase()}`;
    const indexes = Object.keys(await indexesOf(t, admin.engineCode, table));
    expect(indexes).toEqual(expect.arrayContaining([treeParentIndexName(table, 'StartAt'), treeParentIndexName(table, 'EndAt')]));
  });

  it('narrows as the list does: the keyword and the caller\'s scope', async () => {
    expect((await tasks(a, { keyword: '开' })).body.data.total).toBe(4); // no quick-search fields: the keyword searches nothing
    const mine = await tasks(a, { filter: { type: 'And', children: [{ field: 'Team', operator: 'Equal', value: '前端' }] } });
    expect(mine.body.data.list.map((row: any) => row.Title)).toEqual(['成员的']);
  });
});

describe('task calls that save through the form', () => {
  it('update moves and resizes a task and sets its progress; the end never goes before the start', async () => {
    const r = await call(a, 'update', { objectId: id('开发'), start: '2026-11-05T09:00:00+08:00', end: '2026-11-07T18:00:00+08:00', progress: 40 });
    expect(r.body).toMatchObject({ successful: true, data: { objectId: id('开发') } });
    const v = await values('开发');
    expect(new Date(v.StartAt).toISOString()).toBe(new Date('2026-11-05T09:00:00+08:00').toISOString());
    expect(new Date(v.EndAt).toISOString()).toBe(new Date('2026-11-07T18:00:00+08:00').toISOString());
    expect(Number(v.Done)).toBe(40);
    const early = await call(a, 'update', { objectId: id('开发'), end: '2026-11-01T09:00:00+08:00' });
    expect(early.body).toMatchObject({ errorCode: 777, detail: { issues: [{ path: 'end' }] } });
    const reversed = await call(a, 'update', { objectId: id('开发'), start: '2026-11-08T09:00:00+08:00', end: '2026-11-01T09:00:00+08:00' });
    expect(reversed.body.errorCode).toBe(777);
    expect((await call(a, 'update', { objectId: id('开发') })).body.errorCode).toBe(777);
  });

  it("refuses a task the caller may not change, as the form's save does, and changes nothing", async () => {
    const before = await values('设计');
    const refused = await call(m, 'update', { objectId: id('设计'), start: '2026-11-20T09:00:00+08:00', end: '2026-11-21T09:00:00+08:00' });
    expect(refused.body.successful).toBe(false);
    expect(refused.body.errorCode).toBe(250003);
    expect(await values('设计')).toEqual(before);
    // Their own task moves.
    expect((await call(m, 'update', { objectId: id('成员的'), start: '2026-11-11T09:00:00+08:00', end: '2026-11-12T09:00:00+08:00' })).body.successful).toBe(true);
  });

  it('changelevel puts a task under another and back; a loop is refused', async () => {
    expect((await call(a, 'changelevel', { objectId: id('开发'), parentId: id('设计') })).body.successful).toBe(true);
    expect((await call(a, 'changelevel', { objectId: id('测试'), parentId: id('开发') })).body.successful).toBe(true);
    expect((await layout()).tasks['测试'][0]).toBe('开发');
    const loop = await call(a, 'changelevel', { objectId: id('设计'), parentId: id('测试') });
    expect(loop.body.errorCode).toBe(250090);
    expect((await call(a, 'changelevel', { objectId: id('设计'), parentId: id('设计') })).body.errorCode).toBe(250090);
    expect((await call(m, 'changelevel', { objectId: id('测试'), parentId: null })).body.errorCode).toBe(250003);
    expect((await call(a, 'changelevel', { objectId: id('测试'), parentId: null })).body.successful).toBe(true);
    expect((await layout()).tasks['测试'][0]).toBe(null);
    // On the tree form the save's own tree checks answer.
    const subtask = id('子任务');
    const top = (await tasks(a, {}, tree)).body.data.tasks.find((x: any) => x.objectId === subtask).parentId;
    expect((await call(a, 'changelevel', { objectId: top, parentId: subtask }, tree)).body.errorCode).toBe(250090);
  });

  it('a chart without levels refuses changelevel', async () => {
    await a.post('/v1/view/designer/save', { schemaCode: code, views: [GANTT, { ...GANTT, code: 'Flat', title: '平铺', settings: { startField: 'StartAt', endField: 'EndAt', dependencyStorage: 'none' } }] });
    expect((await a.raw('POST', '/v1/gantt/task/changelevel', { schemaCode: code, viewCode: 'Flat', objectId: id('测试'), parentId: null })).body.errorCode).toBe(290030);
    expect((await a.raw('POST', '/v1/gantt/task/savedependency', { schemaCode: code, viewCode: 'Flat', objectId: id('测试'), predecessors: [] })).body.errorCode).toBe(290031);
  });
});

describe('task calls beside the record', () => {
  it('updatetype makes a milestone and back, under the edit rights', async () => {
    expect((await call(a, 'updatetype', { objectId: id('测试'), type: 'milestone' })).body.successful).toBe(true);
    expect((await layout()).tasks['测试'][1]).toBe('milestone');
    expect((await call(m, 'updatetype', { objectId: id('测试'), type: 'task' })).body.errorCode).toBe(250003);
    expect((await call(a, 'updatetype', { objectId: id('测试'), type: 'phase' })).body.errorCode).toBe(777);
    expect((await layout()).tasks['测试'][1]).toBe('milestone');
  });

  it('sort gives siblings their places; a list with a task the caller may not change changes nothing', async () => {
    expect((await call(a, 'sort', { objectIds: [id('测试'), id('设计')] })).body.data).toEqual({ sorted: 2 });
    const l = await layout();
    expect([l.tasks['测试'][2], l.tasks['设计'][2], l.tasks['测试'][1]]).toEqual([0, 1, 'milestone']);
    expect((await call(m, 'sort', { objectIds: [id('成员的'), id('测试')] })).body.errorCode).toBe(250003);
    expect((await layout()).tasks['成员的'][2]).toBe(null);
    expect((await call(a, 'sort', { objectIds: ['00000000-0000-4000-8000-000000000000'] })).body.errorCode).toBe(250001);
  });

  it('savedependency links tasks finish-to-start, replaces them and refuses a loop', async () => {
    expect((await call(a, 'savedependency', { objectId: id('开发'), predecessors: [id('设计')] })).body.data.predecessors).toEqual([id('设计')]);
    expect((await call(a, 'savedependency', { objectId: id('测试'), predecessors: [id('开发'), id('设计')] })).body.successful).toBe(true);
    expect((await layout()).links).toEqual(['开发→测试', '设计→开发', '设计→测试']);
    // 设计 → 开发 → 测试: 测试 before 设计 would close a loop, as would a task before itself.
    const loop = await call(a, 'savedependency', { objectId: id('设计'), predecessors: [id('测试')] });
    expect(loop.body).toMatchObject({ successful: false, errorCode: 290032 });
    expect((await call(a, 'savedependency', { objectId: id('设计'), predecessors: [id('设计')] })).body.errorCode).toBe(777);
    // The member may link their own task after one they can read, not change another's links.
    expect((await call(m, 'savedependency', { objectId: id('成员的'), predecessors: [id('测试')] })).body.successful).toBe(true);
    expect((await call(m, 'savedependency', { objectId: id('测试'), predecessors: [] })).body.errorCode).toBe(250003);
    expect((await call(a, 'savedependency', { objectId: id('测试'), predecessors: [id('开发')] })).body.successful).toBe(true);
    expect((await layout()).links).toEqual(['开发→测试', '测试→成员的', '设计→开发']);
  });

  it('answers 290020 while the Gantt view is switched off', async () => {
    await t.database.db.insertInto('platform.feature_switches').values({ engine_code: admin.engineCode, name: 'ganttView', value: '0' }).execute();
    try {
      expect((await tasks(a)).body.errorCode).toBe(290020);
      expect((await call(a, 'updatetype', { objectId: id('测试'), type: 'task' })).body.errorCode).toBe(290020);
    } finally {
      await t.database.db.deleteFrom('platform.feature_switches').where('name', '=', 'ganttView').execute();
    }
    expect((await tasks(a)).body.successful).toBe(true);
  });
});
