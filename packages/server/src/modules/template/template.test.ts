// test-databases: both — names unique per scope by partial indexes, and a publish again that updates its row under a lock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, orgClient, type OrgClient, type Person } from '../../../test/org-helpers.ts';
import { FunctionNodeType as T, createApp, createNode } from '../../../test/node-helpers.ts';
import { definition, publish } from '../../../test/form-helpers.ts';
import { PLATFORM_OPERATORS_SETTING } from './template.policy.ts';

// Publishing apps as templates, the market's reads, sharing between engines and who may do what (docs/decisions/0131).

let t: TestApp;
let adminA: Person, adminB: Person, adminC: Person;
let a: OrgClient, b: OrgClient, c: OrgClient, memberA: OrgClient;
let appCode: string;

async function appWithForm(client: OrgClient, name: string): Promise<string> {
  const app = await createApp(client, { displayName: name });
  const form = await createNode(client, app.code, T.FormModule, { displayName: `${name}单` });
  await publish(client, form.code, definition([{ type: 'textBox', code: 'Title', options: { displayName: '标题' } }, { type: 'number', code: 'Amount', options: { displayName: '金额' } }], { displayName: `${name}单` }));
  return app.code;
}

const templateRows = () => t.database.db.selectFrom('platform.templates' as never).selectAll().execute() as Promise<{ id: string; name: string; version: number }[]>;
const listOf = async (client: OrgClient, query: Record<string, string> = {}) => (await client.get('/v1/template/list', { pageSize: '100', ...query })) as { list: { id: string; name: string; isMine: boolean; isSharedToMe: boolean; builtIn: boolean; scope: string }[]; total: number; categories: { category: string; count: number }[] };
const errorOf = async (client: OrgClient, method: 'GET' | 'POST', url: string, payload: unknown) => {
  const res = await client.raw(method, url, payload);
  expect(res.body.successful, JSON.stringify(res.body)).toBe(false);
  return { status: res.status, code: res.body.errorCode as number, message: res.body.errorMessage as string, detail: res.body.detail };
};
const publishBody = (overrides: Record<string, unknown> = {}) => ({ appCode, scope: 'Engine', name: '报销模板', category: '财务', summary: '报销与审批', ...overrides });

beforeAll(async () => {
  t = await createTestApp();
  adminA = await registerPerson(t.app, { engineName: '甲公司' });
  adminB = await registerPerson(t.app, { engineName: '乙公司' });
  adminC = await registerPerson(t.app, { engineName: '丙公司' });
  a = orgClient(t.app, adminA);
  b = orgClient(t.app, adminB);
  c = orgClient(t.app, adminC);
  memberA = orgClient(t.app, await addInvitedMember(t, adminA, { name: '普通成员' }));
  appCode = await appWithForm(a, '费用报销');
});
afterAll(() => t.close());

describe('checkPublish', () => {
  it('allows an administrator to publish a self-contained app in the engine scope', async () => {
    expect(await a.post('/v1/template/checkPublish', { appCode, scope: 'Engine', name: '报销模板' })).toEqual({ allowed: true, problems: [] });
  });

  it('names the platform scope for a non-operator, and a member who does not administer the app', async () => {
    const platform = await a.post('/v1/template/checkPublish', { appCode, scope: 'Platform' });
    expect(platform.allowed).toBe(false);
    expect(platform.problems.map((p: { path: string }) => p.path)).toEqual(['scope']);
    const member = await errorOf(memberA, 'POST', '/v1/template/checkPublish', { appCode, scope: 'Engine' });
    expect(member.status).toBe(404); // a member who may not open the app does not see it
  });

  it('names a reference to a form outside the app', async () => {
    const other = await appWithForm(a, '客户资料');
    const otherForm = (await a.get(`/v1/functionNode/app/feature/list?appCode=${other}`)).list.find((n: { nodeType: number }) => n.nodeType === T.FormModule).code;
    const app = await createApp(a, { displayName: '订单' });
    const form = await createNode(a, app.code, T.FormModule, { displayName: '订单' });
    await publish(a, form.code, definition([{ type: 'associationQuery', code: 'Customer', options: { schemaCode: otherForm, displayName: '客户' } }], { displayName: '订单' }));
    const check = await a.post('/v1/template/checkPublish', { appCode: app.code, scope: 'Engine' });
    expect(check.allowed).toBe(false);
    expect(check.problems.length).toBeGreaterThan(0);
    const refused = await errorOf(a, 'POST', '/v1/template/publish', { ...publishBody(), appCode: app.code, name: '订单模板' });
    expect(refused.code).toBe(500105);
    expect((await templateRows()).some((r) => r.name === '订单模板')).toBe(false);
  });
});

describe('publishing and the market', () => {
  let templateId: string;

  it('publishes an app of engine A that only A sees', async () => {
    const published = await a.post('/v1/template/publish', publishBody());
    expect(published.version).toBe(1);
    templateId = published.templateId;
    const mine = await listOf(a, { source: 'engine' });
    expect(mine.list.map((x) => x.name)).toEqual(['报销模板']);
    expect(mine.list[0]).toMatchObject({ isMine: true, isSharedToMe: false, scope: 'Engine', builtIn: false });
    expect((await listOf(b)).list.some((x) => x.id === templateId)).toBe(false);
    expect((await errorOf(b, 'GET', '/v1/template/info', { templateId })).code).toBe(500101);
    expect((await errorOf(b, 'POST', '/v1/template/install', { templateId })).code).toBe(500101);
  });

  it('answers what the template holds: its forms', async () => {
    const info = await a.get('/v1/template/info', { templateId });
    expect(info).toMatchObject({ name: '报销模板', category: '财务', summary: '报销与审批', formCount: 1, version: 1 });
    expect(info.forms).toEqual([{ name: '费用报销单', sampleCount: 0 }]);
  });

  it('publishing the same app again is a new version of the same template', async () => {
    const again = await a.post('/v1/template/publish', publishBody({ summary: '第二版' }));
    expect(again).toEqual({ templateId, version: 2 });
    expect((await templateRows()).filter((r) => r.name === '报销模板')).toHaveLength(1);
    expect((await a.get('/v1/template/info', { templateId })).summary).toBe('第二版');
  });

  it('refuses a name the engine has used for another app, writing nothing', async () => {
    const other = await appWithForm(a, '请假');
    const before = await templateRows();
    const taken = await errorOf(a, 'POST', '/v1/template/publish', { ...publishBody(), appCode: other, name: '报销模板' });
    expect(taken.code).toBe(500102);
    expect(taken.message).toContain('报销模板');
    expect(await templateRows()).toEqual(before);
    expect((await a.post('/v1/template/checkPublish', { appCode: other, scope: 'Engine', name: '报销模板' })).problems.map((p: { path: string }) => p.path)).toEqual(['name']);
    // Another engine may use the same name in its own scope.
    const bApp = await appWithForm(b, '报销');
    await b.post('/v1/template/publish', { ...publishBody(), appCode: bApp });
  });

  it('lists by category and keyword, paged', async () => {
    await a.post('/v1/template/publish', { ...publishBody(), appCode: await appWithForm(a, '采购申请'), name: '采购模板', category: '采购', summary: '采购与付款' });
    const all = await listOf(a, { source: 'engine' });
    expect(all.categories).toEqual([{ category: '财务', count: 1 }, { category: '采购', count: 1 }]);
    expect((await listOf(a, { source: 'engine', category: '采购' })).list.map((x) => x.name)).toEqual(['采购模板']);
    expect((await listOf(a, { source: 'engine', keyword: '付款' })).list.map((x) => x.name)).toEqual(['采购模板']);
    expect((await listOf(a, { source: 'engine', keyword: '%' })).list).toEqual([]);
    const page = await a.get('/v1/template/list', { source: 'engine', pageSize: '1', pageIndex: '1' });
    expect(page).toMatchObject({ total: 2, hasMore: false });
    expect(page.list).toHaveLength(1);
  });

  it('publishes at the same time: one template per app, and one holder of a name', async () => {
    const app = await appWithForm(a, '同时发布');
    const both = await Promise.all([1, 2].map(() => a.post('/v1/template/publish', { ...publishBody(), appCode: app, name: '同时发布模板' })));
    expect(new Set(both.map((x) => x.templateId)).size).toBe(1);
    expect(both.map((x) => x.version).sort()).toEqual([1, 2]);
    const [x, y] = [await appWithForm(a, '甲应用'), await appWithForm(a, '乙应用')];
    const raced = await Promise.all([x, y].map((code) => a.raw('POST', '/v1/template/publish', { ...publishBody(), appCode: code, name: '抢名称' })));
    expect(raced.map((r) => r.body.successful ? 'ok' : r.body.errorCode).sort()).toEqual([500102, 'ok']);
    expect((await templateRows()).filter((r) => r.name === '抢名称')).toHaveLength(1);
  });

  it('platform templates: only operators publish them, and every engine sees them', async () => {
    const refused = await errorOf(a, 'POST', '/v1/template/publish', publishBody({ scope: 'Platform', name: '平台报销' }));
    expect(refused).toMatchObject({ status: 403, code: 500104 });
    const account = await t.database.db.selectFrom('platform.accounts').select('id').where('mobile', '=', adminA.mobile).executeTakeFirstOrThrow();
    await t.database.db.insertInto('platform.settings').values({ name: PLATFORM_OPERATORS_SETTING, value: JSON.stringify([account.id]) }).execute();
    const published = await a.post('/v1/template/publish', publishBody({ scope: 'Platform', name: '平台报销' }));
    const seen = (await listOf(c, { source: 'platform' })).list;
    expect(seen.map((x) => x.id)).toEqual([published.templateId]);
    expect((await errorOf(b, 'POST', '/v1/template/remove', { templateId: published.templateId })).code).toBe(500104);
    await a.post('/v1/template/remove', { templateId: published.templateId });
    expect((await listOf(c, { source: 'platform' })).list).toEqual([]);
  });

  it('only those who may create apps install; a member is refused', async () => {
    expect((await errorOf(memberA, 'POST', '/v1/template/install', { templateId })).code).toBe(500107);
  });
});

describe('sharing an app with other engines', () => {
  it('shares with a named engine, which sees it under 共享给我的; a third engine does not', async () => {
    const shared = await a.post('/v1/share/app/publish', { appCode, engineCodes: [adminB.engineCode] });
    expect(shared.sharedWith).toEqual([{ engineCode: adminB.engineCode, engineName: '乙公司' }]);
    const inB = await listOf(b, { source: 'shared' });
    expect(inB.list.map((x) => x.id)).toEqual([shared.templateId]);
    expect(inB.list[0]).toMatchObject({ isSharedToMe: true, isMine: false });
    expect((await b.get('/v1/template/info', { templateId: shared.templateId })).sharedWith).toEqual([]);
    expect((await a.get('/v1/template/info', { templateId: shared.templateId })).sharedWith).toHaveLength(1);
    expect((await listOf(c)).list.some((x) => x.id === shared.templateId)).toBe(false);
    expect((await errorOf(c, 'GET', '/v1/template/info', { templateId: shared.templateId })).status).toBe(404);
  });

  it('shares with the associated engines', async () => {
    await t.database.db
      .insertInto('platform.associated_orgs')
      .values({ id: 'assoc-test-1', host_engine_code: adminC.engineCode, associated_code: 'assoc-code-1', code_expires: new Date(Date.now() + 86400000), partner_engine_code: adminA.engineCode, state: 'active', created_by: 'x' })
      .execute();
    const app = await appWithForm(a, '合同');
    const shared = await a.post('/v1/share/app/publish', { appCode: app, toAssociated: true });
    expect(shared.sharedWith.map((s: { engineCode: string }) => s.engineCode)).toEqual([adminC.engineCode]);
    expect((await listOf(c, { source: 'shared' })).list.map((x) => x.name)).toEqual(['合同']);
    expect((await listOf(b, { source: 'shared' })).list.some((x) => x.name === '合同')).toBe(false);
  });

  it('refuses its own engine, an unknown engine, no targets, and a member; nothing written', async () => {
    const before = await templateRows();
    expect((await errorOf(a, 'POST', '/v1/share/app/publish', { appCode, engineCodes: [adminA.engineCode] })).code).toBe(500109);
    expect((await errorOf(a, 'POST', '/v1/share/app/publish', { appCode, engineCodes: ['zzzz9999'] })).code).toBe(500109);
    expect((await errorOf(b, 'POST', '/v1/share/app/publish', { appCode: await appWithForm(b, '空共享'), toAssociated: true })).code).toBe(500110);
    expect((await errorOf(memberA, 'POST', '/v1/share/app/publish', { appCode, engineCodes: [adminB.engineCode] })).status).toBe(404);
    expect((await templateRows()).length).toBe(before.length);
  });

  it('the publisher removes its template; the receivers no longer see it', async () => {
    const shared = (await listOf(b, { source: 'shared' })).list[0]!;
    expect((await errorOf(b, 'POST', '/v1/template/remove', { templateId: shared.id })).code).toBe(500108);
    await a.post('/v1/template/remove', { templateId: shared.id });
    expect((await listOf(b, { source: 'shared' })).list).toEqual([]);
  });
});

describe('pictures', () => {
  const upload = async (who: Person, name: string, body: Buffer) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/file/upload', query: { scene: name.endsWith('.png') ? 'image' : 'attachment', fileName: name }, headers: { authorization: `Bearer ${who.token}`, enginecode: who.engineCode, 'content-type': 'application/octet-stream' }, payload: body });
    return res.json().data.fileId as string;
  };

  it('copies the publisher own images; the receiving engine reads them through the template', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 0, b: 0 } } }).png().toBuffer();
    const picture = await upload(adminA, 'screen.png', png);
    const app = await appWithForm(a, '巡检');
    const published = await a.post('/v1/template/publish', { ...publishBody(), appCode: app, name: '巡检模板', pictures: [picture] });
    await a.post('/v1/share/app/publish', { appCode: app, engineCodes: [adminB.engineCode] });
    const info = await b.get('/v1/template/info', { templateId: published.templateId });
    expect(info.pictures).toHaveLength(1);
    const res = await t.app.inject({ method: 'GET', url: info.pictures[0], headers: { authorization: `Bearer ${adminB.token}`, enginecode: adminB.engineCode } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(res.rawPayload, png)).toBe(0);
    const inC = await t.app.inject({ method: 'GET', url: info.pictures[0], headers: { authorization: `Bearer ${adminC.token}`, enginecode: adminC.engineCode } });
    expect(inC.statusCode).toBe(404);
  });

  it('refuses a file that is not an image, or not the caller own', async () => {
    const text = await upload(adminA, 'notes.txt', Buffer.from('hello'));
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 0, g: 0, b: 200 } } }).png().toBuffer();
    const bFile = await upload(adminB, 'b.png', png);
    for (const fileId of [text, bFile]) {
      const refused = await errorOf(a, 'POST', '/v1/template/publish', { ...publishBody(), name: '图片不对', pictures: [fileId] });
      expect(refused).toMatchObject({ code: 500106, detail: { fileId } });
    }
    expect((await templateRows()).some((r) => r.name === '图片不对')).toBe(false);
  });
});

describe('bad input', () => {
  it('answers 777 or not-found for wrong shapes, unknown fields, NUL, and other ids, writing nothing', async () => {
    const before = await templateRows();
    const cases: [string, string, unknown][] = [
      ['POST', '/v1/template/publish', { ...publishBody(), extra: 1 }],
      ['POST', '/v1/template/publish', { ...publishBody(), scope: 'World' }],
      ['POST', '/v1/template/publish', { ...publishBody(), name: 'a\u0000b' }],
      ['POST', '/v1/template/publish', { ...publishBody(), category: '未知' }],
      ['POST', '/v1/template/publish', { ...publishBody(), pictures: Array(7).fill('0190c6f5-0000-7000-8000-000000000000') }],
      ['POST', '/v1/template/publish', { ...publishBody(), appCode: { nested: { deep: true } } }],
      ['GET', '/v1/template/list', { pageSize: '100000' }],
      ['GET', '/v1/template/list', { keyword: 'a\u0000' }],
      ['GET', '/v1/template/info', { templateId: '../etc' }],
      ['POST', '/v1/template/install', { templateId: 'x', formMapping: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`F${i}`, 'G'])) }],
      ['GET', '/v1/template/install/progress', { actionId: 'not-a-uuid' }],
      ['POST', '/v1/template/checksampledata', { appCode: 'a b' }],
      ['POST', '/v1/share/app/publish', { appCode, engineCodes: ['BAD CODE'] }],
    ];
    for (const [method, url, payload] of cases) {
      const res = await errorOf(a, method as 'GET' | 'POST', url, payload);
      expect(res.code, `${method} ${url} ${JSON.stringify(payload)}`).toBe(777);
    }
    expect((await errorOf(a, 'GET', '/v1/template/info', { templateId: 'NoSuchTemplate' })).code).toBe(500101);
    expect((await errorOf(a, 'POST', '/v1/template/publish', { ...publishBody(), appCode: 'NoSuchApp' })).status).toBe(404);
    expect(await templateRows()).toEqual(before);
  });
});
