import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ok, stubFetch, type RecordedCall } from '../../../test/fetch-stub.ts';
import { renderRoutes } from '../../../test/render.tsx';
import { setEngineCode, setToken } from '../../../lib/session.ts';
import { AdminFrame } from '../admin-frame.tsx';
import { orgUser, userInfo } from '../test/org-fixtures.ts';
import { OplogPage } from './oplog-page.tsx';

// The operation log page of the admin console against a fake server holding a few entries.

const entry = (seq: number, kind: string, objectName: string, extra: Record<string, unknown> = {}) => ({
  seq, time: `2026-11-2${seq}T02:00:00.000Z`, userId: 'u0', userName: '张明', kind, action: 'update', objectId: `o${seq}`, objectName,
  before: null, after: null, requestId: `req-${seq}`, ip: '10.0.0.8', ...extra,
});

const ENTRIES = [
  entry(3, 'permissionGroup', '客户 / 销售组', { before: { name: '销售组', viewScope: 'own' }, after: { name: '销售组', viewScope: 'all' } }),
  entry(2, 'signIn', 'oidc', { after: { clientSecret: '******', issuerUrl: 'https://id.example' } }),
  entry(1, 'department', '研发部', { action: 'create' }),
];

function fakeServer(verify: Record<string, unknown> = { valid: true, checked: 3, broken: null }) {
  return stubFetch({
    'GET /v1/user/info': () => ok(userInfo(true)),
    'GET /v1/engine/connected': () => ok({ list: [userInfo(true).currentEngine], total: 1, hasMore: false }),
    'POST /v1/org/user/list': () => ok({ list: [orgUser(1)], total: 1, hasMore: false }),
    'GET /v1/admin/oplog/list': (call: RecordedCall) => {
      const query = new URL(call.url, 'http://localhost').searchParams;
      const list = ENTRIES.filter((e) => (!query.get('kind') || e.kind === query.get('kind')) && (!query.get('text') || e.objectName.includes(query.get('text')!)));
      return ok({ list, total: list.length, hasMore: false });
    },
    'POST /v1/admin/oplog/verify': () => ok(verify),
  });
}

function renderPage() {
  setToken('t1');
  setEngineCode('alpha01');
  return renderRoutes([{ path: '/admin', element: <AdminFrame />, children: [{ path: 'oplog', element: <OplogPage /> }] }], '/admin/oplog');
}

const table = () => screen.getByRole('table');
const listQueries = (calls: RecordedCall[]) => calls.filter((c) => c.url.includes('/v1/admin/oplog/list')).map((c) => new URL(c.url, 'http://localhost').searchParams);

describe('operation log page', () => {
  it('lists the entries with who, what and when, in the console menu, and filters by kind and text', async () => {
    const { calls } = fakeServer();
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('客户 / 销售组', undefined, { timeout: 5000 })).toBeTruthy();
    expect(within(table()).getByText('登录设置')).toBeTruthy();
    expect(within(table()).getAllByText('张明')).toHaveLength(3);
    expect(screen.getByRole('menuitem', { name: /操作日志/ })).toBeTruthy();

    await user.click(screen.getByRole('combobox', { name: '对象类型' }));
    await user.click(await screen.findByTitle('权限组'));
    await waitFor(() => expect(listQueries(calls).at(-1)?.get('kind')).toBe('permissionGroup'));
    await waitFor(() => expect(within(table()).queryByText('研发部')).toBeNull());
    expect(listQueries(calls).at(-1)?.get('pageIndex')).toBe('0');

    await user.type(screen.getByRole('searchbox', { name: '搜索对象名称或修改内容' }), '销售{Enter}');
    await waitFor(() => expect(listQueries(calls).at(-1)?.get('text')).toBe('销售'));
    expect(within(table()).getByText('客户 / 销售组')).toBeTruthy();
  });

  it('opens an entry to show the values before and after, the request and the address', async () => {
    fakeServer();
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('oidc', undefined, { timeout: 5000 });
    const row = within(table()).getAllByRole('row').find((r) => r.textContent?.includes('oidc'))!;
    await user.click(within(row).getByRole('button'));
    expect(await screen.findByText(/"clientSecret": "\*\*\*\*\*\*"/)).toBeTruthy();
    expect(screen.getByText('req-2')).toBeTruthy();
    expect(screen.getByText('10.0.0.8')).toBeTruthy();
  });

  it('checks the integrity and says so', async () => {
    const { callsTo } = fakeServer();
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('研发部', undefined, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: /校验完整性/ }));
    expect(await screen.findByText('完整性校验通过：共 3 条记录，未发现修改或删除')).toBeTruthy();
    expect(callsTo('POST', '/v1/admin/oplog/verify')).toHaveLength(1);
  });

  it('names the first entry changed after it was written', async () => {
    fakeServer({ valid: false, checked: 1, broken: { seq: 2, time: '2026-11-22T02:00:00.000Z', reason: 'edited' } });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('研发部', undefined, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: /校验完整性/ }));
    expect(await screen.findByText('完整性校验未通过：第 2 条记录在写入后被修改过')).toBeTruthy();
    expect(screen.getByRole('alert')).toBeTruthy();
  });
});
