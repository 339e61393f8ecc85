// test-databases: both — the incremental sync's set-wise writes under the organisation lock, and the events' claims
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, uniqueMobile, type TestApp } from '../../../test/helpers.ts';
import { addMember, companyIdOf, orgClient, type Person } from '../../../test/org-helpers.ts';
import { fillDirectory, startFakeDingTalk, type FakeDingTalk, type PushOptions } from '../../../test/dingtalk-fake.ts';
import { engineDb } from '../../db/database.ts';
import { dingDecrypt, dingEncrypt, dingSignature } from './providers/dingtalk-events.ts';

// Incremental directory sync from DingTalk's event subscription (decision 0077), against the local DingTalk server:
// pushes signed and encrypted as DingTalk sends them, forged ones refused, the recorded events applied by a sync that
// reads only the departments and people they name.

describe('DingTalk change pushes and the incremental directory sync', () => {
  let t: TestApp;
  let admin: Person;
  let ding: FakeDingTalk;
  let companyId: string;
  const edb = () => engineDb(t.database.db, admin.engineCode);
  const callbackPath = () => `/v1/sysintergration/directory/callback/dingtalk/${admin.engineCode}`;
  const saveSettings = (over: Record<string, unknown> = {}) =>
    orgClient(t.app, admin).post('/v1/sysintergration/chat/setting', { provider: 'dingtalk', enabled: true, baseUrl: ding.url, appKey: ding.appKey, appSecret: ding.appSecret, corpId: 'dingcorp01', agentId: '3001', ...over });
  const push = async (event: Record<string, unknown>, options?: PushOptions, path = callbackPath()) => {
    const { query, body } = ding.signedPush(event, options);
    const res = await call(t.app, 'POST', path, { query, body });
    return { ...res, accepted: ding.acceptsAnswer(res.body) };
  };
  const runJobs = async () => {
    while (await t.app.extras.jobs.runOnce());
  };
  const userOf = (subject: string) =>
    edb().selectFrom('org_user_identities as i').innerJoin('org_users as u', 'u.id', 'i.user_id').select(['u.id', 'u.name', 'u.state', 'u.main_department_id']).where('i.provider', '=', 'dingtalk').where('i.subject', '=', subject).executeTakeFirst();
  const unitOf = (subject: string) =>
    edb().selectFrom('org_unit_identities as i').innerJoin('org_units as u', 'u.id', 'i.unit_id').select(['u.id', 'u.name', 'u.parent_id']).where('i.provider', '=', 'dingtalk').where('i.subject', '=', subject).executeTakeFirst();

  beforeAll(async () => {
    t = await createTestApp({ config: { workerMode: 'off' } });
    admin = await registerPerson(t.app, { userName: '通讯录管理员' });
    companyId = await companyIdOf(t, admin.engineCode);
    ding = await startFakeDingTalk();
  });
  afterAll(async () => {
    await ding?.close();
    await t?.close();
  });

  it('encrypts and signs as DingTalk describes: the server opens what the fake sealed and the other way round', () => {
    const sealed = dingEncrypt(ding.callbackAesKey, 'dingapp', '{"EventType":"check_url"}');
    expect(dingDecrypt(ding.callbackAesKey, sealed)).toEqual({ message: '{"EventType":"check_url"}', ownerKey: 'dingapp' });
    const { query, body } = ding.signedPush({ EventType: 'user_add_org', UserId: ['a'] });
    expect(dingSignature(ding.callbackToken, query.timestamp!, query.nonce!, body.encrypt)).toBe(query.msg_signature);
    expect(dingDecrypt(ding.callbackAesKey, body.encrypt)).toEqual({ message: '{"EventType":"user_add_org","UserId":["a"]}', ownerKey: ding.appKey });
    // Another key opens nothing readable.
    expect(dingDecrypt('A'.repeat(43), body.encrypt)?.message).not.toBe('{"EventType":"user_add_org","UserId":["a"]}');
  });

  it('shows the callback URL to copy and keeps the push keys write-only; pushes before the keys are set change nothing', async () => {
    const first = await saveSettings();
    expect(first.callbackUrl).toMatch(new RegExp(`${callbackPath()}$`));
    expect(first).toMatchObject({ hasCallbackKeys: false, pendingEvents: 0 });
    expect((await push({ EventType: 'check_url' })).body.errorCode).toBe(200901);

    const saved = await saveSettings({ callbackToken: ding.callbackToken, callbackAesKey: ding.callbackAesKey });
    expect(saved.hasCallbackKeys).toBe(true);
    expect(JSON.stringify(saved)).not.toContain(ding.callbackAesKey);
    expect(JSON.stringify(saved)).not.toContain(ding.callbackToken);
    // Saving again without them keeps them.
    expect((await saveSettings()).hasCallbackKeys).toBe(true);
    // A key that is not 43 characters of base64 is refused.
    expect((await orgClient(t.app, admin).raw('POST', '/v1/sysintergration/chat/setting', { provider: 'dingtalk', enabled: true, baseUrl: ding.url, appKey: ding.appKey, corpId: '', agentId: '', callbackAesKey: 'short' })).body.errorCode).toBe(777);
  });

  it('answers DingTalk\'s URL check with the encrypted "success"; forged pushes are refused and recorded nowhere', async () => {
    const check = await push({ EventType: 'check_url' });
    expect(check.status).toBe(200);
    expect(check.accepted).toBe(true);
    for (const tamper of ['signature', 'owner'] as const) {
      const forged = await push({ EventType: 'user_leave_org', UserId: ['u1'] }, { tamper });
      expect(forged.accepted).toBe(false);
      expect(forged.body.errorCode).toBe(200904);
    }
    const unsigned = await call(t.app, 'POST', callbackPath(), { body: { encrypt: ding.signedPush({ EventType: 'user_leave_org', UserId: ['u1'] }).body.encrypt } });
    expect(unsigned.body.errorCode).toBe(200904);
    expect((await push({ EventType: 'check_url' }, {}, '/v1/sysintergration/directory/callback/dingtalk/no-such-engine')).body.errorCode).toBe(200601);
    expect(await edb().selectFrom('directory_events').selectAll().execute()).toEqual([]);
  });

  it('records the changes, queues one sync, and applies only them: created, changed, moved, left; local-only users stay', async () => {
    const client = orgClient(t.app, admin);
    fillDirectory(ding, 10, 30, '168');
    await client.post('/v1/sysintergration/directory/sync', { provider: 'dingtalk' });
    await runJobs();
    const localOnly = await addMember(t, admin, { name: '只在本地' });
    expect((await userOf('u3'))?.name).toBe('员工3');

    // Changes at DingTalk.
    ding.departments.push({ dept_id: 900, name: '新事业部', parent_id: 101 });
    ding.departments.find((d) => d.dept_id === 102)!.name = '市场二部';
    ding.departments.find((d) => d.dept_id === 105)!.parent_id = 100;
    const newcomer = { userid: 'u-new', unionid: 'un-new', name: '新同事', mobile: uniqueMobile(), dept_id_list: [900], leader_in_dept: [{ dept_id: 900, leader: true }], active: true };
    ding.users.push(newcomer);
    ding.users.find((u) => u.userid === 'u3')!.name = '员工三';
    ding.users.find((u) => u.userid === 'u4')!.dept_id_list = [102];
    ding.users = ding.users.filter((u) => u.userid !== 'u6');

    const events = [
      { EventType: 'org_dept_create', DeptId: [900] },
      { EventType: 'org_dept_modify', DeptId: [102, 105] },
      { EventType: 'user_add_org', UserId: ['u-new'] },
      { EventType: 'user_modify_org', UserId: ['u3', 'u4'] },
      { EventType: 'user_leave_org', UserId: ['u6'] },
    ];
    for (const event of events) expect((await push({ ...event, CorpId: 'dingcorp01', TimeStamp: String(Date.now()) })).accepted).toBe(true);
    expect((await client.get('/v1/sysintergration/chat/setting/load', { provider: 'dingtalk' })).pendingEvents).toBe(5);
    const queued = await t.database.db.selectFrom('platform.jobs').select(['payload']).where('engine_code', '=', admin.engineCode).where('state', '=', 'Waiting').execute();
    expect(queued.map((j) => j.payload)).toEqual([{ provider: 'dingtalk', mode: 'events' }]);

    ding.calls.clear();
    await runJobs();
    // Only the named departments and people were read: no listing of the directory.
    expect(ding.calls.get('/topapi/v2/department/listsub')).toBeUndefined();
    expect(ding.calls.get('/topapi/v2/user/list')).toBeUndefined();
    expect(ding.calls.get('/topapi/v2/department/get')).toBe(3);
    expect(ding.calls.get('/topapi/v2/user/get')).toBe(4);

    const d900 = (await unitOf('900'))!;
    expect(d900).toMatchObject({ name: '新事业部', parent_id: (await unitOf('101'))!.id });
    expect((await unitOf('102'))!.name).toBe('市场二部');
    expect((await unitOf('105'))!.parent_id).toBe((await unitOf('100'))!.id);
    const created = (await userOf('u-new'))!;
    expect(created).toMatchObject({ name: '新同事', state: 'active', main_department_id: d900.id });
    expect((await edb().selectFrom('org_units').select('manager_id').where('id', '=', d900.id).executeTakeFirstOrThrow()).manager_id).toBe(created.id);
    expect((await userOf('u3'))!.name).toBe('员工三');
    expect((await userOf('u4'))!.main_department_id).toBe((await unitOf('102'))!.id);
    expect((await userOf('u6'))!.state).toBe('disabled');
    expect((await userOf('u7'))!.state).toBe('active');
    expect((await edb().selectFrom('org_users').select('state').where('id', '=', localOnly.userId).executeTakeFirstOrThrow()).state).toBe('active');

    const log = await client.get('/v1/sysintergration/directory/log', { provider: 'dingtalk' });
    expect(log.list[0]).toMatchObject({
      state: 'Finished',
      mode: 'events',
      result: { events: 5, departments: { created: 1, updated: 2 }, users: { created: 1, updated: 2, disabled: 1 } },
    });
    expect(log.list[1]).toMatchObject({ mode: 'full' });
    expect((await client.get('/v1/sysintergration/chat/setting/load', { provider: 'dingtalk' })).pendingEvents).toBe(0);
  });

  it('an event sync with nothing pending changes nothing; a platform failure leaves the events for the next run', async () => {
    const client = orgClient(t.app, admin);
    await client.post('/v1/sysintergration/directory/sync', { provider: 'dingtalk', mode: 'events' });
    await runJobs();
    expect((await client.get('/v1/sysintergration/directory/log', { provider: 'dingtalk' })).list[0]).toMatchObject({
      mode: 'events',
      result: { events: 0, departments: { created: 0, updated: 0 }, users: { created: 0, updated: 0, disabled: 0 } },
    });

    ding.users.find((u) => u.userid === 'u8')!.name = '员工八';
    expect((await push({ EventType: 'user_modify_org', UserId: ['u8'] })).accepted).toBe(true);
    await saveSettings({ baseUrl: 'http://127.0.0.1:9' });
    await runJobs();
    expect((await client.get('/v1/sysintergration/directory/log', { provider: 'dingtalk' })).list[0]).toMatchObject({ mode: 'events', state: 'Failed' });
    expect((await userOf('u8'))!.name).toBe('员工8');
    expect((await client.get('/v1/sysintergration/chat/setting/load', { provider: 'dingtalk' })).pendingEvents).toBe(1);

    await saveSettings();
    await client.post('/v1/sysintergration/directory/sync', { provider: 'dingtalk', mode: 'events' });
    await runJobs();
    expect((await userOf('u8'))!.name).toBe('员工八');
  });

  it('only the platform writes through the callback: a member cannot start an event sync', async () => {
    const member = await addMember(t, admin, { name: '普通成员丙' });
    expect((await orgClient(t.app, member).raw('POST', '/v1/sysintergration/directory/sync', { provider: 'dingtalk', mode: 'events' })).status).toBe(403);
  });
});
