// test-databases: both — the same directory sync writes for WeCom's and Feishu's directories
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, uniqueMobile, type TestApp } from '../../../test/helpers.ts';
import { addMember, orgClient, type Person } from '../../../test/org-helpers.ts';
import { startFakeWeCom, type FakeWeCom } from '../../../test/wecom-fake.ts';
import { startFakeFeishu, type FakeFeishu } from '../../../test/feishu-fake.ts';
import { confirmScan } from '../../../test/qr-login-fake.ts';
import { engineDb } from '../../db/database.ts';

// WeCom and Feishu through the same provider interface as DingTalk, each against a local server speaking its
// protocol: QR login, the login inside the platform's client, the platform's refusals, and the directory sync.

let t: TestApp;
let admin: Person;
beforeAll(async () => {
  t = await createTestApp({ config: { workerMode: 'off' } });
  admin = await registerPerson(t.app, { userName: '平台管理员' });
});
afterAll(async () => t?.close());

const edb = () => engineDb(t.database.db, admin.engineCode);
const save = (body: Record<string, unknown>) => orgClient(t.app, admin).post('/v1/sysintergration/chat/setting', { enabled: true, corpId: '', agentId: '', ...body });

/** Starts a QR login, opens the platform's page, confirms on the "phone" and completes it; answers the body. */
async function scanLogin(provider: 'wxwork' | 'feishu', fakeUrl: string, userid: string) {
  const start = await call(t.app, 'GET', `/v1/login/${provider}/scan`, { query: { engineCode: admin.engineCode } });
  expect(start.body.successful, JSON.stringify(start.body)).toBe(true);
  const page = new URL(start.body.data.redirectUrl);
  expect(await (await fetch(page)).text()).toContain('<svg');
  const back = new URL(await confirmScan(fakeUrl, page.searchParams.get('state')!, userid));
  expect(back.pathname).toBe(`/entry/login/${provider}`);
  return { page, body: (await call(t.app, 'GET', `/v1/login/${provider}/scan`, { query: { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! } })).body };
}

async function runSync(provider: 'wxwork' | 'feishu') {
  const client = orgClient(t.app, admin);
  const { jobId } = await client.post('/v1/sysintergration/directory/sync', { provider });
  while (await t.app.extras.jobs.runOnce());
  const log = await client.get('/v1/sysintergration/directory/log', { provider });
  expect(log.list[0]).toMatchObject({ jobId, state: 'Finished' });
  return log.list[0].result;
}

describe('WeCom sign-in and directory sync', () => {
  let wx: FakeWeCom;
  beforeAll(async () => {
    wx = await startFakeWeCom();
    await save({ provider: 'wxwork', baseUrl: wx.url, appKey: wx.corpId, appSecret: wx.secret, agentId: '1000002' });
  });
  afterAll(async () => wx?.close());

  it('signs a member in by QR scan and inside the WeCom client; refuses outsiders, used codes and a wrong secret', async () => {
    const member = await addMember(t, admin, { name: '企微成员' });
    wx.users.push({ userid: 'zhangsan', name: '企微成员', mobile: member.mobile, department: [1], main_department: 1, is_leader_in_dept: [0], status: 1 });
    const { page, body } = await scanLogin('wxwork', wx.url, 'zhangsan');
    expect(page.pathname).toBe('/wwopen/sso/qrConnect');
    expect(Object.fromEntries(page.searchParams)).toMatchObject({ appid: wx.corpId, agentid: '1000002' });
    expect(body).toMatchObject({ successful: true, data: { engineCode: admin.engineCode } });

    const corp = await call(t.app, 'GET', '/v1/login/wxwork/corp', { query: { engineCode: admin.engineCode, code: wx.codeFor('zhangsan') } });
    expect(corp.body.data.engineCode).toBe(admin.engineCode);
    const bound = await edb().selectFrom('org_user_identities').select('user_id').where('provider', '=', 'wxwork').where('subject', '=', 'zhangsan').execute();
    expect(bound.map((b) => b.user_id)).toEqual([member.userId]);

    const used = await call(t.app, 'GET', '/v1/login/wxwork/corp', { query: { engineCode: admin.engineCode, code: 'used-or-unknown' } });
    expect(used.body).toMatchObject({ errorCode: 200801, detail: { platformCode: 40029 } });
    expect((await call(t.app, 'GET', '/v1/login/wxwork/corp', { query: { engineCode: admin.engineCode, code: wx.codeFor('outsider') } })).body.errorCode).toBe(200501);
    await save({ provider: 'wxwork', baseUrl: wx.url, appKey: wx.corpId, appSecret: 'wrong', agentId: '1000002' });
    try {
      const wrong = await call(t.app, 'GET', '/v1/login/wxwork/corp', { query: { engineCode: admin.engineCode, code: wx.codeFor('zhangsan') } });
      expect(wrong.body).toMatchObject({ errorCode: 207001, detail: { platformCode: 40001 } });
    } finally {
      await save({ provider: 'wxwork', baseUrl: wx.url, appKey: wx.corpId, appSecret: wx.secret, agentId: '1000002' });
    }
  });

  it('syncs departments, people and leaders from WeCom through the same job; a second sync changes only what changed', async () => {
    wx.departments.push({ id: 2, name: '企微研发部', parentid: 1, order: 1 }, { id: 3, name: '企微前端组', parentid: 2, order: 1 });
    wx.users.push(
      { userid: 'lisi', name: '李四', mobile: uniqueMobile(), email: 'lisi@example.com', department: [3, 2], main_department: 3, is_leader_in_dept: [1, 0], status: 1 },
      { userid: 'wangwu', name: '王五', mobile: uniqueMobile(), department: [2], main_department: 2, is_leader_in_dept: [0], status: 5 },
    );
    const first = await runSync('wxwork');
    expect(first.departments).toMatchObject({ created: 2 });
    // 李四 is new; 王五 left WeCom (status 5) and is not brought in; the member who signed in is bound already.
    expect(first.users).toMatchObject({ created: 1, bound: 0, disabled: 0 });
    expect(first.samples.createdUsers).toEqual(['李四']);
    const front = await edb().selectFrom('org_unit_identities as i').innerJoin('org_units as u', 'u.id', 'i.unit_id').select(['u.name', 'u.manager_id']).where('i.provider', '=', 'wxwork').where('i.subject', '=', '3').executeTakeFirstOrThrow();
    const lisi = await edb().selectFrom('org_user_identities as i').innerJoin('org_users as u', 'u.id', 'i.user_id').select(['u.id', 'u.main_department_id']).where('i.provider', '=', 'wxwork').where('i.subject', '=', 'lisi').executeTakeFirstOrThrow();
    expect(front).toMatchObject({ name: '企微前端组', manager_id: lisi.id });

    wx.departments.find((d) => d.id === 3)!.name = '企微大前端组';
    const second = await runSync('wxwork');
    expect(second.departments).toMatchObject({ created: 0, updated: 1 });
    expect(second.users).toMatchObject({ created: 0, updated: 0, disabled: 0 });
  });
});

describe('Feishu sign-in and directory sync', () => {
  let fs: FakeFeishu;
  beforeAll(async () => {
    fs = await startFakeFeishu();
    await save({ provider: 'feishu', baseUrl: fs.url, appKey: fs.appId, appSecret: fs.appSecret });
  });
  afterAll(async () => fs?.close());

  it('signs a member in by QR (redirect URI sent with the code) and by POST /v1/login/feishu/corp; refuses what Feishu refuses', async () => {
    const member = await addMember(t, admin, { name: '飞书成员' });
    fs.users.push({ user_id: 'fs-m1', open_id: 'ou_m1', union_id: 'on_m1', name: '飞书成员', mobile: member.mobile, department_ids: ['0'], status: { is_activated: true, is_frozen: false, is_resigned: false } });
    const { page, body } = await scanLogin('feishu', fs.url, 'fs-m1');
    expect(page.pathname).toBe('/open-apis/authen/v1/authorize');
    expect(body).toMatchObject({ successful: true, data: { engineCode: admin.engineCode } });
    expect(fs.tokenRedirects.at(-1)).toBe('http://localhost:80/entry/login/feishu');

    const corp = await call(t.app, 'POST', '/v1/login/feishu/corp', { body: { engineCode: admin.engineCode, code: fs.codeFor('fs-m1') } });
    expect(corp.body.data.engineCode).toBe(admin.engineCode);
    expect((await call(t.app, 'POST', '/v1/login/feishu/corp', { body: { engineCode: admin.engineCode, code: 'nope' } })).body).toMatchObject({ errorCode: 200801, detail: { platformCode: 20003 } });
    expect((await call(t.app, 'POST', '/v1/login/feishu/corp', { body: { engineCode: admin.engineCode, code: fs.codeFor('not-allowed') } })).body.errorCode).toBe(200501);
    expect((await call(t.app, 'POST', '/v1/login/feishu/corp', { body: { engineCode: admin.engineCode } })).body.errorCode).toBe(777);
  });

  it('syncs the tree page by page from Feishu, leaders included', async () => {
    fs.departments.push({ open_department_id: 'od-sales', parent_department_id: '0', name: '飞书销售部', leader_user_id: 'fs-lead' }, { open_department_id: 'od-east', parent_department_id: 'od-sales', name: '飞书华东区' });
    const people = Array.from({ length: 60 }, (_, i) => ({
      user_id: `fs-u${i}`,
      open_id: `ou_${i}`,
      union_id: `on_${i}`,
      name: `飞书员工${i}`,
      mobile: uniqueMobile(),
      department_ids: [i % 2 ? 'od-east' : 'od-sales'],
      status: { is_activated: true, is_frozen: false, is_resigned: false },
    }));
    fs.users.push({ ...people[0]!, user_id: 'fs-lead', name: '销售负责人' }, ...people.slice(1));
    const result = await runSync('feishu');
    expect(result.departments).toMatchObject({ created: 2 });
    expect(result.users).toMatchObject({ created: 60, bound: 0 });
    const sales = await edb().selectFrom('org_unit_identities as i').innerJoin('org_units as u', 'u.id', 'i.unit_id').select('u.manager_id').where('i.provider', '=', 'feishu').where('i.subject', '=', 'od-sales').executeTakeFirstOrThrow();
    const lead = await edb().selectFrom('org_user_identities').select('user_id').where('provider', '=', 'feishu').where('subject', '=', 'fs-lead').executeTakeFirstOrThrow();
    expect(sales.manager_id).toBe(lead.user_id);
    const again = await orgClient(t.app, admin).post('/v1/sysintergration/directory/preview', { provider: 'feishu' });
    expect(again.users).toMatchObject({ created: 0, updated: 0, bound: 0, disabled: 0 });
  });
});
