import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, createApp, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';

// test-databases: both — view queries, statistics and distinct values (docs/testing.md "Runs on both databases").

// The view's data over HTTP (docs/decisions/0017) on PGlite and PostgreSQL: view query (scope, fixed filter, the
// caller's filter, quick search, sort, statistics, personal views), bad filters, batch delete checked per record,
// distinct values, links, and the batch update job to Finished with a refused record reported.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, code: string;
let member: Person & { userId: string }, m: OrgClient;
const byTitle = new Map<string, string>();

const FORM = definition([
  { type: 'textBox', code: 'Title' },
  { type: 'textArea', code: 'Remark' },
  { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
  { type: 'dropDown', code: 'Kind', options: { defaultItems: ['甲', '乙', '丙'] } },
  { type: 'multiUser', code: 'Watchers' },
  { type: 'formula', code: 'Double', options: { expression: '{Amount}*2', bindType: 'decimal', decimalPlaces: 2 } },
]);

const VIEWS = [
  {
    code: 'All', title: '全部', scope: 3, columns: [{ field: 'Title' }, { field: 'Amount' }, { field: 'Kind' }],
    filter: { field: 'Amount', operator: 'NotBelow', value: 0 }, quickSearch: ['Title', 'Remark'], stats: [{ field: 'Amount', type: 'sum' }, { field: 'Amount', type: 'max' }],
    sort: [{ field: 'Amount', direction: 'desc' }],
  },
  { code: 'Mine', title: '我的', scope: 1, columns: [{ field: 'Title' }], sort: [{ field: 'Title', direction: 'asc' }] },
];

async function record(client: OrgClient, values: Record<string, unknown>) {
  const r = await client.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values });
  byTitle.set(String(values.Title), r.objectId);
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
  await record(a, { Title: '客户甲', Remark: '北京', Amount: 100, Kind: '甲' });
  await record(a, { Title: '客户乙', Remark: '上海', Amount: 20, Kind: '乙' });
  await record(a, { Title: '负数', Amount: -5, Kind: '甲' });
  await record(m, { Title: '成员的', Remark: '客户 北京', Amount: 7, Kind: '丙' });
  await record(m, { Title: '成员二', Amount: 1, Kind: '甲' });
});
afterAll(() => t.close());

const vq = (client: OrgClient, body: Record<string, unknown> = {}) => client.raw('POST', '/v1/bizdata/view/query', { schemaCode: code, pageIndex: 0, pageSize: 50, ...body });
const titles = (r: { body: any }) => r.body.data.list.map((x: any) => x.Title);

describe('view query', () => {
  it("applies the view's fixed filter, sort, statistics and the caller's filter and keyword", async () => {
    const all = await vq(m, { viewCode: 'All', withStats: true });
    expect(titles(all)).toEqual(['客户甲', '客户乙', '成员的', '成员二']);
    expect(all.body.data.total).toBe(4);
    expect(all.body.data.stats.Amount).toMatchObject({ count: 4, sum: 128, max: 100 });
    const filtered = await vq(m, { viewCode: 'All', filter: { field: 'Kind', operator: 'In', value: ['甲', '丙'] }, withStats: true });
    expect(titles(filtered)).toEqual(['客户甲', '成员的', '成员二']);
    expect(filtered.body.data.stats.Amount.sum).toBe(108);
    expect(titles(await vq(m, { viewCode: 'All', keyword: '北京' }))).toEqual(['客户甲', '成员的']);
    expect(titles(await vq(m, { viewCode: 'All', keyword: '客户' }))).toEqual(['客户甲', '客户乙', '成员的']);
    expect(titles(await vq(m, { viewCode: 'All', sort: [{ field: 'Title', direction: 'asc' }] }))).toEqual(['客户乙', '客户甲', '成员二', '成员的'].sort((x, y) => (x < y ? -1 : 1)));
    const page = await vq(m, { viewCode: 'All', pageIndex: 1, pageSize: 1 });
    expect([titles(page), page.body.data.total, page.body.data.hasMore]).toEqual([['客户乙'], 4, true]);
  });

  it('narrows by the view scope for members; administrators of the app see every record', async () => {
    expect(titles(await vq(m, { viewCode: 'Mine' }))).toEqual(['成员二', '成员的']);
    expect(titles(await vq(a, { viewCode: 'Mine' }))).toEqual(['客户乙', '客户甲', '成员二', '成员的', '负数'].sort((x, y) => (x < y ? -1 : 1)));
  });

  it("reads a personal view's filter and scope", async () => {
    const pv = await a.post('/v1/preference/view/addView', { schemaCode: code, ViewPageId: 'All', Title: '甲类', ScopeType: 1, Config: { filter: { field: 'Kind', operator: 'Equal', value: '甲' } } });
    expect(titles(await vq(a, { personalViewId: pv.Id }))).toEqual(['客户甲']);
    // The caller's filter replaces the saved one; the personal scope stays.
    expect(titles(await vq(a, { personalViewId: pv.Id, filter: { field: 'Kind', operator: 'Equal', value: '乙' } }))).toEqual(['客户乙']);
    expect((await vq(m, { personalViewId: pv.Id })).body.errorCode).toBe(290003);
  });

  it('answers a bad filter with 777 naming it as sent, and no SQL text', async () => {
    const cases: [unknown, string][] = [
      [{ field: 'Nope', operator: 'Equal', value: 1 }, 'filter.field'],
      [{ field: 'Watchers', operator: 'Above', value: 1 }, 'filter.operator'],
      [{ type: 'And', children: [{ field: 'Amount', operator: 'Between', value: 'x' }] }, 'filter.children.0.value'],
    ];
    for (const [filter, path] of cases) {
      const r = await vq(m, { viewCode: 'All', filter });
      expect(r.body.errorCode).toBe(777);
      expect(r.body.detail.issues.map((i: any) => i.path)).toContain(path);
      expect(JSON.stringify(r.body)).not.toMatch(/select |where |ilike/i);
    }
    expect((await vq(m, { viewCode: 'All', sort: [{ field: 'Watchers', direction: 'asc' }] })).body.errorCode).toBe(777);
    expect((await vq(m, { viewCode: 'Nope' })).body.errorCode).toBe(290001);
    expect((await vq(m, { viewCode: 'All', pageSize: 7 })).body.errorCode).toBe(777);
  });

  it('lists distinct values among the view’s records', async () => {
    const r = await m.post('/v1/bizdata/property/distinct', { schemaCode: code, viewCode: 'All', field: 'Kind' });
    expect(r.list).toEqual([{ value: '丙', count: 1 }, { value: '乙', count: 1 }, { value: '甲', count: 2 }]);
    expect((await m.post('/v1/bizdata/property/distinct', { schemaCode: code, viewCode: 'Mine', field: 'Kind' })).list.map((x: any) => x.value)).toEqual(['丙', '甲']);
  });

  it('gives a short link to a record that exists, or to a page of this site only', async () => {
    const target = `/form/open/${code}/${byTitle.get('客户甲')}?engineCode=${admin.engineCode}`;
    const first = await m.post('/v1/bizdata/shortlink', { schemaCode: code, objectId: byTitle.get('客户甲') });
    expect(first.target).toBe(target);
    expect(first.url).toMatch(/^\/s\/[A-Za-z0-9_-]{8}$/);
    expect((await m.post('/v1/bizdata/shortlink', { path: target })).url).toBe(first.url);
    const opened = await t.app.inject({ method: 'GET', url: first.url });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe(target);
    for (const path of ['https://elsewhere.example/x', '//elsewhere.example/x', '/\\elsewhere.example', 'javascript:alert(1)']) {
      expect((await m.raw('POST', '/v1/bizdata/shortlink', { path })).body.errorCode, path).toBe(330105);
    }
    expect((await t.app.inject({ method: 'GET', url: '/s/unknown1' })).statusCode).toBe(404);
    expect((await m.raw('POST', '/v1/bizdata/shortlink', { schemaCode: code, objectId: '0192aaaa-0000-7000-8000-000000000009' })).body.errorCode).toBe(250001);
  });
});

describe('batch delete', () => {
  it('removes what the caller may remove and reports the rest', async () => {
    const extra = await record(m, { Title: '待删', Amount: 3 });
    const theirs = byTitle.get('负数')!;
    const missing = '0192aaaa-0000-7000-8000-000000000009';
    const r = await m.post('/v1/bizdata/view/delete', { schemaCode: code, objectIds: [extra, theirs, missing] });
    expect(r.removed).toEqual([extra]);
    expect(r.failed.map((f: any) => [f.objectId, f.errorCode])).toEqual([[theirs, 250003], [missing, 250001]]);
    expect((await a.raw('POST', '/v1/form/loaddata', { schemaCode: code, objectId: extra })).body.errorCode).toBe(250001);
    expect((await a.post('/v1/form/loaddata', { schemaCode: code, objectId: theirs })).values.Title).toBe('负数');
    expect((await m.raw('POST', '/v1/bizdata/view/delete', { schemaCode: code, objectIds: [] })).body.errorCode).toBe(777);
  });
});

describe('batch update', () => {
  const progress = (client: OrgClient, taskId: string) => client.post('/v1/bizdata/batchupdate/progress', { taskId });

  it('sets one field on the selected records in a job, reports progress and the records refused', async () => {
    const ids = ['成员的', '成员二', '客户甲'].map((x) => byTitle.get(x)!);
    const { taskId } = await m.post('/v1/bizdata/batchupdate', { schemaCode: code, objectIds: ids, field: 'Amount', value: 55 });
    expect(await progress(m, taskId)).toMatchObject({ state: 'Waiting', progress: 0, result: null, field: 'Amount' });
    expect(await t.app.extras.jobs.runOnce()).toBe(true);
    const done = await progress(m, taskId);
    expect(done).toMatchObject({ state: 'Finished', progress: 100 });
    expect(done.result).toMatchObject({ total: 3, succeeded: 2, failedCount: 1 });
    expect(done.result.failed).toEqual([expect.objectContaining({ objectId: byTitle.get('客户甲'), errorCode: 250003 })]);
    const values = async (title: string) => (await a.post('/v1/form/loaddata', { schemaCode: code, objectId: byTitle.get(title) })).values;
    expect((await values('成员的')).Amount).toBe(55);
    // Saved as the form saves: formulas follow.
    expect((await values('成员二')).Double).toBe(110);
    expect((await values('客户甲')).Amount).toBe(100);
    expect((await m.post('/v1/bizdata/batchupdate/tasks', { schemaCode: code })).list.map((x: any) => x.taskId)).toEqual([taskId]);
    // Another user's task is not theirs to read.
    const other = await addMember(t, admin, { name: '旁人' });
    expect((await nodeClient(t.app, other).raw('POST', '/v1/bizdata/batchupdate/progress', { taskId })).body.errorCode).toBe(290005);
  });

  it('updates every record the view shows when none are selected, and reports a value that fails its check', async () => {
    const { taskId } = await a.post('/v1/bizdata/batchupdate', { schemaCode: code, viewCode: 'All', filter: { field: 'Kind', operator: 'Equal', value: '甲' }, field: 'Remark', value: '批量' });
    await t.app.extras.jobs.runOnce();
    const done = await progress(a, taskId);
    expect(done.result).toMatchObject({ total: 2, succeeded: 2, failedCount: 0 });
    expect(titles(await vq(a, { viewCode: 'All', keyword: '批量' }))).toEqual(['客户甲', '成员二']);
    const bad = await a.post('/v1/bizdata/batchupdate', { schemaCode: code, objectIds: [byTitle.get('客户乙')], field: 'Amount', value: 'abc' });
    await t.app.extras.jobs.runOnce();
    const refused = await progress(a, bad.taskId);
    expect(refused.result).toMatchObject({ total: 1, succeeded: 0, failedCount: 1 });
    expect(refused.result.failed[0].errorCode).toBe(777);
  });

  it('refuses fields that cannot be set and bad filters before queueing anything', async () => {
    for (const field of ['Double', 'Nope', 'Status']) {
      expect((await a.raw('POST', '/v1/bizdata/batchupdate', { schemaCode: code, field, value: 1 })).body.errorCode, field).toBe(290006);
    }
    const r = await a.raw('POST', '/v1/bizdata/batchupdate', { schemaCode: code, filter: { field: 'Nope', operator: 'Equal', value: 1 }, field: 'Amount', value: 1 });
    expect(r.body.errorCode).toBe(777);
    expect(await t.app.extras.jobs.runOnce()).toBe(false);
  });
});

describe('other engines', () => {
  it("never reads or changes another engine's records", async () => {
    const other = await registerPerson(t.app);
    const o = nodeClient(t.app, other);
    await createForm(o, (await createApp(o)).code);
    const id = byTitle.get('客户乙')!;
    for (const [url, body] of [
      ['/v1/bizdata/view/query', { schemaCode: code }],
      ['/v1/bizdata/view/delete', { schemaCode: code, objectIds: [id] }],
      ['/v1/bizdata/property/distinct', { schemaCode: code, field: 'Kind' }],
      ['/v1/bizdata/shortlink', { schemaCode: code, objectId: id }],
      ['/v1/bizdata/batchupdate', { schemaCode: code, objectIds: [id], field: 'Amount', value: 1 }],
    ] as const) {
      expect((await o.raw('POST', url, body)).status, url).toBe(404);
    }
    expect((await a.post('/v1/form/loaddata', { schemaCode: code, objectId: id })).values.Title).toBe('客户乙');
  });
});

describe('a member whose permission group hides fields (docs/decisions/0037)', () => {
  beforeAll(async () => {
    await a.post('/v1/form/permission/group/save', {
      schemaCode: code,
      group: { name: '隐藏金额', members: { users: [member.userId] }, actions: ['view', 'create', 'edit'], viewScope: 'all', editScope: 'own', fieldRights: { Amount: 'hidden', Remark: 'hidden' } },
    });
  });

  it('still gets the view\'s fixed filter over a hidden field, but no hidden column, sort, statistic or quick-search field', async () => {
    const all = await vq(m, { viewCode: 'All', withStats: true });
    expect(all.body.successful, JSON.stringify(all.body)).toBe(true);
    expect(titles(all)).not.toContain('负数');
    expect(all.body.data.list[0]).not.toHaveProperty('Amount');
    expect(all.body.data.stats).toBeUndefined();
    expect(titles(await vq(m, { viewCode: 'All', keyword: '北京' }))).toEqual([]);
    expect(titles(await vq(a, { viewCode: 'All', keyword: '北京' }))).toContain('成员的');
    const header = await m.get('/v1/page/header', { schemaCode: code, viewCode: 'All' });
    expect(header.columns.map((c: { code: string }) => c.code)).toEqual(['Title', 'Kind']);
    const filtered = await vq(m, { viewCode: 'All', filter: { field: 'Amount', operator: 'Equal', value: 100 } });
    expect(filtered.body.errorCode).toBe(777);
    expect(filtered.body.detail.issues[0].path).toMatch(/^filter/);
  });
});
