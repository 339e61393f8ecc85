import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderRoutes } from '../../../test/render.tsx';
import { findDialog } from '../../../test/find-dialog.ts';
import { setEngineCode, setToken } from '../../../lib/session.ts';
import { AdminFrame } from '../admin-frame.tsx';
import { userInfo } from '../test/org-fixtures.ts';
import { NotificationChannelsPage } from './notification-channels-page.tsx';

// The channel settings page against a fake server that keeps its settings in memory and, like the real one,
// answers secrets only as has… flags.

const robot = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id, name, platform: 'dingtalk', enabled: true, webhookUrlMasked: 'https://oapi.dingtalk.com/…x9Qz', hasSecret: true, createdTime: '2026-11-20T02:00:00.000Z', ...extra,
});

function fakeServer(options: { testFails?: boolean } = {}) {
  const state = {
    email: { configured: true, enabled: true, host: 'smtp.example.com', port: 465, secure: true, user: 'mailer', fromAddress: 'noreply@example.com', fromName: '氚星', hasPassword: true },
    sms: { configured: false, enabled: false, url: '', template: '', hasToken: false },
    robots: [robot('r1', '审批通知群')],
  };
  const stub = stubFetch({
    'GET /v1/user/info': () => ok(userInfo(true)),
    'GET /v1/engine/connected': () => ok({ list: [userInfo(true).currentEngine], total: 1, hasMore: false }),
    'GET /v1/notification/channel/list': () => ok(state),
    'POST /v1/notification/channel/email/save': (call) => {
      const { password, ...rest } = call.body as Record<string, unknown>;
      Object.assign(state.email, rest, { configured: true, hasPassword: state.email.hasPassword || !!password });
      return ok(state);
    },
    'POST /v1/notification/channel/test': () => ok(options.testFails ? { sent: false, detail: '535 Invalid username or password' } : { sent: true, detail: '250 OK: message queued' }),
    'GET /v1/notification/channel/chat-app': () =>
      ok({
        enabled: true,
        platforms: ['dingtalk'],
        apps: [
          { platform: 'dingtalk', configured: true, enabled: true, hasAgentId: true, people: 3 },
          { platform: 'wxwork', configured: false, enabled: false, hasAgentId: false, people: 0 },
          { platform: 'feishu', configured: true, enabled: true, hasAgentId: true, people: 0 },
        ],
      }),
    'POST /v1/notification/channel/chat-app/test': (call) =>
      (call.body as { platform: string }).platform === 'feishu'
        ? fail(460006, '你没有绑定飞书账号（通过飞书登录或通讯录同步后即可绑定），无法收到测试消息')
        : ok({ sent: true, detail: '钉钉 task_id 42' }),
    'POST /v1/notification/channel/robot/add': (call) => {
      const body = call.body as { name: string; platform: string; secret?: string };
      const added = robot(`r${state.robots.length + 1}`, body.name, { platform: body.platform, hasSecret: !!body.secret, webhookUrlMasked: 'https://qyapi.weixin.qq.com/…k3Lm' });
      state.robots.push(added);
      return ok(added);
    },
    'POST /v1/notification/channel/robot/update': (call) => {
      const body = call.body as { id: string; name: string };
      const found = state.robots.find((r) => r.id === body.id)!;
      Object.assign(found, { name: body.name });
      return ok(found);
    },
    'POST /v1/notification/channel/robot/remove': (call) => {
      const id = (call.body as { id: string }).id;
      state.robots = state.robots.filter((r) => r.id !== id);
      return ok({ id });
    },
  });
  return { ...stub, state };
}

function renderPage() {
  setToken('t1');
  setEngineCode('alpha01');
  return renderRoutes(
    [
      { path: '/admin', element: <AdminFrame />, children: [{ path: 'notification-channels', element: <NotificationChannelsPage /> }] },
      { path: '*', element: <div>elsewhere-stub</div> },
    ],
    '/admin/notification-channels',
  );
}

describe('notification channels page', () => {
  it('shows the SMTP settings with the password only as 已设置, and a save left empty keeps it', async () => {
    const { callsTo } = fakeServer();
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByDisplayValue('smtp.example.com', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: /通知渠道/ })).toBeTruthy();
    const password = screen.getByLabelText('登录密码') as HTMLInputElement;
    expect(password.value).toBe('');
    expect(password.placeholder).toBe('已设置');

    await user.clear(screen.getByLabelText('发件人名称'));
    await user.type(screen.getByLabelText('发件人名称'), '氚星通知');
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/notification/channel/email/save')).toHaveLength(1));
    const saved = callsTo('POST', '/v1/notification/channel/email/save')[0].body as Record<string, unknown>;
    expect(saved).toMatchObject({ host: 'smtp.example.com', port: 465, secure: true, fromName: '氚星通知', enabled: true });
    expect(saved).not.toHaveProperty('password');

    await user.type(screen.getByLabelText('登录密码'), 'new-pass');
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/notification/channel/email/save')).toHaveLength(2));
    expect(callsTo('POST', '/v1/notification/channel/email/save')[1].body).toMatchObject({ password: 'new-pass' });
  });

  it('sends a test message and shows the result or the reason it failed', async () => {
    const { callsTo } = fakeServer({ testFails: true });
    const user = userEvent.setup();
    renderPage();
    await screen.findByDisplayValue('smtp.example.com', undefined, { timeout: 5000 });
    await user.type(screen.getByLabelText('测试收件邮箱（留空发给自己）'), 'me@example.com');
    await user.click(screen.getByRole('button', { name: /发送测试/ }));
    const result = await screen.findByRole('status');
    expect(within(result).getByText('发送失败')).toBeTruthy();
    expect(within(result).getByText('535 Invalid username or password')).toBeTruthy();
    expect(callsTo('POST', '/v1/notification/channel/test')[0].body).toEqual({ kind: 'email', to: 'me@example.com' });
  });

  it('sends a test work message through the platform chosen on the 工作通知 tab, and shows a refusal', async () => {
    const { callsTo } = fakeServer();
    const user = userEvent.setup();
    renderPage();
    await screen.findByDisplayValue('smtp.example.com', undefined, { timeout: 5000 });
    await user.click(screen.getByRole('tab', { name: '工作通知' }));
    const platform = await screen.findByLabelText('选择平台');
    const testButton = () => screen.getAllByRole('button', { name: /发送测试/ }).at(-1)!;
    // Nothing to send through until a platform is chosen; only apps able to send are offered.
    expect((testButton() as HTMLButtonElement).disabled).toBe(true);
    await user.click(platform);
    expect(screen.queryByTitle('企业微信')).toBeNull();
    await user.click(await screen.findByTitle('钉钉'));
    await user.click(testButton());
    const result = await screen.findByRole('status');
    expect(within(result).getByText('测试消息已发出')).toBeTruthy();
    expect(within(result).getByText('钉钉 task_id 42')).toBeTruthy();
    expect(callsTo('POST', '/v1/notification/channel/chat-app/test')[0].body).toEqual({ platform: 'dingtalk' });

    await user.click(platform);
    await user.click(await screen.findByTitle('飞书'));
    await user.click(testButton());
    expect(await screen.findByText(/你没有绑定飞书账号/)).toBeTruthy();
  });

  it('adds, renames and removes robots; the webhook address and secret are never shown', async () => {
    const { callsTo } = fakeServer();
    const user = userEvent.setup();
    renderPage();
    await screen.findByDisplayValue('smtp.example.com', undefined, { timeout: 5000 });
    await user.click(screen.getByRole('tab', { name: '群机器人' }));
    const table = await screen.findByRole('table', { name: '机器人列表' });
    expect(within(table).getByText('审批通知群')).toBeTruthy();
    expect(within(table).getByText('https://oapi.dingtalk.com/…x9Qz')).toBeTruthy();
    expect(within(table).getByText('已设置')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /添加机器人/ }));
    const adding = await findDialog('添加机器人');
    await user.type(within(adding).getByLabelText('名称'), '研发群');
    await user.click(within(adding).getByLabelText('平台'));
    await user.click(await screen.findByTitle('企业微信'));
    await user.type(within(adding).getByLabelText('Webhook 地址'), 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=abc');
    expect(within(adding).queryByLabelText('签名密钥')).toBeNull();
    await user.click(within(adding).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/notification/channel/robot/add')).toHaveLength(1));
    expect(callsTo('POST', '/v1/notification/channel/robot/add')[0].body).toEqual({ name: '研发群', platform: 'wecom', enabled: true, webhookUrl: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=abc' });
    expect(await within(screen.getByRole('table', { name: '机器人列表' })).findByText('研发群')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: '编辑 审批通知群' }));
    const editing = await findDialog('编辑机器人');
    expect((within(editing).getByLabelText('Webhook 地址') as HTMLTextAreaElement).value).toBe('');
    await user.clear(within(editing).getByLabelText('名称'));
    await user.type(within(editing).getByLabelText('名称'), '审批群');
    await user.click(within(editing).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/notification/channel/robot/update')).toHaveLength(1));
    const update = callsTo('POST', '/v1/notification/channel/robot/update')[0].body as Record<string, unknown>;
    expect(update).toMatchObject({ id: 'r1', name: '审批群', platform: 'dingtalk', enabled: true });
    expect(update.webhookUrl).toBeUndefined();
    expect(update.secret).toBeUndefined();

    await user.click(await screen.findByRole('button', { name: '删除 审批群' }));
    const confirm = await screen.findByRole('tooltip');
    await user.click(within(confirm).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/notification/channel/robot/remove')[0]?.body).toEqual({ id: 'r1' }));
    await waitFor(() => expect(screen.queryByText('审批群')).toBeNull());
  });
});
