import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderRoutes } from '../../../test/render.tsx';
import { setEngineCode, setToken } from '../../../lib/session.ts';
import { AdminFrame } from '../admin-frame.tsx';
import { userInfo } from '../test/org-fixtures.ts';
import { SignInSettingsPage } from './sign-in-settings-page.tsx';

// The single sign-on settings against a fake server that, like the real one, answers the client secret only as a flag.

function fakeServer(initial: Record<string, unknown> = {}) {
  const state: Record<string, unknown> = {
    configured: false, protocol: 'oidc', enabled: false, issuerUrl: '', clientId: '', hasClientSecret: false, scopes: 'profile email phone',
    matchBy: 'mobile', claim: '', createUsers: false, callbackUrl: '', suggestedCallbackUrl: 'https://app.example.com/entry/login/sso/callback',
    saml: { entryPoint: '', idpCert: '', idpIssuer: '', spEntityId: 'https://app.example.com/v1/login/sso/saml/alpha01/metadata', nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified' },
    samlAcsUrl: 'https://app.example.com/v1/login/sso/saml/alpha01/acs', samlMetadataUrl: 'https://app.example.com/v1/login/sso/saml/alpha01/metadata', ...initial,
  };
  const stub = stubFetch({
    'GET /v1/user/info': () => ok(userInfo(true)),
    'GET /v1/engine/connected': () => ok({ list: [userInfo(true).currentEngine], total: 1, hasMore: false }),
    'GET /v1/sysintergration/sso/setting/load': () => ok(state),
    'POST /v1/sysintergration/sso/setting': (call) => {
      const { clientSecret, ...rest } = call.body as Record<string, unknown>;
      Object.assign(state, rest, { configured: true, hasClientSecret: state.hasClientSecret || !!clientSecret });
      return ok(state);
    },
  });
  return { ...stub, state };
}

function renderPage() {
  setToken('t1');
  setEngineCode('alpha01');
  return renderRoutes([{ path: '/admin', element: <AdminFrame />, children: [{ path: 'sign-in', element: <SignInSettingsPage /> }] }], '/admin/sign-in');
}

describe('sign-in settings page', () => {
  it('offers this site\'s callback address, saves the issuer and client, and sends the secret only when typed', async () => {
    const { callsTo, state } = fakeServer();
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByDisplayValue('https://app.example.com/entry/login/sso/callback', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: /登录方式/ })).toBeTruthy();
    await user.click(screen.getByRole('switch', { name: '启用单点登录' }));
    await user.type(screen.getByLabelText('颁发者地址（Issuer）'), 'https://id.example.com/realms/acme');
    await user.type(screen.getByLabelText('客户端 ID'), 'tritium');
    await user.type(screen.getByLabelText('客户端密钥'), 'top-secret');
    await user.click(screen.getByRole('radio', { name: '工号' }));
    expect(screen.getByPlaceholderText('employee_number')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(callsTo('POST', '/v1/sysintergration/sso/setting')).toHaveLength(1));
    expect(callsTo('POST', '/v1/sysintergration/sso/setting')[0].body).toEqual({
      protocol: 'oidc', enabled: true, issuerUrl: 'https://id.example.com/realms/acme', clientId: 'tritium', clientSecret: 'top-secret', scopes: 'profile email phone',
      matchBy: 'employeeNo', claim: '', createUsers: false, callbackUrl: 'https://app.example.com/entry/login/sso/callback',
    });
    expect(state.hasClientSecret).toBe(true);
    // Saved: the secret field is empty again, shown as 已设置, and a second save leaves it out.
    await waitFor(() => expect((screen.getByLabelText('客户端密钥') as HTMLInputElement).placeholder).toBe('已设置'));
    expect((screen.getByLabelText('客户端密钥') as HTMLInputElement).value).toBe('');
    await user.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(callsTo('POST', '/v1/sysintergration/sso/setting')).toHaveLength(2));
    expect(callsTo('POST', '/v1/sysintergration/sso/setting')[1].body).not.toHaveProperty('clientSecret');
  });

  it('switches to SAML: shows the addresses to register and sends the provider, certificate and entity IDs', async () => {
    const { callsTo } = fakeServer({ configured: true, issuerUrl: 'https://id.example.com', clientId: 'kept', hasClientSecret: true });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByText('SAML 2.0', undefined, { timeout: 5000 }));
    expect(screen.getByTestId('saml-acs-url').textContent).toBe('https://app.example.com/v1/login/sso/saml/alpha01/acs');
    expect(screen.getByRole('link', { name: '下载元数据' }).getAttribute('href')).toBe('https://app.example.com/v1/login/sso/saml/alpha01/metadata');
    expect(screen.queryByLabelText('颁发者地址（Issuer）')).toBeNull();
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('请粘贴身份提供方签名证书')).toBeTruthy();
    expect(callsTo('POST', '/v1/sysintergration/sso/setting')).toHaveLength(0);
    await user.type(screen.getByLabelText('身份提供方登录地址（SSO URL）'), 'https://idp.example.com/sso');
    await user.type(screen.getByLabelText('身份提供方实体 ID（Entity ID）'), 'urn:idp');
    await user.type(screen.getByLabelText('身份提供方签名证书（PEM）'), 'PEM');
    expect(screen.getByPlaceholderText('mobile')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(callsTo('POST', '/v1/sysintergration/sso/setting')).toHaveLength(1));
    expect(callsTo('POST', '/v1/sysintergration/sso/setting')[0].body).toEqual({
      protocol: 'saml', enabled: false, issuerUrl: 'https://id.example.com', clientId: 'kept', scopes: 'profile email phone', matchBy: 'mobile', claim: '', createUsers: false,
      callbackUrl: 'https://app.example.com/entry/login/sso/callback',
      saml: { entryPoint: 'https://idp.example.com/sso', idpIssuer: 'urn:idp', idpCert: 'PEM', spEntityId: 'https://app.example.com/v1/login/sso/saml/alpha01/metadata', nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified' },
    });
  });
});
