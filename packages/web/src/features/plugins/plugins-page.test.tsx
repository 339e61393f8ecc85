import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ok, stubFetch } from '../../test/fetch-stub.ts';
import { renderRoutes } from '../../test/render.tsx';
import { setEngineCode, setToken } from '../../lib/session.ts';
import { AdminFrame } from '../org-admin/admin-frame.tsx';
import { userInfo } from '../org-admin/test/org-fixtures.ts';
import { PluginsPage } from './plugins-page.tsx';

// The plugins page against a fake server that, like the real one, answers secrets only as the keys that are set.

const item = (templateCode: string, extra: Record<string, unknown> = {}) => ({ templateCode, status: 'notInstalled', settings: {}, secretsSet: [], lastError: null, installedTime: null, ...extra });

function fakeServer() {
  const state = {
    items: [
      item('connector'),
      item('face', { status: 'installed', settings: { endpoint: 'https://iai.example.com', region: 'ap-guangzhou', secretId: 'AKID' }, secretsSet: ['secretKey'], installedTime: '2026-11-28T02:00:00.000Z' }),
      item('payment', { lastError: '外部系统返回错误（HTTP 401）' }),
    ],
  };
  const stub = stubFetch({
    'GET /v1/user/info': () => ok(userInfo(true)),
    'GET /v1/engine/connected': () => ok({ list: [userInfo(true).currentEngine], total: 1, hasMore: false }),
    'GET /v1/plugin/catalogue': () => ok(state),
    'POST /v1/plugin/settings': (call) => ok({ item: state.items[1], kept: false, echo: call.body }),
    'POST /v1/plugin/uninstall': () => {
      state.items[1] = { ...state.items[1]!, status: 'notInstalled', installedTime: null };
      return ok({ item: state.items[1], kept: true });
    },
  });
  return { ...stub, state };
}

function renderPage() {
  setToken('t1');
  setEngineCode('alpha01');
  return renderRoutes([{ path: '/admin', element: <AdminFrame />, children: [{ path: 'plugins', element: <PluginsPage /> }] }, { path: '*', element: <div>elsewhere-stub</div> }], '/admin/plugins');
}

describe('plugins page', () => {
  it('shows each template\'s state, changes settings keeping the secret left empty, and uninstalls saying the data stays', async () => {
    const { callsTo } = fakeServer();
    const user = userEvent.setup();
    renderPage();
    await waitFor(() => expect(screen.getByTestId('plugin-status-face').textContent).toBe('已安装'), { timeout: 5000 });
    expect(screen.getByTestId('plugin-status-connector').textContent).toBe('未安装');
    expect(screen.getByText('上次安装失败：外部系统返回错误（HTTP 401）')).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: /插件管理/ })).toBeTruthy();

    const face = screen.getByTestId('plugin-card-face');
    await user.click(within(face).getByRole('button', { name: '设置' }));
    const dialog = await screen.findByRole('dialog');
    const secret = within(dialog).getByLabelText('SecretKey') as HTMLInputElement;
    expect(secret.value).toBe('');
    expect(secret.placeholder).toBe('已设置，留空则不修改');
    expect((within(dialog).getByLabelText('地域') as HTMLInputElement).value).toBe('ap-guangzhou');
    await user.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/plugin/settings')).toHaveLength(1));
    expect(callsTo('POST', '/v1/plugin/settings')[0]!.body).toEqual({ code: 'face', settings: { endpoint: 'https://iai.example.com', region: 'ap-guangzhou', secretId: 'AKID' }, secrets: {} });

    await user.click(within(face).getByRole('button', { name: /卸\s*载/ }));
    const confirm = await screen.findByRole('dialog', { name: /卸载“人脸识别”/ });
    expect(within(confirm).getByText(/设置和安装期间写入的数据.*都会保留/)).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: /卸\s*载/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/plugin/uninstall')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('plugin-status-face').textContent).toBe('未安装'));
  });
});
