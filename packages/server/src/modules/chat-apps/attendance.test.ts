// test-databases: both — each punch claimed once (insert … on conflict do nothing) in the run's transaction, a second run writing nothing
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestApp } from '../../../test/helpers.ts';
import type { OrgClient } from '../../../test/node-helpers.ts';
import { addInvitedMember, type Person } from '../../../test/org-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { startFakeDingTalk, type FakeDingTalk } from '../../../test/dingtalk-fake.ts';
import { startFakeWeCom, type FakeWeCom } from '../../../test/wecom-fake.ts';
import { engineDb } from '../../db/database.ts';
import type { Db } from '../../db/types.ts';
import { putPluginInstance } from '../plugin-instances/plugin-instances.ts';
import { dayStart } from './attendance-sources.ts';

// The automation attendance step (docs/decisions/0123 "Chat apps") against fake DingTalk and WeCom attendance APIs that
// check the app token and refuse what the real APIs refuse (more than 7 / 30 days, 50 / 100 people a call): the punches
// of a date range become one record each, the ranges and people split and the pages followed as the APIs require, and
// a second run over the same days writes nothing new.

describe('the attendance step', () => {
  let t: TestApp, a: OrgClient, admin: Person, appCode: string;
  let ding: FakeDingTalk, wecom: FakeWeCom;
  let target: string, trigger: string;
  const people: string[] = [];
  let firstMember: Awaited<ReturnType<typeof addInvitedMember>>;

  const edb = () => engineDb(t.database.db as Db, admin.engineCode);
  const drain = async () => {
    while (await t.app.extras.jobs.runOnce());
  };
  const install = (platform: 'dingtalk' | 'wxwork') => putPluginInstance(edb(), { templateCode: 'attendance', status: 'installed', settings: { platform } });
  const step = (settings: Record<string, unknown>) => ({ id: 'punch', type: 'attendance', settings });
  const settings = (over: Record<string, unknown> = {}) => ({
    targetSchemaCode: target,
    range: { type: 'fixed', from: '2026-11-01', to: '2026-11-10' },
    people: { type: 'all' },
    mappings: { user: 'Person', time: 'PunchTime', punchType: 'PunchType', result: 'Result', location: 'Place' },
    ...over,
  });
  const save = (automation: Record<string, unknown>, schemaCode = trigger) => a.raw('POST', '/v1/automatic/save', { schemaCode, automation });
  const lastRun = async (schemaCode: string) => ((await a.post('/v1/automatic/logs', { schemaCode })) as { runs: { state: string; error: string | null; steps: { ok: boolean; output: any; error: string | null }[] }[] }).runs[0]!;
  const written = async () => edb().selectFrom('attendance_punches').selectAll().where('schema_code', '=', target).execute();
  const runOnce = async (schemaCode = trigger) => {
    await a.post('/v1/form/action/execute', { schemaCode, actionCode: 'Submit', values: { Note: '同步' } });
    await drain();
    return lastRun(schemaCode);
  };

  beforeAll(async () => {
    ({ t, a, admin, appCode } = await adminWithApp());
    [ding, wecom] = await Promise.all([startFakeDingTalk(), startFakeWeCom()]);
    for (const name of ['张三', '李四', '王五']) {
      const member = await addInvitedMember(t, admin, { name });
      firstMember ??= member;
      people.push(member.userId);
    }
    target = (await createForm(a, appCode, { displayName: '打卡记录' })).code as string;
    await publish(a, target, definition([
      { type: 'user', code: 'Person' },
      { type: 'dateTime', code: 'PunchTime' },
      { type: 'textBox', code: 'PunchType' },
      { type: 'textBox', code: 'Result' },
      { type: 'textBox', code: 'Place' },
    ]));
    trigger = (await createForm(a, appCode, { displayName: '考勤同步' })).code as string;
    await publish(a, trigger, definition([{ type: 'textBox', code: 'Note' }]));
    const saveApp = (body: Record<string, unknown>) => a.post('/v1/sysintergration/chat/setting', { enabled: true, corpId: '', ...body });
    await saveApp({ provider: 'dingtalk', baseUrl: ding.url, appKey: ding.appKey, appSecret: ding.appSecret, agentId: ding.agentId });
    await saveApp({ provider: 'wxwork', baseUrl: wecom.url, appKey: wecom.corpId, appSecret: wecom.secret, agentId: wecom.agentId });
    // Many platform people (a large directory) over the engine's three users, so that the people lists are long.
    const rows = [];
    for (let i = 0; i < 120; i++) rows.push({ provider: 'dingtalk', subject: `d${i}`, user_id: people[i % 3]! }, { provider: 'wxwork', subject: `w${i}`, user_id: people[i % 3]! });
    await edb().insertInto('org_user_identities').values(rows).execute();
  });
  afterAll(async () => {
    await Promise.all([ding?.close(), wecom?.close()]);
    await t?.close();
  });

  it('is refused until the attendance plugin is installed, then checks its settings against the target form', async () => {
    const refused = await save({ name: '考勤', trigger: { type: 'effective' }, steps: [step(settings())] });
    expect(refused.body).toMatchObject({ successful: false, errorCode: 430001 });
    await install('dingtalk');
    for (const [bad, words] of [
      [settings({ mappings: { user: 'Person', time: 'PunchType' } }), '日期控件'],
      [settings({ mappings: { user: 'PunchType', time: 'PunchTime' } }), '人员单选'],
      [settings({ mappings: { user: 'Person', time: 'PunchTime', result: 'Nope' } }), 'Nope'],
      [settings({ range: { type: 'fixed', from: '2026-11-10', to: '2026-11-01' } }), '结束日期'],
      [settings({ range: { type: 'lastDays', days: 400 } }), 'range'],
      [settings({ people: { type: 'department', departmentId: 'no-such' } }), '部门'],
    ] as const) {
      const res = await save({ name: '考勤', trigger: { type: 'effective' }, steps: [step(bad)] });
      expect(res.body, JSON.stringify(bad)).toMatchObject({ successful: false, errorCode: 460004 });
      expect(res.body.errorMessage).toContain(words);
    }
    expect((await save({ name: '考勤', trigger: { type: 'effective' }, steps: [step(settings())] })).body.successful).toBe(true);
  });

  it('reads DingTalk punches in spans of 7 days, 50 people and pages of 50, once per punch', async () => {
    const at = (day: string, hour: number) => dayStart(day) + hour * 3600_000;
    let id = 1;
    for (let i = 0; i < 60; i++) {
      ding.punches.push({ id: id++, userId: `d${i}`, checkType: 'OnDuty', timeResult: i % 10 === 0 ? 'Late' : 'Normal', locationResult: 'Normal', userCheckTime: at('2026-11-02', 9), workDate: dayStart('2026-11-02') });
    }
    // Each of the first 60 also leaves: 100 punches for the first 50 people, two pages.
    for (let i = 0; i < 60; i++) ding.punches.push({ id: id++, userId: `d${i}`, checkType: 'OffDuty', timeResult: 'Normal', locationResult: 'Normal', userCheckTime: at('2026-11-02', 18), workDate: dayStart('2026-11-02') });
    for (let i = 100; i < 110; i++) ding.punches.push({ id: id++, userId: `d${i}`, checkType: 'OffDuty', timeResult: 'Early', locationResult: 'Outside', userCheckTime: at('2026-11-09', 17), workDate: dayStart('2026-11-09') });
    // Outside the range: never asked for.
    ding.punches.push({ id: id++, userId: 'd1', checkType: 'OnDuty', timeResult: 'Normal', locationResult: 'Normal', userCheckTime: at('2026-11-12', 9), workDate: dayStart('2026-11-12') });

    const run = await runOnce();
    expect(run.state, JSON.stringify(run)).toBe('Succeeded');
    expect(run.steps[0]!.output).toMatchObject({ platform: 'dingtalk', from: '2026-11-01', to: '2026-11-10', people: 120, punches: 130, created: 130, skipped: 0 });
    // Split as the API requires, and every page followed.
    for (const c of ding.attendanceCalls) {
      expect(Date.parse(c.workDateTo.replace(' ', 'T')) - Date.parse(c.workDateFrom.replace(' ', 'T'))).toBeLessThanOrEqual(7 * 86_400_000);
      expect(c.userIdList.length).toBeLessThanOrEqual(50);
    }
    expect(new Set(ding.attendanceCalls.map((c) => c.workDateFrom))).toEqual(new Set(['2026-11-01 00:00:00', '2026-11-08 00:00:00']));
    expect(ding.attendanceCalls.some((c) => c.offset === 50)).toBe(true);
    expect(ding.calls.get('/attendance/list')).toBe(ding.attendanceCalls.length);

    const rows = await written();
    expect(rows).toHaveLength(130);
    const late = rows.find((r) => r.punch_key === '1')!;
    const record = (await a.post('/v1/form/loaddata', { schemaCode: target, objectId: late.object_id })).values as Record<string, unknown>;
    expect(record).toMatchObject({ Person: people[0], PunchType: '上班', Result: '迟到', Place: '范围内' });
    expect(new Date(String(record.PunchTime)).getTime()).toBe(at('2026-11-02', 9));
    const early = (await a.post('/v1/form/loaddata', { schemaCode: target, objectId: rows.find((r) => r.punch_key === '121')!.object_id })).values;
    expect(early).toMatchObject({ PunchType: '下班', Result: '早退', Place: '范围外' });

    // The same days again: nothing new.
    const again = await runOnce();
    expect(again.steps[0]!.output).toMatchObject({ punches: 130, created: 0, skipped: 130 });
    expect(await written()).toHaveLength(130);
  });

  it('reads WeCom punches in spans of 30 days and 100 people, once per punch; a refused token fails the step', async () => {
    await install('wxwork');
    const sec = (day: string, hour: number, minute = 0) => Math.floor(dayStart(day) / 1000) + hour * 3600 + minute * 60;
    for (let i = 0; i < 110; i++) {
      wecom.checkins.push({ userid: `w${i}`, checkin_type: '上班打卡', exception_type: i < 5 ? '时间异常' : '', checkin_time: sec('2026-10-05', 9, i % 30), location_title: '总部大厦', location_detail: '杭州市西湖区' });
    }
    wecom.checkins.push({ userid: 'w7', checkin_type: '下班打卡', exception_type: '时间异常', checkin_time: sec('2026-11-09', 17), location_title: '总部大厦', location_detail: '' });
    wecom.checkins.push({ userid: 'w8', checkin_type: '下班打卡', exception_type: '未打卡', checkin_time: sec('2026-11-09', 18), location_title: '', location_detail: '' });
    // Its own trigger form: the DingTalk automation would read these days too, now from WeCom.
    const weekly = (await createForm(a, appCode, { displayName: '企业微信考勤同步' })).code as string;
    await publish(a, weekly, definition([{ type: 'textBox', code: 'Note' }]));
    await save({ name: '考勤', trigger: { type: 'effective' }, steps: [step(settings({ range: { type: 'fixed', from: '2026-10-01', to: '2026-11-10' } }))] }, weekly);

    const run = await runOnce(weekly);
    expect(run.state, JSON.stringify(run)).toBe('Succeeded');
    expect(run.steps[0]!.output, JSON.stringify(run.steps[0]!.output)).toMatchObject({ platform: 'wxwork', people: 120, punches: 112, created: 112 });
    for (const c of wecom.checkinCalls) {
      expect(c.endtime - c.starttime).toBeLessThan(30 * 86_400);
      expect(c.useridlist.length).toBeLessThanOrEqual(100);
    }
    // Two spans of days times two lists of people (a retried run asks the same again).
    expect(new Set(wecom.checkinCalls.map((c) => `${c.starttime}|${c.useridlist.length}`)).size).toBe(4);
    const rows = (await written()).filter((r) => r.platform === 'wxwork');
    expect(rows).toHaveLength(112);
    const values = async (key: string) => (await a.post('/v1/form/loaddata', { schemaCode: target, objectId: rows.find((r) => r.punch_key === key)!.object_id })).values as Record<string, unknown>;
    expect(await values(`w0:${sec('2026-10-05', 9, 0)}:上班打卡`)).toMatchObject({ PunchType: '上班', Result: '迟到', Place: '总部大厦 杭州市西湖区' });
    expect(await values(`w7:${sec('2026-11-09', 17)}:下班打卡`)).toMatchObject({ PunchType: '下班', Result: '早退' });
    expect(await values(`w8:${sec('2026-11-09', 18)}:下班打卡`)).toMatchObject({ Result: '缺卡' });
    expect((await runOnce(weekly)).steps[0]!.output).toMatchObject({ created: 0, skipped: 112 });

    // The app's secret changed on WeCom's side: the run fails with the platform's words, writes nothing.
    await a.post('/v1/sysintergration/chat/setting', { provider: 'wxwork', enabled: true, baseUrl: wecom.url, appKey: wecom.corpId, appSecret: 'wrong-secret', corpId: '', agentId: wecom.agentId });
    wecom.checkins.push({ userid: 'w9', checkin_type: '外出打卡', exception_type: '', checkin_time: sec('2026-11-10', 10), location_title: '客户现场', location_detail: '' });
    const failed = await runOnce(weekly);
    expect(failed.state).toBe('Failed');
    expect(JSON.stringify(failed)).toContain('企业微信');
    expect(JSON.stringify(failed)).not.toContain('wrong-secret');
    expect((await written()).filter((r) => r.platform === 'wxwork')).toHaveLength(112);
  });

  it('previews punches through /v2/plugin/invoke: everyone’s for an administrator, a member’s own only', async () => {
    await a.post('/v1/sysintergration/chat/setting', { provider: 'wxwork', enabled: true, baseUrl: wecom.url, appKey: wecom.corpId, appSecret: wecom.secret, corpId: '', agentId: wecom.agentId });
    const invoke = (who: { token: string; engineCode: string }) =>
      call(t.app, 'POST', '/v2/plugin/invoke', { token: who.token, engineCode: who.engineCode, body: { pluginCode: 'attendance', method: 'punches', params: { from: '2026-10-05', to: '2026-10-05' } } });
    const all = (await invoke(admin)).body.data.result as { platform: string; list: { userId: string; platformUserId: string }[] };
    expect(all.platform).toBe('wxwork');
    expect(all.list).toHaveLength(110);
    const own = (await invoke(firstMember)).body;
    expect(own.successful, JSON.stringify(own)).toBe(true);
    expect(own.data.result.list.length).toBeGreaterThan(0);
    expect(own.data.result.list.every((p: { userId: string }) => p.userId === firstMember.userId)).toBe(true);
    expect(own.data.result.list.length).toBeLessThan(110);
  });
});
