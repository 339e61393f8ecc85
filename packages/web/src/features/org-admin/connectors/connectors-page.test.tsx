import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderRoutes } from '../../../test/render.tsx';
import { setEngineCode, setToken } from '../../../lib/session.ts';
import { AdminFrame } from '../admin-frame.tsx';
import { userInfo } from '../test/org-fixtures.ts';
import { ConnectorsPage } from './connectors-page.tsx';

// The connectors page against a fake server that keeps connections in memory and, like the real one, answers secrets
// only as hasSecret.

const connection = (code: string, name: string, extra: Record<string, unknown> = {}) => ({
  code, name, kind: 'http', baseUrl: 'https://erp.example.com/api', authKind: 'bearer', auth: { username: '', apiKeyName: '', apiKeyIn: 'header', tokenUrl: '', clientId: '', scope: '', signatureHeader: '' },
  hasSecret: true, healthPath: '/health', status: 'normal', failureCount: 0, lastError: null, lastCheckedTime: null, connectorCount: 1, modifiedTime: '2026-11-28T02:00:00.000Z', ...extra,
});

function fakeServer() {
  const state = { items: [connection('Erp', '金蝶 ERP'), connection('Crm', 'CRM', { status: 'exception', lastError: '外部系统返回错误（HTTP 503）' })] };
  const stub = stubFetch({
    'GET /v1/user/info': () => ok(userInfo(true)),
    'GET /v1/engine/connected': () => ok({ list: [userInfo(true).currentEngine], total: 1, hasMore: false }),
    'GET /v1/connectors/connection/list': () => ok(state),
    'POST /v1/connectors/connection/save': (call) => {
      const { secret, originalCode, ...rest } = call.body as Record<string, unknown>;
      const found = state.items.find((c) => c.code === originalCode);
      const saved = { ...(found ?? connection(String(rest.code), String(rest.name))), ...rest, hasSecret: !!secret || !!found?.hasSecret };
      state.items = found ? state.items.map((c) => (c === found ? saved : c)) : [...state.items, saved];
      return ok(saved);
    },
    'POST /v1/connectors/connection/test': (call) => {
      const found = state.items.find((c) => c.code === (call.body as { code: string }).code)!;
      found.status = 'normal';
      return ok({ ok: true, httpStatus: 200, durationMs: 35, error: null, connection: found });
    },
    'POST /v1/connectors/connection/enable': (call) => {
      const body = call.body as { code: string; enabled: boolean };
      const found = state.items.find((c) => c.code === body.code)!;
      found.status = body.enabled ? 'normal' : 'disabled';
      return ok(found);
    },
    'GET /v1/connectors/connector/list': () =>
      ok({ items: [{ code: 'GetCustomer', name: '查询客户', connectionCode: 'Erp', connectionName: '金蝶 ERP', method: 'GET', path: '/customer/{{No}}', params: [], outputs: [{ name: 'customerName', path: 'data.name' }], modifiedTime: '2026-11-28T02:00:00.000Z' }] }),
    'GET /v1/connectors/log': () => ok({ items: [{ id: '1', time: '2026-11-28T02:00:00.000Z', connectionCode: 'Erp', connectorCode: null, source: 'health', method: 'GET', url: 'https://erp.example.com/api/health', httpStatus: 200, ok: true, durationMs: 20, error: null }], total: 1 }),
  });
  return { ...stub, state };
}

function renderPage() {
  setToken('t1');
  setEngineCode('alpha01');
  return renderRoutes(
    [
      { path: '/admin', element: <AdminFrame />, children: [{ path: 'connectors', element: <ConnectorsPage /> }] },
      { path: '*', element: <div>elsewhere-stub</div> },
    ],
    '/admin/connectors',
  );
}

describe('connectors page', () => {
  it('lists connections with their status, tests one back to 正常 and disables another', async () => {
    const { callsTo } = fakeServer();
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('金蝶 ERP', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: /连接器/ })).toBeTruthy();
    expect(screen.getByTestId('status-Erp').textContent).toBe('正常');
    expect(screen.getByTestId('status-Crm').textContent).toBe('异常');
    const crmRow = screen.getByText('CRM').closest('tr')!;
    await user.click(within(crmRow).getByRole('button', { name: '测试连接' }));
    expect(await screen.findByText('连接正常（HTTP 200，35 毫秒）')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('status-Crm').textContent).toBe('正常'));
    await user.click(within(screen.getByText('金蝶 ERP').closest('tr')!).getByRole('button', { name: '停用' }));
    await waitFor(() => expect(screen.getByTestId('status-Erp').textContent).toBe('已停用'));
    expect(callsTo('POST', '/v1/connectors/connection/enable')[0]!.body).toEqual({ code: 'Erp', enabled: false });
  });

  it('edits a connection with its secret as an empty password input, kept when left empty; shows connectors and the log', async () => {
    const { callsTo } = fakeServer();
    const user = userEvent.setup();
    renderPage();
    await user.click(within((await screen.findByText('金蝶 ERP', undefined, { timeout: 5000 })).closest('tr')!).getByRole('button', { name: '编辑' }));
    const dialog = await screen.findByRole('dialog');
    const token = within(dialog).getByLabelText('令牌') as HTMLInputElement;
    expect(token.value).toBe('');
    expect(token.placeholder).toBe('已设置（留空则保留原值）');
    await user.clear(within(dialog).getByLabelText('名称'));
    await user.type(within(dialog).getByLabelText('名称'), '金蝶云星空');
    await user.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(callsTo('POST', '/v1/connectors/connection/save')).toHaveLength(1));
    const body = callsTo('POST', '/v1/connectors/connection/save')[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ originalCode: 'Erp', code: 'Erp', name: '金蝶云星空', authKind: 'bearer' });
    expect(body.secret).toBeUndefined();
    await user.click(await screen.findByRole('button', { name: '金蝶云星空' }));
    expect(await screen.findByText('“金蝶云星空”的连接器')).toBeTruthy();
    expect(await screen.findByText('customerName ← data.name')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: '调用日志' }));
    expect(await screen.findByText('健康检查')).toBeTruthy();
  });
});
