import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addMember, createApp, nodeClient, type OrgClient } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { startFakeDingTalk, type FakeDingTalk } from '../../../test/dingtalk-fake.ts';
import { startFakeWeCom, type FakeWeCom } from '../../../test/wecom-fake.ts';
import { startFakeFeishu, type FakeFeishu } from '../../../test/feishu-fake.ts';
import { engineDb } from '../../db/database.ts';

// Work notifications in the chat apps (docs/decisions/0123 "Chat apps") against fake DingTalk, WeCom and Feishu servers
// that check the app token on every call: a workflow to-do reaches each approver as a personal card on the platform
// they are bound to, whose link signs them in inside the client and lands on the record; a person with no platform id
// falls back, a refused token and a busy platform land in the delivery log.

type Member = Awaited<ReturnType<typeof addMember>>;

let t: TestApp;
let a: OrgClient;
let admin: Awaited<ReturnType<typeof registerPerson>>;
let ding: FakeDingTalk, wecom: FakeWeCom, feishu: FakeFeishu;
let formCode: string;
let dMember: Member, wMember: Member, fMember: Member, plain: Member;

const edb = () => engineDb(t.database.db, admin.engineCode);
const runJobs = async () => {
  while (await t.app.extras.jobs.runOnce());
};
const deliveries = async () => (await a.post('/v1/notification/delivery/list', { pageSize: 50 })).list as { channel: string; state: string; attempts: number; detail: string; receiverName: string; title: string }[];

async function submitRecord(Title: string, approvers: string[]) {
  const objectId = (await a.post('/v1/form/action/execute', { schemaCode: formCode, actionCode: 'Save', values: { Title, Approvers: approvers } })).objectId as string;
  await a.post('/v1/workflow/instance/start', { schemaCode: formCode, objectId, submit: true });
  return objectId;
}

async function bind(provider: string, subject: string, userId: string) {
  await edb().insertInto('org_user_identities').values({ provider, subject, user_id: userId }).execute();
}

/** What the chat client does with the card's link: open it, follow the platform's in-client sign-in, complete it. */
async function followLink(cardUrl: string, platform: 'dingtalk' | 'wxwork' | 'feishu') {
  const link = new URL(cardUrl.startsWith('dingtalk://') ? new URL(cardUrl).searchParams.get('url')! : cardUrl);
  const opened = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
  expect(opened.statusCode, opened.body).toBe(302);
  const authorize = await fetch(String(opened.headers.location), { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const back = new URL(authorize.headers.get('location')!);
  expect(back.pathname).toBe(`/entry/login/${platform}`);
  // The page of that platform hands the code and state over once (chat-scan-page.tsx).
  const query = Object.fromEntries(back.searchParams);
  return call(t.app, 'GET', `/v1/login/${platform}/scan`, { query });
}

beforeAll(async () => {
  t = await createTestApp({ deliveries: { backoffMs: () => 0, publicUrl: 'https://tritium.example/' } });
  [ding, wecom, feishu] = await Promise.all([startFakeDingTalk(), startFakeWeCom(), startFakeFeishu()]);
  admin = await registerPerson(t.app, { userName: '管理员' });
  a = nodeClient(t.app, admin);
  dMember = await addMember(t, admin, { name: '钉钉审批人' });
  wMember = await addMember(t, admin, { name: '企微审批人' });
  fMember = await addMember(t, admin, { name: '飞书审批人' });
  plain = await addMember(t, admin, { name: '无账号审批人' });
  ding.users.push({ userid: 'ding-1', unionid: 'union-ding-1', name: '钉钉审批人', mobile: dMember.mobile, dept_id_list: [1], leader_in_dept: [], active: true });
  wecom.users.push({ userid: 'wx-1', name: '企微审批人', mobile: wMember.mobile, department: [1], main_department: 1, is_leader_in_dept: [0], status: 1 });
  feishu.users.push({ user_id: 'fs-1', open_id: 'ou_fs1', union_id: 'on_fs1', name: '飞书审批人', mobile: fMember.mobile, department_ids: ['0'], status: { is_activated: true, is_frozen: false, is_resigned: false } });
  // As the directory sync (or a first sign-in) binds them.
  await bind('dingtalk', 'ding-1', dMember.userId);
  await bind('wxwork', 'wx-1', wMember.userId);
  await bind('feishu', 'fs-1', fMember.userId);
  const appCode = (await createApp(a)).code;
  formCode = (await createForm(a, appCode, { displayName: '采购申请' }, FunctionNodeType.WorkflowModule)).code;
  await publish(a, formCode, definition([{ type: 'textBox', code: 'Title' }, { type: 'multiUser', code: 'Approvers' }], { displayName: '采购申请', nameSchema: '{Title}' }));
  const S = { type: 'Start', code: 'Start', name: '发起' };
  const A = { type: 'Approve', code: 'A', name: '审批', participants: { sources: [{ type: 'field', code: 'Approvers' }] } };
  const E = { type: 'End', code: 'End', name: '结束' };
  await a.post('/v1/workflow/template/save', { schemaCode: formCode, template: { activities: [S, A, E], routes: [{ from: 'Start', to: 'A' }, { from: 'A', to: 'End' }] } });
  await a.post('/v1/workflow/template/publish', { schemaCode: formCode });
});
afterAll(async () => {
  await Promise.all([ding?.close(), wecom?.close(), feishu?.close()]);
  await t?.close();
});

describe('the chat-app channel', () => {
  it('refuses to switch on without a usable app, and tells the administrator what each platform lacks', async () => {
    const refused = await a.raw('POST', '/v1/notification/channel/chat-app/save', { enabled: true, platforms: ['dingtalk'] });
    expect(refused.body).toMatchObject({ successful: false, errorCode: 460001 });
    expect(refused.body.errorMessage).toContain('钉钉');
    expect((await a.raw('POST', '/v1/notification/channel/chat-app/save', { enabled: true, platforms: [] })).body).toMatchObject({ successful: false, errorCode: 460002 });
    expect((await a.raw('POST', '/v1/notification/channel/chat-app/save', { enabled: true, platforms: ['dingtalk', 'dingtalk'] })).body.successful).toBe(false);
    // A member may not read or change it.
    expect((await nodeClient(t.app, plain).raw('GET', '/v1/notification/channel/chat-app')).body).toMatchObject({ successful: false, errorCode: 100403 });
    expect((await a.get('/v1/notification/channel/chat-app')).enabled).toBe(false);

    const save = (body: Record<string, unknown>) => a.post('/v1/sysintergration/chat/setting', { enabled: true, corpId: '', ...body });
    await save({ provider: 'dingtalk', baseUrl: ding.url, appKey: ding.appKey, appSecret: ding.appSecret, corpId: 'dingcorp', agentId: ding.agentId });
    await save({ provider: 'wxwork', baseUrl: wecom.url, appKey: wecom.corpId, appSecret: wecom.secret, agentId: wecom.agentId });
    await save({ provider: 'feishu', baseUrl: feishu.url, appKey: feishu.appId, appSecret: feishu.appSecret, agentId: '' });
    const view = await a.post('/v1/notification/channel/chat-app/save', { enabled: true, platforms: ['dingtalk', 'wxwork', 'feishu'] });
    expect(view).toMatchObject({ enabled: true, platforms: ['dingtalk', 'wxwork', 'feishu'] });
    expect(view.apps).toContainEqual({ platform: 'dingtalk', configured: true, enabled: true, hasAgentId: true, people: 1 });
    expect(JSON.stringify(view)).not.toContain(ding.appSecret);
  });

  it('sends each approver the to-do as a personal card on their platform, whose link signs them in onto the record', async () => {
    await a.post('/v1/notification/preference/save', { engineDefaults: true, preferences: [{ category: 'workflow', channels: ['chatApp'] }] });
    await nodeClient(t.app, plain).post('/v1/notification/preference/save', { preferences: [{ category: 'workflow', channels: ['chatApp', 'sms'] }] });
    const objectId = await submitRecord('笔记本电脑', [dMember.userId, wMember.userId, fMember.userId, plain.userId]);
    await runJobs();

    const [dCard] = ding.messages.get('ding-1') ?? [];
    const [wCard] = wecom.messages.get('wx-1') ?? [];
    const [fCard] = feishu.messages.get('fs-1') ?? [];
    for (const card of [dCard, wCard, fCard]) expect(card?.title).toBe('待办：笔记本电脑');
    // Only the right person got each one.
    expect([...ding.messages.keys()]).toEqual(['ding-1']);
    expect([...wecom.messages.keys()]).toEqual(['wx-1']);
    expect([...feishu.messages.keys()]).toEqual(['fs-1']);
    expect(dCard!.body).toMatchObject({ agent_id: Number(ding.agentId), userid_list: 'ding-1', msg: { msgtype: 'action_card', action_card: { single_title: '查看详情' } } });
    expect(dCard!.url).toMatch(/^dingtalk:\/\/dingtalkclient\/page\/link\?url=/);
    expect(wCard!.body).toMatchObject({ touser: 'wx-1', msgtype: 'textcard', agentid: Number(wecom.agentId), textcard: { btntxt: '查看详情' } });
    const recordPath = `/form/open/${formCode}/${objectId}`;
    for (const [card, platform] of [[dCard!, 'dingtalk'], [wCard!, 'wxwork'], [fCard!, 'feishu']] as const) {
      const inner = new URL(card.url.startsWith('dingtalk://') ? new URL(card.url).searchParams.get('url')! : card.url);
      expect(inner.origin).toBe('https://tritium.example');
      expect(inner.pathname).toBe(`/v1/chat-apps/open/${platform}/${admin.engineCode}`);
      expect(inner.searchParams.get('to')).toBe(recordPath);
    }

    // Tapped inside each client (the fakes answer their OAuth2 page at once for the person signed in there).
    ding.clientUser = 'ding-1';
    wecom.clientUser = 'wx-1';
    feishu.clientUser = 'fs-1';
    for (const [card, platform, member] of [[dCard!, 'dingtalk', dMember], [wCard!, 'wxwork', wMember], [fCard!, 'feishu', fMember]] as const) {
      const signedIn = await followLink(card.url, platform);
      expect(signedIn.body.successful, JSON.stringify(signedIn.body)).toBe(true);
      expect(signedIn.body.data).toMatchObject({ engineCode: admin.engineCode, returnTo: recordPath });
      const session = { token: signedIn.body.data.accessToken as string, engineCode: admin.engineCode };
      const me = await call(t.app, 'GET', '/v1/user/info', session);
      expect(me.body.data.user.userId).toBe(member.userId);
      const record = await call(t.app, 'POST', '/v1/form/loaddata', { ...session, body: { schemaCode: formCode, objectId } });
      expect(record.body.successful, JSON.stringify(record.body)).toBe(true);
      expect(record.body.data.values?.Title ?? record.body.data.bizObject?.Title).toBe('笔记本电脑');
    }

    // The person without any platform account falls back, and the log says why.
    const log = await deliveries();
    const own = log.filter((d) => d.title === '待办：笔记本电脑' && d.channel === 'chatApp');
    expect(own.filter((d) => d.state === 'Succeeded').map((d) => d.receiverName).sort()).toEqual(['企微审批人', '钉钉审批人', '飞书审批人'].sort());
    const fallback = own.find((d) => d.receiverName === '无账号审批人')!;
    expect(fallback).toMatchObject({ state: 'Failed', attempts: 1 });
    expect(fallback.detail).toContain('没有钉钉、企业微信、飞书账号');
    expect(fallback.detail).toContain('已改由短信和站内消息送达');
    expect(log.some((d) => d.receiverName === '无账号审批人' && d.channel === 'sms' && d.title === '待办：笔记本电脑')).toBe(true);
  });

  it('keeps the link on this site: another address, a host or an entry page is refused', async () => {
    for (const to of ['https://evil.example/x', '//evil.example/x', '/\\evil.example', '/entry/login', 'javascript:alert(1)']) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/chat-apps/open/dingtalk/${admin.engineCode}?to=${encodeURIComponent(to)}` });
      expect(res.statusCode, to).toBeLessThan(500);
      expect(res.headers.location, to).toBeUndefined();
      expect(JSON.parse(res.body)).toMatchObject({ successful: false, errorCode: 460003 });
    }
    // A state from the link is good once, for its platform only.
    const opened = await t.app.inject({ method: 'GET', url: `/v1/chat-apps/open/dingtalk/${admin.engineCode}?to=${encodeURIComponent('/workbench')}` });
    const state = new URL(String(opened.headers.location)).searchParams.get('state')!;
    expect((await call(t.app, 'GET', '/v1/login/feishu/scan', { query: { code: feishu.codeFor('fs-1'), state } })).body.successful).toBe(false);
  });

  it('retries a busy platform, and puts a refused token in the delivery log without retrying', async () => {
    ding.failMessages = [-1];
    await submitRecord('显示器', [dMember.userId]);
    await runJobs();
    const busy = (await deliveries()).find((d) => d.title === '待办：显示器' && d.channel === 'chatApp')!;
    expect(busy).toMatchObject({ state: 'Succeeded', attempts: 2 });
    expect(ding.messages.get('ding-1')!.at(-1)!.title).toBe('待办：显示器');

    // The app's secret no longer holds (changed in WeCom's console): WeCom refuses the token request.
    await a.post('/v1/sysintergration/chat/setting', { provider: 'wxwork', enabled: true, baseUrl: wecom.url, appKey: wecom.corpId, appSecret: 'not-the-secret', corpId: '', agentId: wecom.agentId });
    const before = wecom.messages.get('wx-1')!.length;
    await submitRecord('打印机', [wMember.userId]);
    await runJobs();
    const refused = (await deliveries()).find((d) => d.title === '待办：打印机' && d.channel === 'chatApp')!;
    expect(refused).toMatchObject({ state: 'Failed', attempts: 1 });
    expect(refused.detail).toContain('企业微信拒绝了应用凭证');
    expect(refused.detail).not.toContain('not-the-secret');
    expect(wecom.messages.get('wx-1')!.length).toBe(before);
  });
  it('sends the administrator a test work message through the platform chosen, and says why when it cannot', async () => {
    const test = (platform: string) => a.raw('POST', '/v1/notification/channel/chat-app/test', { platform });
    // No account of the administrator's on that platform: nobody to send it to.
    const unbound = await test('feishu');
    expect(unbound.body).toMatchObject({ successful: false, errorCode: 460006 });
    expect(unbound.body.errorMessage).toContain('飞书');
    const adminId = (await a.get('/v1/user/info')).user.userId as string;
    await bind('dingtalk', 'ding-admin', adminId);
    const before = ding.messages.get('ding-admin')?.length ?? 0;
    const sent = await a.post('/v1/notification/channel/chat-app/test', { platform: 'dingtalk' });
    expect(sent).toMatchObject({ sent: true });
    expect(sent.detail).toContain('钉钉 task_id');
    const card = ding.messages.get('ding-admin')!.at(-1)!;
    expect(ding.messages.get('ding-admin')!.length).toBe(before + 1);
    expect(card.title).toBe('Tritium 工作通知测试');
    const inner = new URL(new URL(card.url).searchParams.get('url')!);
    expect(inner.pathname).toBe(`/v1/chat-apps/open/dingtalk/${admin.engineCode}`);
    expect(inner.searchParams.get('to')).toBe('/admin/notification-channels');
    // A refusal by the platform is the answer, not an error: WeCom refuses the secret changed above.
    await bind('wxwork', 'wx-admin', adminId);
    const refused = await a.post('/v1/notification/channel/chat-app/test', { platform: 'wxwork' });
    expect(refused.sent).toBe(false);
    expect(refused.detail).toContain('企业微信拒绝了应用凭证');
    // An app switched off cannot send; members may not test; bad input is refused in the user's words.
    await a.post('/v1/sysintergration/chat/setting', { provider: 'feishu', enabled: false, baseUrl: feishu.url, appKey: feishu.appId, appSecret: feishu.appSecret, corpId: '', agentId: '' });
    await bind('feishu', 'fs-admin', adminId);
    expect((await test('feishu')).body).toMatchObject({ successful: false, errorCode: 460001 });
    expect((await test('fax')).body).toMatchObject({ successful: false, errorCode: 777 });
    expect((await nodeClient(t.app, plain).raw('POST', '/v1/notification/channel/chat-app/test', { platform: 'dingtalk' })).body).toMatchObject({ successful: false, errorCode: 100403 });
  });
});
