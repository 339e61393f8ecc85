import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { routes } from './routes.tsx';
import { renderRoutes } from '../test/render.tsx';
import { fail, ok, stubFetch } from '../test/fetch-stub.ts';
import { readCookie, setEngineCode, setToken } from '../lib/session.ts';

describe('routes', () => {
  it('/ opens the login home, titled in Chinese', async () => {
    stubFetch({});
    const { router } = renderRoutes(routes, '/');
    expect(await screen.findByText('欢迎使用 Tritium')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/entry/');
    await waitFor(() => expect(document.title).toBe('登录 - Tritium'));
    expect(screen.getByRole('radio', { name: 'English' })).toBeTruthy();
  });

  it('/entry/login keeps its query on the way to the login home', async () => {
    stubFetch({});
    const { router } = renderRoutes(routes, '/entry/login?redirectUrl=%2Fworkbench%2Fa');
    await screen.findByText('欢迎使用 Tritium');
    expect(router.state.location.pathname).toBe('/entry/');
    expect(router.state.location.search).toBe('?redirectUrl=%2Fworkbench%2Fa');
  });

  it('the workbench sends a visitor without a token to sign in first', async () => {
    stubFetch({});
    const { router } = renderRoutes(routes, '/workbench?x=1');
    // The workbench chunk loads alongside the guard; give the first compile of it time.
    await screen.findByText('欢迎使用 Tritium', {}, { timeout: 30_000 });
    expect(router.state.location.pathname).toBe('/entry/');
    expect(new URLSearchParams(router.state.location.search).get('redirectUrl')).toBe('/workbench?x=1');
  });

  it('unknown paths show the 404 page', async () => {
    stubFetch({});
    renderRoutes(routes, '/no/such/page');
    expect(await screen.findByText('页面不存在')).toBeTruthy();
  });

  it('the WeChat page offers the QR sign-in with WeChat (decision 0078)', async () => {
    stubFetch({});
    renderRoutes(routes, '/entry/login/wechat');
    expect(await screen.findByText('使用微信扫码登录组织。')).toBeTruthy();
  });

  it('WeChat binding asks a signed-out person to sign in first (decision 0090)', async () => {
    stubFetch({});
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/entry/register/wechat');
    expect(await screen.findByText('请先登录，再绑定微信')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '返回登录' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/entry/'));
  });

  it('result pages show ?message= as text', async () => {
    stubFetch({});
    renderRoutes(routes, `/entry/error?message=${encodeURIComponent('<b>授权失败</b>')}`);
    expect(await screen.findByText('<b>授权失败</b>')).toBeTruthy();
  });

  it('/mobile/code is a page of its own, outside the entry layout', async () => {
    stubFetch({});
    renderRoutes(routes, '/mobile/code');
    expect(await screen.findByLabelText('验证码')).toBeTruthy();
    expect(screen.queryByRole('radio', { name: 'English' })).toBeNull();
  });

  it('/entry/logout revokes the token, then forgets both cookies', async () => {
    setToken('t1');
    setEngineCode('eng1');
    const { callsTo } = stubFetch({ 'GET /Login/Logout': () => ok({}) });
    renderRoutes(routes, '/entry/logout');
    expect(await screen.findByText('已退出登录')).toBeTruthy();
    expect(callsTo('GET', '/Login/Logout')[0].headers.authorization).toBe('Bearer t1');
    expect(readCookie('access-token')).toBeUndefined();
    expect(readCookie('engine')).toBeUndefined();
    expect(screen.getByRole('button', { name: '重新登录' })).toBeTruthy();
  });

  it('corporate login says when single sign-on is not configured', async () => {
    stubFetch({ 'GET /v1/login/sso': () => fail(208001, '单点登录尚未配置') });
    const user = userEvent.setup();
    renderRoutes(routes, '/entry/login/corp');
    await user.type(await screen.findByLabelText('组织编码'), 'acme01');
    await user.click(screen.getByRole('button', { name: '单点登录' }));
    expect(await screen.findByText('企业单点登录尚未配置')).toBeTruthy();
  });

  it('switching to English changes the page language', async () => {
    stubFetch({});
    const user = userEvent.setup();
    renderRoutes(routes, '/entry/');
    await screen.findByText('欢迎使用 Tritium');
    await user.click(screen.getByText('English'));
    expect(await screen.findByText('Welcome to Tritium')).toBeTruthy();
    expect(screen.getByLabelText('Mobile number')).toBeTruthy();
    await user.click(screen.getByText('中文'));
    expect(await screen.findByText('欢迎使用 Tritium')).toBeTruthy();
  });
});
