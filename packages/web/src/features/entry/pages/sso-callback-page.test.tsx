import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { routes } from '../../../app/routes.tsx';
import { renderRoutes } from '../../../test/render.tsx';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { readCookie } from '../../../lib/session.ts';

describe('single sign-on pages', () => {
  it('the callback hands code, state and iss to the server once, keeps the session and goes where the person was heading', async () => {
    const { callsTo } = stubFetch({
      'GET /v1/login/sso': () => ok({ accessToken: 'sso-token', expiresIn: 172800, engineCode: 'acme01', authType: 3, returnTo: '/no/such/page' }),
    });
    const { router } = renderRoutes(routes, '/entry/login/sso/callback?code=c1&state=s1&iss=http%3A%2F%2Fid.test&other=x');
    await waitFor(() => expect(router.state.location.pathname).toBe('/no/such/page'));
    const sent = callsTo('GET', '/v1/login/sso');
    expect(sent).toHaveLength(1);
    expect(Object.fromEntries(new URL(sent[0].url, 'http://localhost').searchParams)).toEqual({ code: 'c1', state: 's1', iss: 'http://id.test' });
    expect(readCookie('access-token')).toBe('sso-token');
    expect(readCookie('engine')).toBe('acme01');
  });

  it('the callback shows why the sign-in was refused and offers to sign in again', async () => {
    stubFetch({ 'GET /v1/login/sso': () => fail(208002, '单点登录请求无效或已使用，请重新登录') });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/entry/login/sso/callback?code=c1&state=used');
    expect(await screen.findByText('单点登录失败')).toBeTruthy();
    expect(screen.getByText('单点登录请求无效或已使用，请重新登录')).toBeTruthy();
    expect(readCookie('access-token')).toBeUndefined();
    await user.click(screen.getByRole('button', { name: '重新登录' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/entry/'));
  });

  it('corporate login starts single sign-on with the page the person was heading to', async () => {
    const { callsTo } = stubFetch({ 'GET /v1/login/sso': () => ok({ redirectUrl: '' }) });
    const user = userEvent.setup();
    renderRoutes(routes, '/entry/login/corp?redirectUrl=%2Fworkbench%2Fa');
    await user.type(await screen.findByLabelText('组织编码'), 'acme01');
    await user.click(screen.getByRole('button', { name: '单点登录' }));
    await waitFor(() => expect(callsTo('GET', '/v1/login/sso')).toHaveLength(1));
    const query = new URL(callsTo('GET', '/v1/login/sso')[0].url, 'http://localhost').searchParams;
    expect(query.get('engineCode')).toBe('acme01');
    expect(query.get('redirectUrl')).toBe('/workbench/a');
  });

  it('OpenID Connect: the callback sends the issuer\'s answer with the key the tab kept when it started', async () => {
    sessionStorage.setItem('tritium.sso.browserKey', 'k-oidc');
    const { callsTo } = stubFetch({
      'GET /v1/login/sso': () => ok({ accessToken: 'oidc-token', expiresIn: 172800, engineCode: 'acme01', authType: 3, returnTo: null }),
    });
    renderRoutes(routes, '/entry/login/sso/callback?code=c2&state=s2');
    await waitFor(() => expect(callsTo('GET', '/v1/login/sso')).toHaveLength(1));
    expect(Object.fromEntries(new URL(callsTo('GET', '/v1/login/sso')[0].url, 'http://localhost').searchParams)).toEqual({ code: 'c2', state: 's2', key: 'k-oidc' });
    sessionStorage.removeItem('tritium.sso.browserKey');
  });

  it('SAML: the tab that started the sign-in keeps its browser key and sends it with the code it comes back with', async () => {
    const started = stubFetch({ 'GET /v1/login/sso': () => ok({ redirectUrl: '', browserKey: 'k-123' }) });
    const user = userEvent.setup();
    renderRoutes(routes, '/entry/login/corp');
    await user.type(await screen.findByLabelText('组织编码'), 'acme01');
    await user.click(screen.getByRole('button', { name: '单点登录' }));
    await waitFor(() => expect(started.callsTo('GET', '/v1/login/sso')).toHaveLength(1));
    await waitFor(() => expect(sessionStorage.getItem('tritium.sso.browserKey')).toBe('k-123'));
    const { callsTo } = stubFetch({
      'GET /v1/login/sso': () => ok({ accessToken: 'saml-token', expiresIn: 172800, engineCode: 'acme01', authType: 3, returnTo: null }),
    });
    renderRoutes(routes, '/entry/login/sso/callback?saml=code-1');
    await waitFor(() => expect(callsTo('GET', '/v1/login/sso')).toHaveLength(1));
    expect(Object.fromEntries(new URL(callsTo('GET', '/v1/login/sso')[0].url, 'http://localhost').searchParams)).toEqual({ saml: 'code-1', key: 'k-123' });
  });
});
