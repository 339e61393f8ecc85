import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@tritium/shared';
import type { TestApp } from '../../../test/helpers.ts';
import { addMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';

// test-databases: both — kanban counts are a GROUP BY and calendar ranges are date comparisons compiled to SQL (docs/testing.md "Runs on both databases").

// The view modes beyond the list (docs/decisions/0047): settings checked against the mode's registry entry and the
// form's fields, feature switches, the kanban board's counts and pages through the viewer's scope, the calendar's
// visible range, moves that save through the form runtime (and refusals that change nothing), and the personal
// view list call at the spec's path.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, code: string;
let member: Person & { userId: string }, m: OrgClient;
const ids = new Map<string, string>();

const FORM = definition([
  { type: 'textBox', code: 'Title' },
  { type: 'dropDown', code: 'Stage', options: { defaultItems: ['待办', '进行中', '完成'] } },
  { type: 'dateTime', code: 'StartAt' },
  { type: 'dateTime', code: 'EndAt' },
  { type: 'user', code: 'Lead' },
  { type: 'photo', code: 'Cover' },
  { type: 'number', code: 'Amount' },
  { type: 'map', code: 'Place' },
]);

const base = { scope: 3, columns: [{ field: 'Title' }] };
const VIEWS = [
  { ...base, code: 'Board', title: '看板', mode: 8, settings: { groupField: 'Stage', titleField: 'Title', fields: ['Amount'], pageSize: 10 } },
  { ...base, code: 'MyBoard', title: '我的看板', mode: 8, scope: 1, settings: { groupField: 'Stage' } },
  { ...base, code: 'Cal', title: '日历', mode: 1, settings: { startField: 'StartAt', endField: 'EndAt', titleField: 'Title', colorField: 'Stage' } },
  { ...base, code: 'Cards', title: '卡片', mode: 7, settings: { coverField: 'Cover', titleField: 'Title', fields: ['Stage'] } },
  { ...base, code: 'Grid', title: '宫格', mode: 9, settings: {} },
  { ...base, code: 'List', title: '列表' },
];

async function record(client: OrgClient, values: Record<string, unknown>) {
  const r = await client.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values });
  ids.set(String(values.Title), r.objectId);
  return r.objectId as string;
}

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  code = (await createForm(a, appCode)).code as string;
  await publish(a, code, FORM);
  member = await addMember(t, admin, { name: '成员' });
  m = nodeClient(t.app, member);
  await grant(a, code, member.userId, 'access');
  await a.post('/v1/view/designer/save', { schemaCode: code, views: VIEWS });
  for (let i = 0; i < 12; i++) await record(a, { Title: `待办${String(i).padStart(2, '0')}`, Stage: '待办', Amount: i, StartAt: '2026-11-03T09:00:00+08:00' });
  await record(a, { Title: '做着', Stage: '进行中', StartAt: '2026-11-10T09:00:00+08:00', EndAt: '2026-11-12T18:00:00+08:00' });
  await record(a, { Title: '没阶段', StartAt: '2026-10-30T09:00:00+08:00', EndAt: '2026-11-02T09:00:00+08:00' });
  await record(a, { Title: '下个月', Stage: '完成', StartAt: '2026-12-05T09:00:00+08:00' });
  await record(m, { Title: '成员的', Stage: '完成', StartAt: '2026-11-20T09:00:00+08:00' });
});
afterAll(() => t.close());

const save = (views: unknown[]) => a.raw('POST', '/v1/view/designer/save', { schemaCode: code, views });
const issuesOf = (r: { body: any }) => (r.body.detail?.issues ?? []).map((i: any) => `${i.path}: ${i.message}`);
const board = (client: OrgClient, body: Record<string, unknown> = {}) => client.raw('POST', '/v1/bizdata/view/kanban', { schemaCode: code, viewCode: 'Board', ...body });
const columns = (r: { body: any }) => r.body.data.columns.map((c: any) => [c.value, c.count, c.list.length, c.hasMore]);

describe('view mode settings', () => {
  it('saves every mode of the spec with its settings and reads them back', async () => {
    const r = await a.raw('GET', `/v1/view/setting?schemaCode=${code}`);
    expect(r.body.data.views.map((v: any) => [v.code, v.mode])).toEqual([['Board', 8], ['MyBoard', 8], ['Cal', 1], ['Cards', 7], ['Grid', 9], ['List', 0]]);
    expect(r.body.data.views[0].settings).toMatchObject({ groupField: 'Stage', pageSize: 10 });
    expect(r.body.data.modesOff).toEqual([]);
    const more = [
      { ...base, code: 'Line', title: '时间轴', mode: 2, settings: { startField: 'StartAt', endField: 'EndAt', groupField: 'Lead', zoom: 'month' } },
      { ...base, code: 'Gantt', title: '甘特', mode: 4, settings: { startField: 'StartAt', endField: 'EndAt', progressField: 'Amount', swimlanes: ['Stage', 'Lead'] } },
      { ...base, code: 'Map', title: '地图', mode: 5, settings: { locationField: 'Title' } },
    ];
    const refused = await save([...VIEWS, ...more]);
    expect(refused.body.errorCode).toBe(777);
    expect(issuesOf(refused)).toEqual(['views.8.settings.locationField: 字段 Title 不能用作该设置']);
    expect((await save([...VIEWS, ...more.slice(0, 2)])).body.successful).toBe(true);
  });

  it('refuses unknown modes, settings of the wrong shape and fields of the wrong kind, saving nothing', async () => {
    const bad = [
      { ...base, code: 'Three', title: '三', mode: 3 },
      { ...base, code: 'NoGroup', title: '无分组', mode: 8, settings: {} },
      { ...base, code: 'Extra', title: '多余', mode: 7, settings: { colour: 'red' } },
      { ...base, code: 'Lanes', title: '泳道', mode: 4, settings: { startField: 'StartAt', endField: 'EndAt', swimlanes: ['Stage', 'Lead', 'Status', 'Stage'] } },
    ];
    const r = await save(bad);
    expect(r.body.errorCode).toBe(777);
    const paths = r.body.detail.issues.map((i: any) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['views.0.mode', 'views.1.settings.groupField', 'views.2.settings', 'views.3.settings.swimlanes']));
    const wrongKind = await save([
      { ...base, code: 'K', title: '看板', mode: 8, settings: { groupField: 'Amount' } },
      { ...base, code: 'C', title: '日历', mode: 1, settings: { startField: 'Title', colorField: 'Lead' } },
      { ...base, code: 'D', title: '卡片', mode: 7, settings: { coverField: 'Stage', fields: ['Nope'] } },
    ]);
    expect(issuesOf(wrongKind)).toEqual([
      'views.0.settings.groupField: 字段 Amount 不能用作该设置',
      'views.1.settings.startField: 字段 Title 不能用作该设置',
      'views.1.settings.colorField: 字段 Lead 不能用作该设置',
      'views.2.settings.coverField: 字段 Stage 不能用作该设置',
      'views.2.settings.fields.0: 字段 Nope 不存在',
    ]);
    const after = await a.raw('GET', `/v1/view/setting?schemaCode=${code}`);
    expect(after.body.data.views.map((v: any) => v.code)).toContain('Board');
    // A status field and a user field group a board too.
    expect((await save([{ ...base, code: 'S', title: '状态', mode: 8, settings: { groupField: 'Status' } }, { ...base, code: 'U', title: '负责人', mode: 8, settings: { groupField: 'Lead' } }])).body.successful).toBe(true);
    expect((await save(VIEWS)).body.successful).toBe(true);
  });

  it('a mode switched off cannot be given to a view, is reported, and its data call is refused', async () => {
    const other = await adminWithApp();
    try {
      const form = (await createForm(other.a, other.appCode)).code as string;
      await publish(other.a, form, FORM);
      await other.t.database.db.insertInto('platform.feature_switches').values({ engine_code: other.admin.engineCode, name: 'kanbanView', value: '0' }).execute();
      const r = await other.a.raw('POST', '/v1/view/designer/save', { schemaCode: form, views: [{ ...base, code: 'B', title: '看板', mode: 8, settings: { groupField: 'Stage' } }] });
      expect(issuesOf(r)).toEqual(['views.0.mode: 该视图类型未开启']);
      expect((await other.a.raw('GET', `/v1/view/setting?schemaCode=${form}`)).body.data.modesOff).toEqual([8]);
      // Turned off after the view was made: the view stays, its board is refused.
      await other.t.database.db.updateTable('platform.feature_switches').set({ value: '1' }).where('engine_code', '=', other.admin.engineCode).execute();
      expect((await other.a.raw('POST', '/v1/view/designer/save', { schemaCode: form, views: [{ ...base, code: 'B', title: '看板', mode: 8, settings: { groupField: 'Stage' } }] })).body.successful).toBe(true);
      await other.t.database.db.updateTable('platform.feature_switches').set({ value: '0' }).where('engine_code', '=', other.admin.engineCode).execute();
      const refused = await other.a.raw('POST', '/v1/bizdata/view/kanban', { schemaCode: form, viewCode: 'B' });
      expect(refused.body.errorCode).toBe(ERRORS.ViewModeSwitchedOff.code);
      expect((await other.a.raw('POST', '/v1/view/designer/save', { schemaCode: form, views: [{ ...base, code: 'B', title: '看板改名', mode: 8, settings: { groupField: 'Stage' } }] })).body.successful).toBe(true);
    } finally {
      await other.t.close();
    }
  });
});

describe('kanban board', () => {
  it('counts every column with one GROUP BY and loads the first cards of each, then more', async () => {
    const r = await board(a);
    expect(r.body.data.groupField).toBe('Stage');
    expect(columns(r)).toEqual([['待办', 12, 10, true], ['进行中', 1, 1, false], ['完成', 2, 2, false], [null, 1, 1, false]]);
    const more = await a.raw('POST', '/v1/bizdata/view/kanban/column', { schemaCode: code, viewCode: 'Board', value: '待办', pageIndex: 1 });
    expect(more.body.data.list.map((x: any) => x.Title).sort()).toEqual(['待办00', '待办01']);
    expect([more.body.data.total, more.body.data.hasMore]).toEqual([12, false]);
    const blank = await a.raw('POST', '/v1/bizdata/view/kanban/column', { schemaCode: code, viewCode: 'Board', value: null, pageIndex: 0 });
    expect(blank.body.data.list.map((x: any) => x.Title)).toEqual(['没阶段']);
  });

  it("counts only what the viewer's scope holds, with the caller's filter and keyword", async () => {
    expect(columns(await m.raw('POST', '/v1/bizdata/view/kanban', { schemaCode: code, viewCode: 'MyBoard' }))).toEqual([['待办', 0, 0, false], ['进行中', 0, 0, false], ['完成', 1, 1, false]]);
    expect(columns(await board(m, { filter: { field: 'Amount', operator: 'Below', value: 3 } }))).toEqual([['待办', 3, 3, false], ['进行中', 0, 0, false], ['完成', 0, 0, false]]);
    const none = await a.raw('POST', '/v1/functionnode/auth/set', { code, unitId: member.userId, permission: 'none' });
    expect(none.body.successful).toBe(true);
    expect((await board(m)).status).toBe(404);
    await grant(a, code, member.userId, 'access');
  });

  it('answers another mode with its catalogue error and bad input with 777', async () => {
    expect((await board(a, { viewCode: 'Cal' })).body.errorCode).toBe(ERRORS.ViewModeMismatch.code);
    expect((await board(a, { viewCode: 'Nope' })).body.errorCode).toBe(ERRORS.ViewNotFound.code);
    expect((await a.raw('POST', '/v1/bizdata/view/kanban/column', { schemaCode: code, viewCode: 'Board', value: { x: 1 }, pageIndex: 0 })).body.errorCode).toBe(777);
  });
});

describe('calendar range', () => {
  const range = (client: OrgClient, start: string, end: string, body: Record<string, unknown> = {}) =>
    client.raw('POST', '/v1/bizdata/view/calendar', { schemaCode: code, viewCode: 'Cal', start, end, ...body });
  const titles = (r: { body: any }) => r.body.data.list.map((x: any) => x.Title);

  it('answers the records overlapping the visible range, by start date', async () => {
    const week = await range(a, '2026-11-09T00:00:00+08:00', '2026-11-16T00:00:00+08:00');
    expect(titles(week)).toEqual(['做着']);
    // An event that began before the range and ends in it; one without an end counts on its start day.
    const nov2 = await range(a, '2026-11-02T00:00:00+08:00', '2026-11-03T00:00:00+08:00');
    expect(titles(nov2)).toEqual(['没阶段']);
    const month = await range(a, '2026-10-26T00:00:00+08:00', '2026-12-07T00:00:00+08:00');
    expect(month.body.data.total).toBe(16);
    expect(titles(month).slice(0, 2)).toEqual(['没阶段', expect.stringMatching(/^待办/)]);
    expect(titles(month).at(-1)).toBe('下个月');
  });

  it('answers a timeline view by the same range', async () => {
    await save([...VIEWS, { ...base, code: 'Line', title: '时间轴', mode: 2, settings: { startField: 'StartAt', endField: 'EndAt', groupField: 'Stage' } }]);
    const r = await range(a, '2026-11-09T00:00:00+08:00', '2026-11-16T00:00:00+08:00', { viewCode: 'Line' });
    expect(titles(r)).toEqual(['做着']);
    await save(VIEWS);
  });

  it("narrows by the view's scope and the caller's filter; refuses a reversed range and a list view", async () => {
    const r = await range(m, '2026-11-01T00:00:00+08:00', '2026-12-01T00:00:00+08:00', { filter: { field: 'Stage', operator: 'Equal', value: '完成' } });
    expect(titles(r)).toEqual(['成员的']);
    expect((await range(a, '2026-11-02T00:00:00+08:00', '2026-11-01T00:00:00+08:00')).body.errorCode).toBe(777);
    expect((await range(a, 'yesterday', '2026-11-01T00:00:00+08:00')).body.errorCode).toBe(777);
    expect((await range(a, '2026-11-01T00:00:00+08:00', '2026-11-02T00:00:00+08:00', { viewCode: 'Board' })).body.errorCode).toBe(ERRORS.ViewModeMismatch.code);
  });
});

describe('moves save through the form runtime', () => {
  const move = (client: OrgClient, title: string, values: Record<string, unknown>) =>
    client.raw('POST', '/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', objectId: ids.get(title), values });
  const stageOf = async (title: string) => (await a.raw('POST', '/v1/form/loaddata', { schemaCode: code, objectId: ids.get(title) })).body.data;

  it('a card dragged to another column changes the group field, and the counts follow', async () => {
    expect((await move(m, '成员的', { Stage: '进行中' })).body.successful).toBe(true);
    expect(columns(await board(a))).toEqual([['待办', 12, 10, true], ['进行中', 2, 2, false], ['完成', 1, 1, false], [null, 1, 1, false]]);
  });

  it("a move the rules refuse changes nothing: another person's record, an item not in the list", async () => {
    const refused = await move(m, '做着', { Stage: '完成' });
    expect(refused.body.successful).toBe(false);
    expect(refused.status).toBe(403);
    const unknown = await move(a, '做着', { Stage: '不存在的阶段' });
    expect(unknown.body.errorCode).toBe(ERRORS.BizValueNotAnOption.code);
    const loaded = await stageOf('做着');
    expect(loaded.values?.Stage ?? loaded.Stage).toBe('进行中');
    // A calendar move refused by the same rules leaves the dates as they were.
    expect((await move(m, '做着', { StartAt: '2026-11-11T09:00:00+08:00' })).body.successful).toBe(false);
    expect(titles2(await a.raw('POST', '/v1/bizdata/view/calendar', { schemaCode: code, viewCode: 'Cal', start: '2026-11-10T00:00:00+08:00', end: '2026-11-11T00:00:00+08:00' }))).toEqual(['做着']);
  });
});

const titles2 = (r: { body: any }) => r.body.data.list.map((x: any) => x.Title);

describe('map records', () => {
  const at = (lat: number, lng: number, address: string) => ({ address, point: { lat, lng } });
  const CENTER = { lat: 31.2304, lng: 121.4737 };
  const place = (title: string, value: unknown) => a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', objectId: ids.get(title), values: { Place: value } });
  const map = (client: OrgClient, body: Record<string, unknown> = {}) => client.raw('POST', '/v1/bizdata/view/map', { schemaCode: code, viewCode: 'Map', ...body });

  it('answers the records with a place, or those within the radius nearest first, through the view', async () => {
    await save([...VIEWS, { ...base, code: 'Map', title: '地图', mode: 5, settings: { locationField: 'Place', titleField: 'Title' } }]);
    await place('待办00', at(31.2304, 121.4737, '人民广场'));
    await place('待办01', at(31.2331, 121.4737, '北边三百米'));
    await place('待办02', at(31.2376, 121.4737, '北边八百米'));
    await place('做着', at(39.9042, 116.4074, '北京'));
    expect(titles2(await map(a)).sort()).toEqual(['做着', '待办00', '待办01', '待办02'].sort());
    expect(titles2(await map(a, { center: CENTER, radius: 200 }))).toEqual(['待办00']);
    expect(titles2(await map(a, { center: CENTER, radius: 500 }))).toEqual(['待办00', '待办01']);
    expect(titles2(await map(a, { center: CENTER, radius: 1000 }))).toEqual(['待办00', '待办01', '待办02']);
    // The caller's filter narrows the map as it narrows the list.
    expect(titles2(await map(a, { center: CENTER, radius: 1000, filter: { field: 'Amount', operator: 'Above', value: 1 } }))).toEqual(['待办02']);
  });

  it('refuses a radius the spec does not offer, a radius without a point, and another mode', async () => {
    expect((await map(a, { center: CENTER, radius: 300 })).body.errorCode).toBe(777);
    expect((await map(a, { radius: 500 })).body.errorCode).toBe(777);
    expect((await map(a, { viewCode: 'Board' })).body.errorCode).toBe(ERRORS.ViewModeMismatch.code);
    await save(VIEWS);
  });
});

describe('personal views at the spec path', () => {
  it('GET /v1/preference/view/list answers the caller\'s own views only', async () => {
    await m.post('/v1/preference/view/addView', { schemaCode: code, ViewPageId: 'Board', Title: '我的看板视图' });
    const mine = await m.raw('GET', `/v1/preference/view/list?schemaCode=${code}`);
    expect(mine.body.data.list.map((v: any) => [v.Title, v.ViewPageId])).toEqual([['我的看板视图', 'Board']]);
    expect((await a.raw('GET', `/v1/preference/view/list?schemaCode=${code}`)).body.data.list).toEqual([]);
  });
});
