import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, createApp, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';

// View settings and personal views over HTTP (docs/decisions/0017) on PGlite and PostgreSQL: the default view, the
// designer (administrators only, every field checked), the page header, personal views (owner only), other engines.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, code: string;
let member: Person & { userId: string }, m: OrgClient;

const FORM = definition([
  { type: 'textBox', code: 'Title', options: { displayName: '标题' } },
  { type: 'textArea', code: 'Remark', options: { displayName: '备注' } },
  { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 2 } },
  { type: 'dropDown', code: 'Kind', options: { displayName: '类别', defaultItems: ['甲', '乙'] } },
  { type: 'multiUser', code: 'Watchers', options: { displayName: '关注人' } },
]);

const VIEW = {
  code: 'Big',
  title: '大额',
  scope: 3,
  rowHeight: 36,
  columns: [{ field: 'Name', width: 180, fixed: 'left' }, { field: 'Title' }, { field: 'Amount', width: 120 }, { field: 'Kind' }],
  sort: [{ field: 'Amount', direction: 'desc' }],
  filter: { field: 'Amount', operator: 'NotBelow', value: 0 },
  filters: ['Title', 'Amount', 'Kind'],
  quickSearch: ['Title', 'Remark'],
  stats: [{ field: 'Amount', type: 'sum' }],
  actions: [{ code: 'Create', title: '新增', type: 'Create' }, { code: 'Help', title: '帮助', type: 'Link', url: 'https://example.com/help' }],
  styleRules: [{ filter: { field: 'Amount', operator: 'Above', value: 100 }, color: 12 }, { filter: { field: 'Kind', operator: 'Equal', value: '甲' }, color: 3, field: 'Kind' }],
};

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  code = (await createForm(a, appCode)).code as string;
  await publish(a, code, FORM);
  member = await addMember(t, admin, { name: '成员' });
  m = nodeClient(t.app, member);
  await grant(a, code, member.userId, 'access');
});
afterAll(() => t.close());

const save = (client: OrgClient, views: unknown[]) => client.raw('POST', '/v1/view/designer/save', { schemaCode: code, views });

describe('view settings', () => {
  it('gives a form never designed one default view', async () => {
    const s = await m.get('/v1/view/setting', { schemaCode: code });
    expect(s.canDesign).toBe(false);
    expect(s.views).toHaveLength(1);
    expect(s.views[0]).toMatchObject({ code: 'DefaultView', mode: 0, scope: 3, rowHeight: 46 });
    expect(s.views[0].columns.map((c: any) => c.field)).toEqual(['Name', 'Title', 'Remark', 'Amount', 'Kind', 'Watchers', 'Status', 'CreatedTime']);
    expect((await a.get('/v1/view/setting', { schemaCode: code })).canDesign).toBe(true);
  });

  it('lets only administrators of the app load the designer and save views', async () => {
    const load = await a.get('/v1/view/designer/load', { schemaCode: code });
    const amount = load.fields.find((f: any) => f.code === 'Amount');
    expect(amount).toMatchObject({ dataType: 'decimal', sortable: true, title: '金额' });
    expect(amount.operators).toContain('Between');
    expect(load.fields.find((f: any) => f.code === 'Watchers').sortable).toBe(false);
    expect(load.fields.find((f: any) => f.code === 'Kind').items).toEqual(['甲', '乙']);
    const defaults = await a.get('/v1/view/designer/column/default', { schemaCode: code });
    expect(defaults.columns[0]).toMatchObject({ field: 'Name', fixed: 'left' });

    for (const [method, url, body] of [
      ['GET', '/v1/view/designer/load', { schemaCode: code }],
      ['GET', '/v1/view/designer/column/default', { schemaCode: code }],
      ['POST', '/v1/view/designer/save', { schemaCode: code, views: [VIEW] }],
    ] as const) {
      const r = await m.raw(method, url, body);
      expect(r.status, url).toBe(403);
      expect(r.body.errorCode, url).toBe(290002);
    }
    expect((await m.get('/v1/view/setting', { schemaCode: code })).views[0].code).toBe('DefaultView');
  });

  it('saves views in order and draws the page header from them', async () => {
    const saved = (await save(a, [VIEW, { code: 'Mine', title: '我的', scope: 1, columns: [{ field: 'Title' }] }])).body;
    expect(saved.successful).toBe(true);
    const s = await m.get('/v1/view/setting', { schemaCode: code });
    expect(s.views.map((v: any) => v.code)).toEqual(['Big', 'Mine']);
    expect(s.views[1]).toMatchObject({ rowHeight: 46, pageSize: 50, actions: [], styleRules: [] });
    const header = await m.get('/v1/page/header', { schemaCode: code, viewCode: 'Big' });
    expect(header.columns.map((c: any) => [c.field ?? c.code, c.width, c.fixed])).toEqual([['Name', 180, 'left'], ['Title', null, null], ['Amount', 120, null], ['Kind', null, null]]);
    expect(header.filters.map((f: any) => f.code)).toEqual(['Title', 'Amount', 'Kind']);
    expect((await m.get('/v1/page/header', { schemaCode: code })).view.code).toBe('Big');
    const missing = await m.raw('GET', '/v1/page/header', { schemaCode: code, viewCode: 'Nope' });
    expect([missing.status, missing.body.errorCode]).toEqual([404, 290001]);
  });

  it('refuses a bad view with every problem in one 777 and keeps the saved views', async () => {
    const bad = {
      ...VIEW,
      columns: [{ field: 'Nope' }, { field: 'Title' }],
      sort: [{ field: 'Watchers', direction: 'asc' }],
      quickSearch: ['Amount'],
      stats: [{ field: 'Title', type: 'sum' }],
      filter: { field: 'Watchers', operator: 'Above', value: 1 },
      styleRules: [{ filter: { field: 'Amount', operator: 'Contains', value: 'x' }, color: 1, field: 'Remark' }],
      actions: [{ code: 'L', title: '链接', type: 'Link' }],
    };
    const r = await save(a, [bad, { ...VIEW, title: '重复' }]);
    expect(r.body.errorCode).toBe(777);
    expect(r.body.detail.issues.map((i: any) => i.path).sort()).toEqual([
      'views.0.actions.0.url', 'views.0.columns.0.field', 'views.0.filter.operator', 'views.0.quickSearch.0', 'views.0.sort.0.field', 'views.0.stats.0.field',
      'views.0.styleRules.0.field', 'views.0.styleRules.0.filter.operator', 'views.1.code',
    ].sort());
    expect(JSON.stringify(r.body)).not.toMatch(/select |where /i);
    for (const wrong of [{ rowHeight: 50 }, { color: 20 }, { scope: 4 }, { actions: Array.from({ length: 101 }, (_, i) => ({ code: `A${i}`, title: 'x', type: 'Refresh' })) }]) {
      const view = 'color' in wrong ? { ...VIEW, styleRules: [{ filter: VIEW.filter, color: 20 }] } : { ...VIEW, ...wrong };
      expect((await save(a, [view])).body.errorCode, JSON.stringify(wrong).slice(0, 40)).toBe(777);
    }
    expect((await a.get('/v1/view/setting', { schemaCode: code })).views.map((v: any) => v.code)).toEqual(['Big', 'Mine']);
  });
});

describe('personal views', () => {
  const add = (client: OrgClient, body: Record<string, unknown>) => client.raw('POST', '/v1/preference/view/addView', { schemaCode: code, ViewPageId: 'Big', ...body });

  it('adds, lists, renames, reorders and deletes the caller’s own views only', async () => {
    const first = (await add(m, { Title: '我的大额', Config: { filter: { field: 'Amount', operator: 'Above', value: 50 }, sort: [{ field: 'Title', direction: 'asc' }] }, Fields: ['Title', 'Amount'] })).body.data;
    expect(first).toMatchObject({ Title: '我的大额', ScopeType: 3, SettingType: 0, Visible: true, Fields: ['Title', 'Amount'], ViewPageId: 'Big', schemaCode: code });
    const second = (await add(m, { Title: '第二个', ScopeType: 1 })).body.data;
    await add(a, { Title: '管理员的' });
    let list = (await m.get('/v1/preference/view', { schemaCode: code })).list;
    expect(list.map((v: any) => v.Title)).toEqual(['我的大额', '第二个']);

    const renamed = await m.post('/v1/preference/view/updateView', { Id: first.Id, Title: '大额客户', Visible: false });
    expect(renamed).toMatchObject({ Title: '大额客户', Visible: false, Config: first.Config });
    list = (await m.post('/v1/preference/view/view/sort', { schemaCode: code, ids: [second.Id, first.Id] })).list;
    expect(list.map((v: any) => v.Title)).toEqual(['第二个', '大额客户']);

    // Someone else's view: not found for the member, in every call.
    const theirs = (await a.get('/v1/preference/view', { schemaCode: code })).list[0];
    for (const [url, body] of [['/v1/preference/view/updateView', { Id: theirs.Id, Title: 'x' }], ['/v1/preference/view/deleteView', { Id: theirs.Id }]] as const) {
      const r = await m.raw('POST', url, body);
      expect([r.status, r.body.errorCode]).toEqual([404, 290003]);
    }
    expect((await m.raw('POST', '/v1/preference/view/view/sort', { schemaCode: code, ids: [theirs.Id] })).body.errorCode).toBe(777);
    expect((await a.get('/v1/preference/view', { schemaCode: code })).list[0].Title).toBe('管理员的');

    await m.post('/v1/preference/view/deleteView', { Id: second.Id });
    expect((await m.get('/v1/preference/view', { schemaCode: code })).list.map((v: any) => v.Id)).toEqual([first.Id]);
  });

  it('refuses unknown fields, sorts and views', async () => {
    const r = await add(m, { Title: '坏', Config: { filter: { field: 'Nope', operator: 'Equal', value: 1 }, sort: [{ field: 'Watchers', direction: 'asc' }] }, Fields: ['Nope'] });
    expect(r.body.errorCode).toBe(777);
    expect(r.body.detail.issues.map((i: any) => i.path).sort()).toEqual(['Config.filter.field', 'Config.sort.0.field', 'Fields.0']);
    expect((await add(m, { Title: '坏', ViewPageId: 'Nope' })).body.errorCode).toBe(290001);
    expect((await add(m, { Title: '' })).body.errorCode).toBe(777);
    expect((await add(m, { Title: '坏', ScopeType: 7 })).body.errorCode).toBe(777);
  });
});

describe('other engines', () => {
  it("never shows or changes another engine's views", async () => {
    const other = await registerPerson(t.app);
    const o = nodeClient(t.app, other);
    const otherForm = (await createForm(o, (await createApp(o)).code)).code as string;
    await publish(o, otherForm, definition([{ type: 'textBox', code: 'Title' }]));
    for (const [method, url, body] of [
      ['GET', '/v1/view/setting', { schemaCode: code }],
      ['GET', '/v1/page/header', { schemaCode: code }],
      ['GET', '/v1/preference/view', { schemaCode: code }],
      ['POST', '/v1/view/designer/save', { schemaCode: code, views: [VIEW] }],
    ] as const) {
      expect((await o.raw(method, url, body)).status, url).toBe(404);
    }
    const mine = (await a.get('/v1/preference/view', { schemaCode: code })).list[0];
    expect((await o.raw('POST', '/v1/preference/view/deleteView', { Id: mine.Id })).body.errorCode).toBe(290003);
    expect((await a.get('/v1/view/setting', { schemaCode: code })).views.map((v: any) => v.code)).toEqual(['Big', 'Mine']);
    expect((await a.raw('GET', '/v1/view/setting', { schemaCode: otherForm })).status).toBe(404);
  });
});
