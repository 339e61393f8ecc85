import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from './browser.ts';
import { api, appWithForms, baseUrl, browser, engineWithAdmin, pageOf, publish, uniqueMobile, until, type Admin } from './fixtures.ts';
import { memberSession } from './session.ts';
import { startFakeDingTalk, type FakeDingTalk } from '../packages/server/test/dingtalk-fake.ts';

/**
 * Issue 44 (docs/decisions/0123 "Chat apps"), must show: a to-do reaches the right person at the (fake) DingTalk as a
 * personal work message whose link opens the record signed in. The organisation's DingTalk app is set up and its
 * directory synced (which binds the approver's DingTalk id); the administrator switches work notifications on at
 * 通知渠道 → 工作通知 and makes it the default for workflow messages; a record's approval creates the to-do, whose card
 * arrives at the fake DingTalk for that person only; the card's link is opened in a fresh browser context, as the
 * DingTalk client would (the fake answers its in-client sign-in page for the person signed in to the client), and the
 * record opens, signed in as the approver.
 */
let admin: Admin & { mobile: string };
let approver: Admin & { userId: string };
let adminPage: Page;
let ding: FakeDingTalk;
const approverMobile = uniqueMobile();

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '严清和', engineName: '云岫纺织有限公司' });
  ding = await startFakeDingTalk();
  approver = await memberSession(baseUrl(), admin, '白露', approverMobile);
  ding.users.push(
    { userid: 'yan.qinghe', unionid: 'union-yan', name: '严清和', mobile: admin.mobile, dept_id_list: [1], leader_in_dept: [{ dept_id: 1, leader: true }], active: true },
    { userid: 'bai.lu', unionid: 'union-bai', name: '白露', mobile: approverMobile, dept_id_list: [1], leader_in_dept: [], active: true },
  );
  await api(admin, 'POST', '/v1/sysintergration/chat/setting', { provider: 'dingtalk', enabled: true, baseUrl: ding.url, appKey: ding.appKey, appSecret: ding.appSecret, corpId: 'dingcorp01', agentId: ding.agentId });
  // The directory sync binds each person's DingTalk id (matched by mobile number).
  await api(admin, 'POST', '/v1/sysintergration/directory/sync', { provider: 'dingtalk' });
  await until(
    'the directory sync binds the approver',
    () => api<{ apps: { platform: string; people: number }[] }>(admin, 'GET', '/v1/notification/channel/chat-app'),
    (view) => (view.apps.find((a) => a.platform === 'dingtalk')?.people ?? 0) >= 2,
  );

  await appWithForms(admin, { code: 'purchase', displayName: '采购管理' }, []);
  await api(admin, 'POST', '/v1/functionnode', { nodeType: 210, code: 'po', appCode: 'purchase', displayName: '采购申请' });
  await publish(admin, 'po', {
    attributes: { displayName: '采购申请', nameSchema: '{Title}' },
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '采购事项', required: true } },
      { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 2 } },
    ],
  });
  await api(admin, 'POST', '/v1/functionnode/auth/set', { code: 'po', unitId: approver.userId, permission: 'access' });
  const template = {
    activities: [
      { type: 'Start', code: 'Start', name: '发起' },
      { type: 'Approve', code: 'Check', name: '部门审批', participants: { sources: [{ type: 'users', ids: [approver.userId] }] } },
      { type: 'End', code: 'End', name: '结束' },
    ],
    routes: [
      { from: 'Start', to: 'Check' },
      { from: 'Check', to: 'End' },
    ],
  };
  await api(admin, 'POST', '/v1/workflow/template/save', { schemaCode: 'po', template });
  await api(admin, 'POST', '/v1/workflow/template/publish', { schemaCode: 'po' });
  adminPage = await pageOf(admin, { width: 1366, height: 860 });
});
afterAll(() => ding?.close());

const messagesGone = (p: Page) => expect.poll(() => p.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0);

describe('work notifications in DingTalk', () => {
  it('the administrator switches them on and makes them the default for workflow messages', async () => {
    await adminPage.goto('/admin/notification-channels');
    await adminPage.getByRole('tab', { name: '工作通知' }).click();
    const dingRow = adminPage.getByRole('row').filter({ hasText: '钉钉' });
    await expect.poll(() => dingRow.getByText('可发送').count()).toBe(1);
    await expect.poll(() => adminPage.getByRole('row').filter({ hasText: '企业微信' }).getByText('应用未配置').count()).toBe(1);
    await adminPage.getByRole('switch', { name: '启用工作通知' }).click();
    await dingRow.getByRole('checkbox', { name: '钉钉' }).check();
    await adminPage.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => adminPage.getByText('已保存').count()).toBeGreaterThan(0);
    await messagesGone(adminPage);
    await screenshot(adminPage, 'chat-apps-1-settings');
    expect(await api(admin, 'GET', '/v1/notification/channel/chat-app')).toMatchObject({ enabled: true, platforms: ['dingtalk'] });

    await adminPage.getByRole('tab', { name: '默认通知' }).click();
    await adminPage.getByRole('checkbox', { name: '流程 工作通知' }).check();
    await adminPage.getByRole('button', { name: /保\s*存/ }).last().click();
    await expect.poll(async () => (await api<{ defaults: { category: string; channels: string[] }[] }>(admin, 'GET', '/v1/notification/preference')).defaults.find((d) => d.category === 'workflow')?.channels).toEqual(['chatApp']);
    await messagesGone(adminPage);
    await screenshot(adminPage, 'chat-apps-2-defaults');
  });

  it('the approver’s to-do arrives as a DingTalk card whose link opens the record, signed in as them', async () => {
    const record = await api<{ objectId: string }>(admin, 'POST', '/v1/form/action/execute', { schemaCode: 'po', actionCode: 'Save', values: { Title: '缝纫机配件', Amount: 12800 } });
    await api(admin, 'POST', '/v1/workflow/instance/start', { schemaCode: 'po', objectId: record.objectId, submit: true });
    const cards = await until('the card reaches DingTalk', async () => ding.messages.get('bai.lu') ?? [], (list) => list.length > 0);
    expect(cards[0]).toMatchObject({ title: '待办：缝纫机配件' });
    // Only the approver got it.
    expect([...ding.messages.keys()]).toEqual(['bai.lu']);
    const link = new URL(cards[0]!.url).searchParams.get('url')!;
    expect(link.startsWith(`${baseUrl()}/v1/chat-apps/open/dingtalk/`)).toBe(true);

    // The DingTalk client opens the link in its own browser, its person signed in to the client.
    ding.clientUser = 'bai.lu';
    const page = await newPage(await browser(), baseUrl(), { width: 414, height: 860 });
    await page.goto(link);
    await expect.poll(() => page.url(), { timeout: 30_000 }).toContain(`/form/open/po/${record.objectId}`);
    await page.getByText('缝纫机配件').first().waitFor();
    // The session the browser now holds is the approver's.
    const me = await page.evaluate(async () => {
      const cookie = (name: string) => decodeURIComponent(document.cookie.split('; ').find((c) => c.startsWith(`${name}=`))?.slice(name.length + 1) ?? '');
      const res = await fetch('/v1/user/info', { headers: { authorization: `Bearer ${cookie('access-token')}`, enginecode: cookie('engine') } });
      return ((await res.json()) as { data?: { user?: { userId?: string } } }).data?.user?.userId;
    });
    expect(me).toBe(approver.userId);
    await screenshot(page, 'chat-apps-3-record-opened');
    const log = await api<{ list: { channel: string; state: string; receiverName: string; title: string }[] }>(admin, 'POST', '/v1/notification/delivery/list', {});
    expect(log.list.find((d) => d.title === '待办：缝纫机配件' && d.channel === 'chatApp')).toMatchObject({ state: 'Succeeded', receiverName: '白露' });
  });
});
