// test-databases: both — set-wise sync writes (jsonb_to_recordset updates, chunked inserts) under the organisation lock
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, uniqueMobile, type TestApp } from '../../../test/helpers.ts';
import { addMember, companyIdOf, orgClient, type Person } from '../../../test/org-helpers.ts';
import { fillDirectory, startFakeDingTalk, type FakeDingTalk } from '../../../test/dingtalk-fake.ts';
import { engineDb } from '../../db/database.ts';

// DingTalk through the provider interface against a local DingTalk server speaking its oapi protocol: free login by
// temporary auth code with the platform's errors answered from the catalogue, and directory sync as a job.

describe('DingTalk sign-in and directory sync', () => {
  let t: TestApp;
  let admin: Person;
  let ding: FakeDingTalk;
  let companyId: string;

  const saveSettings = (over: Record<string, unknown> = {}) =>
    orgClient(t.app, admin).post('/v1/sysintergration/chat/setting', { provider: 'dingtalk', enabled: true, baseUrl: ding.url, appKey: ding.appKey, appSecret: ding.appSecret, corpId: 'dingcorp01', agentId: '3001', ...over });
  const login = (kind: string, code: string, engineCode = admin.engineCode) => call(t.app, 'GET', `/v1/login/dingtalk/${kind}`, { query: { engineCode, code } });
  const edb = () => engineDb(t.database.db, admin.engineCode);

  beforeAll(async () => {
    t = await createTestApp({ config: { workerMode: 'off' } });
    admin = await registerPerson(t.app, { userName: '钉钉管理员' });
    companyId = await companyIdOf(t, admin.engineCode);
    ding = await startFakeDingTalk();
  });
  afterAll(async () => {
    await ding?.close();
    await t?.close();
  });

  it('answers 200901 until the engine configures DingTalk, and keeps the AppSecret write-only', async () => {
    expect((await login('corp', 'any')).body.errorCode).toBe(200901);
    const saved = await saveSettings();
    expect(saved).toMatchObject({ configured: true, enabled: true, baseUrl: ding.url, appKey: ding.appKey, hasAppSecret: true, corpId: 'dingcorp01', agentId: '3001' });
    expect(JSON.stringify(saved)).not.toContain(ding.appSecret);
    const row = await edb().selectFrom('sign_in_providers').selectAll().where('provider', '=', 'dingtalk').executeTakeFirstOrThrow();
    expect(`${row.secrets}${JSON.stringify(row.settings)}`).not.toContain(ding.appSecret);
    expect((await saveSettings({ appSecret: undefined })).hasAppSecret).toBe(true);
  });

  it('signs a member in by the auth code of corporate, app and OA free login, bound to the engine', async () => {
    const member = await addMember(t, admin, { name: '钉钉成员' });
    ding.users.push({ userid: 'ding-m1', unionid: 'un-m1', name: '钉钉成员', mobile: member.mobile, dept_id_list: [1], leader_in_dept: [], active: true });
    for (const kind of ['corp', 'app', 'oa']) {
      const res = await login(kind, ding.authCodeFor('ding-m1'));
      expect(res.body.successful, JSON.stringify(res.body)).toBe(true);
      expect(res.body.data.engineCode).toBe(admin.engineCode);
      expect((await call(t.app, 'GET', '/v1/user/info', { token: res.body.data.accessToken, engineCode: admin.engineCode })).status).toBe(200);
    }
    const bound = await edb().selectFrom('org_user_identities').selectAll().where('provider', '=', 'dingtalk').where('subject', '=', 'ding-m1').execute();
    expect(bound.map((b) => b.user_id)).toEqual([member.userId]);
  });

  it('answers the platform\'s refusals with the chat-platform codes', async () => {
    // A used or unknown auth code (DingTalk 40078): workplace free login failed.
    const used = await login('corp', 'no-such-code');
    expect(used.body.errorCode).toBe(200801);
    expect(used.body.detail?.platformCode).toBe(40078);
    // A person of the DingTalk organisation who is not a user of the engine.
    ding.users.push({ userid: 'ding-out', unionid: 'un-out', name: '外人', mobile: uniqueMobile(), dept_id_list: [1], leader_in_dept: [], active: true });
    expect((await login('app', ding.authCodeFor('ding-out'))).body.errorCode).toBe(200501);
    // Wrong AppSecret (DingTalk 40089): the app's information is wrong.
    await saveSettings({ appSecret: 'wrong-secret' });
    try {
      const wrong = await login('corp', 'x');
      expect(wrong.body.errorCode).toBe(207001);
      expect(wrong.body.detail?.platformCode).toBe(40089);
    } finally {
      await saveSettings();
    }
    // Nothing answering at the base URL.
    await saveSettings({ baseUrl: 'http://127.0.0.1:9' });
    try {
      expect((await login('corp', 'x')).body.errorCode).toBe(200902);
    } finally {
      await saveSettings();
    }
  });

  it('previews, then syncs departments, users and managers as a job; local-only users are kept, numbers are matched', async () => {
    fillDirectory(ding, 12, 40, '166');
    const localOnly = await addMember(t, admin, { name: '本地成员' });
    const typed = await orgClient(t.app, admin).post('/v1/org/user/create', { name: '已录入', mobile: ding.users[5]!.mobile, departmentIds: [companyId] });
    const client = orgClient(t.app, admin);
    const before = await edb().selectFrom('org_users').select('id').execute();

    const preview = await client.post('/v1/sysintergration/directory/preview', { provider: 'dingtalk' });
    expect(preview.departments).toMatchObject({ created: 12, updated: 0, bound: 0 });
    // The member who signed in by DingTalk earlier is bound to the platform and no longer in its directory: disabled.
    expect(preview.users).toMatchObject({ created: 39, bound: 1, disabled: 1, skipped: 0 });
    expect(preview.managers.updated).toBe(12);
    expect((await edb().selectFrom('org_users').select('id').execute()).length).toBe(before.length);

    const { jobId } = await client.post('/v1/sysintergration/directory/sync', { provider: 'dingtalk' });
    while (await t.app.extras.jobs.runOnce());
    const log = await client.get('/v1/sysintergration/directory/log', { provider: 'dingtalk' });
    expect(log.list[0]).toMatchObject({ jobId, state: 'Finished', result: { departments: { created: 12 }, users: { created: 39, bound: 1 } } });

    const units = await edb().selectFrom('org_unit_identities as i').innerJoin('org_units as u', 'u.id', 'i.unit_id').select(['i.subject', 'u.name', 'u.parent_id', 'u.manager_id']).where('i.provider', '=', 'dingtalk').execute();
    expect(units).toHaveLength(12);
    const d100 = units.find((u) => u.subject === '100')!;
    const d110 = units.find((u) => u.subject === '110')!;
    expect(d100).toMatchObject({ name: '部门001', parent_id: companyId });
    const unit100 = await edb().selectFrom('org_unit_identities').select('unit_id').where('subject', '=', '100').executeTakeFirstOrThrow();
    expect(d110.parent_id).toBe(unit100.unit_id);
    const u0 = await edb().selectFrom('org_user_identities as i').innerJoin('org_users as u', 'u.id', 'i.user_id').select(['u.id', 'u.name', 'u.employee_no', 'u.main_department_id']).where('i.subject', '=', 'u0').executeTakeFirstOrThrow();
    expect(u0).toMatchObject({ name: '员工0', employee_no: 'E0' });
    expect(d100.manager_id).toBe(u0.id);
    // The user typed before with the same number is the same person, not a second one.
    const u5 = await edb().selectFrom('org_user_identities').select('user_id').where('subject', '=', 'u5').executeTakeFirstOrThrow();
    expect(u5.user_id).toBe(typed.id);
    expect(await edb().selectFrom('org_users').select('state').where('id', '=', localOnly.userId).executeTakeFirstOrThrow()).toEqual({ state: 'active' });
    // A new number is an invitation its first sign-in claims.
    const invited = await t.database.db.selectFrom('platform.invitations').select('user_id').where('mobile', '=', ding.users[7]!.mobile!).execute();
    expect(invited).toHaveLength(1);
  });

  it('a second sync changes only what changed, and a third changes nothing', async () => {
    const client = orgClient(t.app, admin);
    ding.departments.find((d) => d.dept_id === 103)!.name = '销售三部';
    ding.users.find((u) => u.userid === 'u8')!.active = false;
    ding.users.find((u) => u.userid === 'u9')!.dept_id_list = [104];
    ding.users.push({ userid: 'u-new', unionid: 'un-new', name: '新入职', mobile: uniqueMobile(), dept_id_list: [105], leader_in_dept: [{ dept_id: 105, leader: false }], active: true });
    const before = await edb().selectFrom('org_users').select(['id', 'name']).execute();

    const preview = await client.post('/v1/sysintergration/directory/preview', { provider: 'dingtalk' });
    expect(preview.departments).toMatchObject({ created: 0, updated: 1, bound: 0, unchanged: 11 });
    expect(preview.users).toMatchObject({ created: 1, updated: 1, bound: 0, disabled: 1 });
    expect(preview.samples.updatedDepartments).toEqual(['销售三部']);
    expect(preview.samples.createdUsers).toEqual(['新入职']);

    await client.post('/v1/sysintergration/directory/sync', { provider: 'dingtalk' });
    while (await t.app.extras.jobs.runOnce());
    const after = await edb().selectFrom('org_users').select(['id', 'name', 'state']).execute();
    expect(after.length).toBe(before.length + 1);
    const u8 = await edb().selectFrom('org_user_identities as i').innerJoin('org_users as u', 'u.id', 'i.user_id').select('u.state').where('i.subject', '=', 'u8').executeTakeFirstOrThrow();
    expect(u8.state).toBe('disabled');

    const third = await client.post('/v1/sysintergration/directory/preview', { provider: 'dingtalk' });
    expect(third.departments).toMatchObject({ created: 0, updated: 0, bound: 0 });
    expect(third.users).toMatchObject({ created: 0, updated: 0, bound: 0, disabled: 0 });
    expect(third.managers.updated).toBe(0);
  });

  it('only the Administrator manages DingTalk and the sync', async () => {
    const member = await addMember(t, admin, { name: '普通成员乙' });
    const res = await orgClient(t.app, member).raw('POST', '/v1/sysintergration/directory/sync', { provider: 'dingtalk' });
    expect(res.status).toBe(403);
    const bad = await orgClient(t.app, admin).raw('POST', '/v1/sysintergration/chat/setting', { provider: 'qq', enabled: true, baseUrl: '', appKey: 'k', corpId: '', agentId: '' });
    expect(bad.body.errorCode).toBe(777);
  });
});
