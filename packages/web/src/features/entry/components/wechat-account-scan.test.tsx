import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { routes } from '../../../app/routes.tsx';
import { renderRoutes } from '../../../test/render.tsx';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { readCookie } from '../../../lib/session.ts';

// The official account's QR page (decision 0097): the code while WeChat has not pushed the scan, then the session; the
// scene's key is the one this tab kept when it started the scan.
describe('WeChat official account QR page', () => {
  it('shows the code with the tab\'s key, then signs in once the scan is pushed', async () => {
    sessionStorage.setItem('tritium.wechat.scene.s-1', 'key-1');
    let asks = 0;
    const { callsTo } = stubFetch({
      'GET /v1/login/wechat/scene': () => {
        asks += 1;
        return asks === 1
          ? ok({ status: 'waiting', qrUrl: 'https://mp.weixin.qq.com/cgi-bin/showqrcode?ticket=T1', expiresAt: new Date(Date.now() + 300_000).toISOString() })
          : ok({ status: 'signedIn', login: { accessToken: 'oa-token', expiresIn: 172800, engineCode: 'acme01', authType: 1, returnTo: '/no/such/page' } });
      },
    });
    const { router } = renderRoutes(routes, '/entry/login/wechat?scene=s-1&engineCode=acme01');
    const image = (await screen.findByTestId('wechat-account-qr')) as HTMLImageElement;
    expect(image.getAttribute('src')).toBe('https://mp.weixin.qq.com/cgi-bin/showqrcode?ticket=T1');
    expect(screen.getByText('请使用微信扫描二维码，关注公众号后即可登录')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/no/such/page'), { timeout: 5000 });
    const sent = callsTo('GET', '/v1/login/wechat/scene').map((c) => Object.fromEntries(new URL(c.url, 'http://localhost').searchParams));
    expect(sent).toEqual([{ scene: 's-1', key: 'key-1', wait: '0' }, { scene: 's-1', key: 'key-1', wait: '20' }]);
    expect(readCookie('access-token')).toBe('oa-token');
  });

  it('an expired code offers a new one; a WeChat not bound yet proves a number', async () => {
    stubFetch({ 'GET /v1/login/wechat/scene': () => fail(200703, '扫码登录已超时，请重新扫码') });
    renderRoutes(routes, '/entry/login/wechat?scene=s-2&engineCode=acme01');
    expect(await screen.findByText('二维码已过期')).toBeTruthy();
    expect(screen.getByRole('button', { name: '刷新二维码' })).toBeTruthy();

    stubFetch({ 'GET /v1/login/wechat/scene': () => fail(200504, '手机号未注册', { detail: { securityToken: 't-1', provider: 'wechat', name: '' } }) });
    renderRoutes(routes, '/entry/login/wechat?scene=s-3&engineCode=acme01');
    expect(await screen.findByRole('button', { name: '绑定并登录' })).toBeTruthy();
  });
});
