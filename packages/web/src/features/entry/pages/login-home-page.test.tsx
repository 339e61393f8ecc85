import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoginHomePage } from './login-home-page.tsx';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderPage } from '../../../test/render.tsx';
import { readCookie } from '../../../lib/session.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { preloadWorkbenchPages } from '../../workbench/components/pc-workbench.tsx';

// The workbench's pages are loaded lazily; a first load of their modules here is slow (pc-workbench.tsx).
beforeAll(preloadWorkbenchPages);

const LOGIN_RESULT = { accessToken: 'jwt-token', expiresIn: 172800, engineCode: 'eng1234', authType: 1 };

function renderLogin(initialPath = '/entry/') {
  return renderPage('/entry/', <LoginHomePage />, initialPath);
}

async function fillPasswordForm(mobile: string, password: string) {
  const user = userEvent.setup();
  if (mobile) await user.type(screen.getByLabelText('手机号'), mobile);
  if (password) await user.type(screen.getByLabelText('密码'), password);
  await user.click(screen.getByRole('button', { name: '登录' }));
}

describe('login home', () => {
  it('offers both tabs and the other ways in', () => {
    stubFetch({});
    renderLogin();
    expect(screen.getByRole('tab', { name: '密码登录' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: '验证码登录' })).toBeTruthy();
    for (const name of ['忘记密码', '注册', '企业登录', '钉钉', '企业微信', '微信']) expect(screen.getByRole('link', { name })).toBeTruthy();
  });

  it('checks the fields before calling the server', async () => {
    const { calls } = stubFetch({});
    renderLogin();
    await fillPasswordForm('', '');
    expect(await screen.findByText('请输入手机号')).toBeTruthy();
    expect(screen.getByText('请输入密码')).toBeTruthy();

    await userEvent.setup().type(screen.getByLabelText('手机号'), '12345');
    expect(await screen.findByText('请输入正确的11位手机号')).toBeTruthy();
    expect(calls.filter((c) => c.url.includes('/v1/login'))).toHaveLength(0);
  });

  it('shows the server message of a wrong password (201201)', async () => {
    stubFetch({ 'POST /v1/login/mobile/password': () => fail(201201, '手机号或密码错误') });
    renderLogin();
    await fillPasswordForm('13800000000', 'wrongpass1');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('手机号或密码错误')).toBeTruthy();
    expect(readCookie('access-token')).toBeUndefined();
  });

  it('puts a 777 answer on the field it names', async () => {
    stubFetch({
      'POST /v1/login/mobile/password': () =>
        fail(777, '参数校验失败', { detail: { issues: [{ path: 'mobile', message: '该手机号格式服务器不认' }] } }),
    });
    renderLogin();
    await fillPasswordForm('13800000000', 'abc12345');
    expect(await screen.findByText('该手机号格式服务器不认')).toBeTruthy();
  });

  it('on success stores the token and engine cookies and opens the workbench', async () => {
    const { callsTo } = stubFetch({ 'POST /v1/login/mobile/password': () => ok(LOGIN_RESULT) });
    const { router } = renderLogin();
    await fillPasswordForm('13800000000', 'abc12345');
    expect(await screen.findByText('workbench-stub')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/workbench');
    expect(callsTo('POST', '/v1/login/mobile/password')[0].body).toEqual({ mobile: '13800000000', password: 'abc12345' });
    expect(readCookie('access-token')).toBe('jwt-token');
    expect(readCookie('engine')).toBe('eng1234');
  });

  it('a sign-in makes the app\'s query cache forget the last session, though the login home does not use it', async () => {
    stubFetch({ 'POST /v1/login/mobile/password': () => ok(LOGIN_RESULT) });
    // Cached by a page of the previous session (docs/decisions/0085).
    queryClient.setQueryData(['user', 'info'], { userName: '上一位' });
    renderLogin();
    await fillPasswordForm('13800000000', 'abc12345');
    expect(await screen.findByText('workbench-stub')).toBeTruthy();
    expect(queryClient.getQueryData(['user', 'info'])).toBeUndefined();
  });

  it('returns to a same-origin redirectUrl, and ignores one on another site', async () => {
    stubFetch({ 'POST /v1/login/mobile/password': () => ok(LOGIN_RESULT) });
    const first = renderLogin(`/entry/?redirectUrl=${encodeURIComponent('/workbench/app1?tab=2')}`);
    await fillPasswordForm('13800000000', 'abc12345');
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/workbench/app1'));
    expect(first.router.state.location.search).toBe('?tab=2');
    first.unmount();

    const second = renderLogin(`/entry/?RedirectUrl=${encodeURIComponent('https://evil.example/steal')}`);
    await fillPasswordForm('13800000000', 'abc12345');
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/workbench'));
  });

  it('signs in with a code: sends it, counts down, then logs in', async () => {
    const { callsTo } = stubFetch({
      'POST /v1/captcha/verifycode/send': () => ok({ expiresIn: 300, resendAfter: 60 }),
      'GET /v1/login/mobile/verifycode': () => ok(LOGIN_RESULT),
    });
    renderLogin();
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: '验证码登录' }));
    const panel = screen.getByRole('tabpanel');
    await user.type(within(panel).getByLabelText('手机号'), '13900000000');
    await user.click(within(panel).getByRole('button', { name: '获取验证码' }));
    const resend = await within(panel).findByRole('button', { name: /重新发送\(\d+s\)/ });
    expect((resend as HTMLButtonElement).disabled).toBe(true);
    expect(callsTo('POST', '/v1/captcha/verifycode/send')[0].body).toEqual({ mobile: '13900000000', scene: 'login' });

    await user.type(within(panel).getByLabelText('验证码'), '123456');
    await user.click(within(panel).getByRole('button', { name: '登录' }));
    expect(await screen.findByText('workbench-stub')).toBeTruthy();
    expect(callsTo('GET', '/v1/login/mobile/verifycode')[0].url).toBe('/v1/login/mobile/verifycode?mobile=13900000000&code=123456');
  });
});
