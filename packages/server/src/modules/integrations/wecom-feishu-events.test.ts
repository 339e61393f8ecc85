// test-databases: both — the incremental sync's writes and the events' claims for WeCom's and Feishu's pushes
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, uniqueMobile, type TestApp } from '../../../test/helpers.ts';
import { addMember, orgClient, type Person } from '../../../test/org-helpers.ts';
import { startFakeWeCom, type FakeWeCom } from '../../../test/wecom-fake.ts';
import { startFakeFeishu, type FakeFeishu, type FakeFeishuUser } from '../../../test/feishu-fake.ts';
import { engineDb } from '../../db/database.ts';
import { wxworkCallbacks } from './providers/wxwork-events.ts';
import { feishuCallbacks, feishuDecrypt, feishuSignature } from './providers/feishu-events.ts';

// WeCom's and Feishu's change pushes (decision 0089), each against its local fake speaking the platform's protocol:
// sealed and signed as the platform does, the URL checks answered as it expects, forged pushes refused with nothing
// recorded, and a burst of pushes applied by one run that reads only the departments and people they name.

let t: TestApp;
let admin: Person;
beforeAll(async () => {
  t = await createTestApp({ config: { workerMode: 'off' } });
  admin = await registerPerson(t.app, { userName: '通讯录管理员' });
});
afterAll(async () => t?.close());

const edb = () => engineDb(t.database.db, admin.engineCode);
const client = () => orgClient(t.app, admin);
const save = (body: Record<string, unknown>) => client().post('/v1/sysintergration/chat/setting', { enabled: true, corpId: '', agentId: '', ...body });
const callbackPath = (provider: string) => `/v1/sysintergration/directory/callback/${provider}/${admin.engineCode}`;
const runJobs = async () => {
  while (await t.app.extras.jobs.runOnce());
};
const userOf = (provider: string, subject: string) =>
  edb().selectFrom('org_user_identities as i').innerJoin('org_users as u', 'u.id', 'i.user_id').select(['u.id', 'u.name', 'u.state', 'u.main_department_id', 'u.email']).where('i.provider', '=', provider).where('i.subject', '=', subject).executeTakeFirst();
const unitOf = (provider: string, subject: string) =>
  edb().selectFrom('org_unit_identities as i').innerJoin('org_units as u', 'u.id', 'i.unit_id').select(['u.id', 'u.name', 'u.parent_id', 'u.manager_id']).where('i.provider', '=', provider).where('i.subject', '=', subject).executeTakeFirst();
const recorded = (provider: string) => edb().selectFrom('directory_events').select(['event_type', 'subject_kind', 'subjects']).where('provider', '=', provider).execute();
const waitingJobs = () => t.database.db.selectFrom('platform.jobs').select('payload').where('engine_code', '=', admin.engineCode).where('state', '=', 'Waiting').execute();

describe('WeCom change pushes', () => {
  let wx: FakeWeCom;
  const settings = () => ({ provider: 'wxwork', baseUrl: wx.url, appKey: wx.corpId, appSecret: wx.secret, agentId: '1000002' });
  const push = (fields: Record<string, string>, options?: Parameters<FakeWeCom['signedPush']>[1]) => {
    const { query, body } = wx.signedPush(fields, options);
    return call(t.app, 'POST', callbackPath('wxwork'), { query, body, headers: { 'content-type': 'text/xml' } });
  };
  beforeAll(async () => {
    wx = await startFakeWeCom();
  });
  afterAll(async () => wx?.close());

  it('opens what WeCom seals: the XML message, ids kept as text, the CorpID checked', () => {
    const keys = { token: wx.callbackToken, aesKey: wx.callbackAesKey };
    const adapter = { baseUrl: '', appKey: wx.corpId, appSecret: '', corpId: '', agentId: '', http: fetch };
    const { query, body } = wx.signedPush({ ChangeType: 'update_user', UserID: '007', NewUserID: 'james' });
    expect(wxworkCallbacks.open(adapter, keys, { method: 'POST', query, headers: {}, body })).toEqual({ type: 'update_user', change: { type: 'update_user', kind: 'user', subjects: ['007', 'james'] } });
    const party = wx.signedPush({ ChangeType: 'delete_party', Id: '12' });
    expect(wxworkCallbacks.open(adapter, keys, { method: 'POST', ...party, headers: {} })?.change).toEqual({ type: 'delete_party', kind: 'department', subjects: ['12'] });
    // Another organisation's CorpID, another token, another key: nothing opens.
    expect(wxworkCallbacks.open({ ...adapter, appKey: 'wwother' }, keys, { method: 'POST', query, headers: {}, body })).toBeNull();
    expect(wxworkCallbacks.open(adapter, { ...keys, token: 'other' }, { method: 'POST', query, headers: {}, body })).toBeNull();
    expect(wxworkCallbacks.open(adapter, { ...keys, aesKey: 'A'.repeat(43) }, { method: 'POST', query, headers: {}, body })).toBeNull();
  });

  it('shows the callback URL and keeps Token and EncodingAESKey write-only; refuses a malformed key', async () => {
    const first = await save(settings());
    expect(first).toMatchObject({ hasCallbackKeys: false, pendingEvents: 0 });
    expect(first.callbackUrl).toMatch(new RegExp(`${callbackPath('wxwork')}$`));
    // Before the keys are set the check answers 200901 and nothing is decrypted.
    expect((await call(t.app, 'GET', callbackPath('wxwork'), { query: wx.urlCheck().query })).body.errorCode).toBe(200901);
    const bad = await client().raw('POST', '/v1/sysintergration/chat/setting', { ...settings(), corpId: '', callbackToken: wx.callbackToken, callbackAesKey: 'short' });
    expect(bad.body).toMatchObject({ errorCode: 777 });
    const saved = await save({ ...settings(), callbackToken: wx.callbackToken, callbackAesKey: wx.callbackAesKey });
    expect(saved.hasCallbackKeys).toBe(true);
    expect(JSON.stringify(saved)).not.toContain(wx.callbackAesKey);
    expect(JSON.stringify(saved)).not.toContain(wx.callbackToken);
  });

  it('answers the URL check with the decrypted echostr in plain text; forged checks and pushes are refused and recorded nowhere', async () => {
    const check = wx.urlCheck();
    const answer = await call(t.app, 'GET', callbackPath('wxwork'), { query: check.query });
    expect(answer.status).toBe(200);
    expect(answer.response.payload).toBe(check.expected);
    expect(answer.response.headers['content-type']).toMatch(/^text\/plain/);
    for (const tamper of ['signature', 'receiver'] as const) {
      expect((await call(t.app, 'GET', callbackPath('wxwork'), { query: wx.urlCheck({ tamper }).query })).body.errorCode).toBe(200904);
      expect((await push({ ChangeType: 'delete_user', UserID: 'lisi' }, { tamper })).body.errorCode).toBe(200904);
    }
    const signed = wx.signedPush({ ChangeType: 'delete_user', UserID: 'lisi' });
    expect((await call(t.app, 'POST', callbackPath('wxwork'), { body: signed.body, headers: { 'content-type': 'text/xml' } })).body.errorCode).toBe(200904);
    expect((await call(t.app, 'POST', callbackPath('wxwork'), { query: signed.query, body: '<xml><Encrypt>', headers: { 'content-type': 'text/xml' } })).body.errorCode).toBe(200904);
    expect((await call(t.app, 'POST', callbackPath('wxwork'), { query: signed.query, body: '', headers: { 'content-type': 'text/xml' } })).body.errorCode).toBe(200904);
    expect(await recorded('wxwork')).toEqual([]);
    expect(await waitingJobs()).toEqual([]);
  });

  it('records a burst of pushes, queues one run, and applies only what they name', async () => {
    wx.departments.push({ id: 2, name: '研发部', parentid: 1, order: 1 }, { id: 3, name: '前端组', parentid: 2, order: 1 }, { id: 5, name: '测试组', parentid: 2, order: 2 });
    const person = (userid: string, name: string, department: number[]) => ({ userid, name, mobile: uniqueMobile(), department, main_department: department[0]!, is_leader_in_dept: department.map(() => 0), status: 1 });
    wx.users.push(person('lisi', '李四', [3]), person('wangwu', '王五', [3]), person('zhaoliu', '赵六', [2]), person('sunqi', '孙七', [1, 5]));
    await client().post('/v1/sysintergration/directory/sync', { provider: 'wxwork' });
    await runJobs();
    const untouchedBefore = (await userOf('wxwork', 'sunqi'))!;
    const localOnly = await addMember(t, admin, { name: '只在本地' });

    // Changes at WeCom.
    wx.departments.push({ id: 4, name: '新事业部', parentid: 2, order: 3 });
    wx.departments.find((d) => d.id === 3)!.name = '大前端组';
    wx.users.push({ ...person('newbie', '新同事', [4]), is_leader_in_dept: [1] });
    Object.assign(wx.users.find((u) => u.userid === 'lisi')!, { name: '李四四', department: [2], main_department: 2, is_leader_in_dept: [0] });
    wx.users = wx.users.filter((u) => u.userid !== 'zhaoliu');

    const pushes: Record<string, string>[] = [
      { ChangeType: 'create_party', Id: '4', ParentId: '2', Name: '新事业部' },
      { ChangeType: 'update_party', Id: '3', Name: '大前端组' },
      { ChangeType: 'create_user', UserID: 'newbie' },
      { ChangeType: 'update_user', UserID: 'lisi' },
      { ChangeType: 'delete_user', UserID: 'zhaoliu' },
      // A repeated push (WeCom retries) names the same person again.
      { ChangeType: 'update_user', UserID: 'lisi' },
    ];
    for (const fields of pushes) {
      const res = await push(fields);
      expect(res.response.payload).toBe('success');
    }
    expect((await client().get('/v1/sysintergration/chat/setting/load', { provider: 'wxwork' })).pendingEvents).toBe(6);
    expect((await waitingJobs()).map((j) => j.payload)).toEqual([{ provider: 'wxwork', mode: 'events' }]);

    wx.calls.clear();
    await runJobs();
    expect(wx.calls.get('/cgi-bin/department/list')).toBeUndefined();
    expect(wx.calls.get('/cgi-bin/user/list')).toBeUndefined();
    expect(wx.calls.get('/cgi-bin/department/get')).toBe(2);
    expect(wx.calls.get('/cgi-bin/user/get')).toBe(3);

    const d4 = (await unitOf('wxwork', '4'))!;
    const newbie = (await userOf('wxwork', 'newbie'))!;
    expect(d4).toMatchObject({ name: '新事业部', parent_id: (await unitOf('wxwork', '2'))!.id, manager_id: newbie.id });
    expect(newbie).toMatchObject({ name: '新同事', state: 'active', main_department_id: d4.id });
    expect((await unitOf('wxwork', '3'))!.name).toBe('大前端组');
    expect(await userOf('wxwork', 'lisi')).toMatchObject({ name: '李四四', main_department_id: (await unitOf('wxwork', '2'))!.id });
    expect((await userOf('wxwork', 'zhaoliu'))!.state).toBe('disabled');
    // Untouched: a person no push named (in the root and a department), and a person who exists only here.
    expect(await userOf('wxwork', 'sunqi')).toEqual(untouchedBefore);
    expect((await edb().selectFrom('org_users').select('state').where('id', '=', localOnly.userId).executeTakeFirstOrThrow()).state).toBe('active');

    const log = await client().get('/v1/sysintergration/directory/log', { provider: 'wxwork' });
    expect(log.list[0]).toMatchObject({ state: 'Finished', mode: 'events', result: { events: 6, departments: { created: 1, updated: 1 }, users: { created: 1, updated: 1, disabled: 1 } } });
    // A full sync afterwards finds nothing left to change.
    const again = await client().post('/v1/sysintergration/directory/preview', { provider: 'wxwork' });
    expect(again).toMatchObject({ departments: { created: 0, updated: 0 }, users: { created: 0, updated: 0, disabled: 0 }, managers: { updated: 0 } });
  });
});

describe('Feishu change pushes', () => {
  let fs: FakeFeishu;
  const settings = () => ({ provider: 'feishu', baseUrl: fs.url, appKey: fs.appId, appSecret: fs.appSecret });
  const send = ({ headers, body }: { headers: Record<string, string>; body: string }) => call(t.app, 'POST', callbackPath('feishu'), { headers, body });
  const active = { is_activated: true, is_frozen: false, is_resigned: false };
  const person = (id: string, name: string, departments: string[]): FakeFeishuUser => ({ user_id: id, open_id: `ou_${id}`, union_id: `on_${id}`, name, mobile: uniqueMobile(), department_ids: departments, status: { ...active } });
  beforeAll(async () => {
    fs = await startFakeFeishu();
  });
  afterAll(async () => fs?.close());

  it('opens what Feishu seals and checks its signature over the body as sent', () => {
    const keys = { token: fs.verificationToken, aesKey: fs.encryptKey };
    const adapter = { baseUrl: '', appKey: fs.appId, appSecret: '', corpId: '', agentId: '', http: fetch };
    const pushed = fs.signedPush('contact.user.updated_v3', { user_id: 'fs-1', open_id: 'ou_1' });
    const sealed = JSON.parse(pushed.body).encrypt as string;
    expect(JSON.parse(feishuDecrypt(fs.encryptKey, sealed)!)).toMatchObject({ header: { event_type: 'contact.user.updated_v3' } });
    // Another key fails the padding check, or (about one time in 256: the IV is random) passes it with garbage: never
    // the pushed text.
    expect(feishuDecrypt('another key', sealed)).not.toBe(feishuDecrypt(fs.encryptKey, sealed));
    const h = pushed.headers;
    expect(feishuSignature(h['x-lark-request-timestamp']!, h['x-lark-request-nonce']!, fs.encryptKey, pushed.body)).toBe(h['x-lark-signature']);
    expect(feishuCallbacks.open(adapter, keys, { method: 'POST', query: {}, headers: h, body: pushed.body })).toEqual({ type: 'contact.user.updated_v3', change: { type: 'contact.user.updated_v3', kind: 'user', subjects: ['fs-1'] } });
    // One character more in the body breaks the signature.
    expect(feishuCallbacks.open(adapter, keys, { method: 'POST', query: {}, headers: h, body: `${pushed.body} ` })).toBeNull();
  });

  it('takes an Encrypt Key of Feishu\'s form and keeps it write-only; answers the URL check with its challenge', async () => {
    const saved = await save({ ...settings(), callbackToken: fs.verificationToken, callbackAesKey: fs.encryptKey });
    expect(saved).toMatchObject({ hasCallbackKeys: true, pendingEvents: 0 });
    expect(saved.callbackUrl).toMatch(new RegExp(`${callbackPath('feishu')}$`));
    expect(JSON.stringify(saved)).not.toContain(fs.encryptKey);
    expect((await client().raw('POST', '/v1/sysintergration/chat/setting', { ...settings(), corpId: '', agentId: '', callbackAesKey: 'has spaces' })).body.errorCode).toBe(777);

    const check = await send(fs.urlVerification('challenge-123'));
    expect(check.body).toEqual({ challenge: 'challenge-123' });
    expect((await send(fs.urlVerification('x', { tamper: 'token' }))).body.errorCode).toBe(200904);
    expect((await send(fs.urlVerification('x', { tamper: 'plain' }))).body.errorCode).toBe(200904);
  });

  it('refuses forged, re-tokened and unsealed pushes and records nothing', async () => {
    for (const tamper of ['signature', 'token', 'plain'] as const) {
      expect((await send(fs.signedPush('contact.user.deleted_v3', { user_id: 'fs-1' }, { tamper }))).body.errorCode).toBe(200904);
    }
    const unsigned = fs.signedPush('contact.user.deleted_v3', { user_id: 'fs-1' });
    expect((await call(t.app, 'POST', callbackPath('feishu'), { headers: { 'content-type': 'application/json' }, body: unsigned.body })).body.errorCode).toBe(200904);
    expect((await call(t.app, 'POST', callbackPath('feishu'), { headers: { 'content-type': 'application/json' }, body: '{"encrypt":' })).body.errorCode).toBe(200904);
    expect((await call(t.app, 'GET', callbackPath('feishu'))).body.errorCode).toBe(200904);
    expect(await recorded('feishu')).toEqual([]);
    expect(await waitingJobs()).toEqual([]);
  });

  it('records a burst of contact events, queues one run, and applies only what they name', async () => {
    fs.departments.push({ open_department_id: 'od-sales', parent_department_id: '0', name: '销售部' }, { open_department_id: 'od-east', parent_department_id: 'od-sales', name: '华东区' });
    fs.users.push(person('fs-a', '甲', ['od-sales']), person('fs-b', '乙', ['od-east']), person('fs-c', '丙', ['od-east']), person('fs-d', '丁', ['od-sales']), person('fs-e', '戊', ['0', 'od-east']));
    await client().post('/v1/sysintergration/directory/sync', { provider: 'feishu' });
    await runJobs();
    const untouchedBefore = (await userOf('feishu', 'fs-e'))!;

    fs.departments.push({ open_department_id: 'od-south', parent_department_id: 'od-sales', name: '华南区', leader_user_id: 'fs-new' });
    fs.departments.find((d) => d.open_department_id === 'od-east')!.name = '华东大区';
    fs.users.push(person('fs-new', '新销售', ['od-south']));
    Object.assign(fs.users.find((u) => u.user_id === 'fs-a')!, { name: '甲甲', department_ids: ['od-east'] });
    fs.users.find((u) => u.user_id === 'fs-b')!.status.is_resigned = true;
    fs.users = fs.users.filter((u) => u.user_id !== 'fs-c');

    const events: [string, Record<string, unknown>][] = [
      ['contact.department.created_v3', { open_department_id: 'od-south', parent_department_id: 'od-sales', name: '华南区' }],
      ['contact.department.updated_v3', { open_department_id: 'od-east', name: '华东大区' }],
      ['contact.user.created_v3', { user_id: 'fs-new', open_id: 'ou_fs-new' }],
      ['contact.user.updated_v3', { user_id: 'fs-a', open_id: 'ou_fs-a' }],
      ['contact.user.deleted_v3', { user_id: 'fs-b', open_id: 'ou_fs-b' }],
      // A person the app may no longer see (out of its range) reads as gone; an open_id alone is read by open_id.
      ['contact.user.updated_v3', { open_id: 'ou_fs-c' }],
      ['contact.user.updated_v3', { user_id: 'fs-c' }],
    ];
    for (const [type, object] of events) expect((await send(fs.signedPush(type, object))).body).toEqual({ msg: 'success' });
    expect((await recorded('feishu')).map((e) => e.subjects)).toEqual([['od-south'], ['od-east'], ['fs-new'], ['fs-a'], ['fs-b'], ['ou_fs-c'], ['fs-c']]);
    expect((await waitingJobs()).map((j) => j.payload)).toEqual([{ provider: 'feishu', mode: 'events' }]);

    fs.calls.clear();
    await runJobs();
    expect(fs.calls.get('/open-apis/contact/v3/departments/0/children')).toBeUndefined();
    expect(fs.calls.get('/open-apis/contact/v3/users/find_by_department')).toBeUndefined();
    expect(fs.calls.get('/open-apis/contact/v3/departments/:id')).toBe(2);
    // fs-new, fs-a, fs-b, ou_fs-c, fs-c: the leader of 华南区 is among them already.
    expect(fs.calls.get('/open-apis/contact/v3/users/:id')).toBe(5);

    const south = (await unitOf('feishu', 'od-south'))!;
    const newcomer = (await userOf('feishu', 'fs-new'))!;
    expect(south).toMatchObject({ name: '华南区', parent_id: (await unitOf('feishu', 'od-sales'))!.id, manager_id: newcomer.id });
    expect(newcomer).toMatchObject({ name: '新销售', state: 'active', main_department_id: south.id });
    expect((await unitOf('feishu', 'od-east'))!.name).toBe('华东大区');
    expect(await userOf('feishu', 'fs-a')).toMatchObject({ name: '甲甲', main_department_id: (await unitOf('feishu', 'od-east'))!.id });
    expect((await userOf('feishu', 'fs-b'))!.state).toBe('disabled');
    expect((await userOf('feishu', 'fs-c'))!.state).toBe('disabled');
    expect((await userOf('feishu', 'fs-d'))!.state).toBe('active');
    expect(await userOf('feishu', 'fs-e')).toEqual(untouchedBefore);
    const log = await client().get('/v1/sysintergration/directory/log', { provider: 'feishu' });
    expect(log.list[0]).toMatchObject({ state: 'Finished', mode: 'events', result: { events: 7, departments: { created: 1, updated: 1 }, users: { created: 1, updated: 1, disabled: 2 } } });
    const again = await client().post('/v1/sysintergration/directory/preview', { provider: 'feishu' });
    expect(again).toMatchObject({ departments: { created: 0, updated: 0 }, users: { created: 0, updated: 0, disabled: 0 }, managers: { updated: 0 } });
  });
});
