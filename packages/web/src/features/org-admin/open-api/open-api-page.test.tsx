import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, ok, stubFetch } from '../../../test/fetch-stub.ts';
import { renderRoutes } from '../../../test/render.tsx';
import { findDialog } from '../../../test/find-dialog.ts';
import { setEngineCode, setToken } from '../../../lib/session.ts';
import { AdminFrame } from '../admin-frame.tsx';
import { userInfo } from '../test/org-fixtures.ts';
import { OpenApiPage } from './open-api-page.tsx';

// The open API page of the admin console against a fake server that keeps its secrets in memory.

const secret = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id, name, masked: 'abcd…wxyz', createdBy: 'u0', createdByName: '张明', createdTime: '2026-11-20T02:00:00.000Z', lastUsedTime: null, revokedTime: null, ...extra,
});

function fakeServer(options: { isAdmin?: boolean; createFails?: boolean } = {}) {
  const secrets = [secret('s1', 'ERP 同步', { lastUsedTime: '2026-11-22T03:00:00.000Z' }), secret('s0', '旧系统', { revokedTime: '2026-11-21T00:00:00.000Z' })];
  const stub = stubFetch({
    'GET /v1/user/info': () => ok(userInfo(options.isAdmin ?? true)),
    'GET /v1/engine/connected': () => ok({ list: [userInfo(true).currentEngine], total: 1, hasMore: false }),
    'GET /v1/engine/secret/list': () => ok({ engineCode: 'alpha01', list: secrets }),
    'POST /v1/engine/secret/create': (call) => {
      if (options.createFails) return fail(320006, '最多同时保留 10 个有效密钥');
      const created = secret(`s${secrets.length + 1}`, (call.body as { name: string }).name, { masked: 'Zx9Q…k3Lm' });
      secrets.unshift(created);
      return ok({ secret: created, value: 'Zx9Q-the-whole-secret-value-k3Lm' });
    },
    'POST /v1/engine/secret/revoke': (call) => {
      const s = secrets.find((x) => x.id === (call.body as { id: string }).id)!;
      Object.assign(s, { revokedTime: '2026-11-23T00:00:00.000Z' });
      return ok(s);
    },
  });
  return { ...stub, secrets };
}

function renderPage() {
  setToken('t1');
  setEngineCode('alpha01');
  return renderRoutes(
    [
      { path: '/admin', element: <AdminFrame />, children: [{ path: 'open-api', element: <OpenApiPage /> }] },
      { path: '*', element: <div>elsewhere-stub</div> },
    ],
    '/admin/open-api',
  );
}

const table = () => screen.getByRole('table');
const rowOf = (name: string) => within(table()).getAllByRole('row').find((r) => r.textContent?.includes(name))!;

describe('open API page', () => {
  it('lists the secrets masked with their state, the EngineCode and the address, in the console menu', async () => {
    fakeServer();
    renderPage();
    expect(await screen.findByText('ERP 同步', undefined, { timeout: 5000 })).toBeTruthy();
    expect(within(rowOf('ERP 同步')).getByText('abcd…wxyz')).toBeTruthy();
    expect(within(rowOf('ERP 同步')).getByText('有效')).toBeTruthy();
    expect(within(rowOf('旧系统')).getByText('已撤销')).toBeTruthy();
    expect(within(rowOf('旧系统')).queryByRole('button', { name: /撤销/ })).toBeNull();
    expect(screen.getByText('alpha01')).toBeTruthy();
    expect(screen.getByText(/\/OpenApi\/Invoke$/)).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: /开放接口/ })).toBeTruthy();
  });

  it('creates a secret, shows it whole once, then only masked', async () => {
    const { callsTo } = fakeServer();
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('ERP 同步', undefined, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: /新建密钥/ }));
    const dialog = await findDialog('新建密钥');
    await user.click(within(dialog).getByRole('button', { name: /创\s*建/ }));
    expect(await within(dialog).findByText('请填写用途')).toBeTruthy();
    expect(callsTo('POST', '/v1/engine/secret/create')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('用途'), ' 财务系统 ');
    await user.click(within(dialog).getByRole('button', { name: /创\s*建/ }));
    const shown = await findDialog('密钥已创建');
    expect(callsTo('POST', '/v1/engine/secret/create')[0].body).toEqual({ name: '财务系统' });
    expect(within(shown).getByText('Zx9Q-the-whole-secret-value-k3Lm')).toBeTruthy();
    await user.click(within(shown).getByRole('button', { name: '我已保存' }));
    await waitFor(() => expect(screen.queryByText('Zx9Q-the-whole-secret-value-k3Lm')).toBeNull());
    expect(await within(table()).findByText('财务系统')).toBeTruthy();
    expect(within(rowOf('财务系统')).getByText('Zx9Q…k3Lm')).toBeTruthy();
  });

  it('revokes a secret after confirmation', async () => {
    const { callsTo } = fakeServer();
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('ERP 同步', undefined, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: '撤销 ERP 同步' }));
    const confirm = await screen.findByRole('tooltip');
    await user.click(within(confirm).getByRole('button', { name: /撤\s*销/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/engine/secret/revoke')[0]?.body).toEqual({ id: 's1' }));
    await waitFor(() => expect(within(rowOf('ERP 同步')).getByText('已撤销')).toBeTruthy());
  });

  it('shows no secret when creating is refused, and is closed to members', async () => {
    fakeServer({ createFails: true });
    const user = userEvent.setup();
    const view = renderPage();
    await screen.findByText('ERP 同步', undefined, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: /新建密钥/ }));
    const dialog = await findDialog('新建密钥');
    await user.type(within(dialog).getByLabelText('用途'), '第十一个');
    await user.click(within(dialog).getByRole('button', { name: /创\s*建/ }));
    expect(await screen.findByText('最多同时保留 10 个有效密钥')).toBeTruthy();
    expect(screen.queryByText('密钥已创建')).toBeNull();
    view.unmount();

    const { callsTo } = fakeServer({ isAdmin: false });
    renderPage();
    expect(await screen.findByText('没有访问权限', undefined, { timeout: 5000 })).toBeTruthy();
    expect(callsTo('GET', '/v1/engine/secret/list')).toHaveLength(0);
  });
});
