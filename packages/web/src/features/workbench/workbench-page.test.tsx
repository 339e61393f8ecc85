import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WorkbenchPage } from './workbench-page.tsx';
import { resetTokenRefresh } from './hooks/use-token-refresh.ts';
import { json, ok, stubFetch, type RecordedCall } from '../../test/fetch-stub.ts';
import { renderPage } from '../../test/render.tsx';
import { findDialog } from '../../test/find-dialog.ts';
import { readCookie, setEngineCode, setToken } from '../../lib/session.ts';

const engine = (engineCode: string, engineName: string, isPrimary = true) => ({
  engineCode,
  engineName,
  engineType: 'SaaSDevelopment',
  entryType: 'Enterprise',
  state: 'normal',
  companyId: `c-${engineCode}`,
  logoUrl: null,
  createdTime: '2026-11-01T08:00:00+08:00',
  isPrimary,
});

const ENGINES = { alpha: engine('alpha01', '甲公司'), beta: engine('beta02', '乙合作方', false) };

function userInfoFor(call: RecordedCall) {
  const current = call.headers.enginecode === 'beta02' ? ENGINES.beta : ENGINES.alpha;
  return ok({
    user: { userId: 'u1', accountId: 'a1', name: '张三', mobile: '13800000000', authType: current === ENGINES.alpha ? 1 : 5, isAdmin: current === ENGINES.alpha, isExternal: current !== ENGINES.alpha, companyId: current.companyId },
    currentEngine: current,
  });
}

function stubWorkbench() {
  return stubFetch({
    'GET /v1/user/info': (call) => userInfoFor(call),
    'GET /v1/engine/connected': () => ok({ list: [ENGINES.alpha, ENGINES.beta], total: 2, hasMore: false }),
    'PUT /v1/engine/current': () => ok({}),
    'POST /v1/switch/batch': () => ok({ switches: [{ name: 'ai', value: '1' }, { name: 'kanbanView', value: '0' }] }),
    'GET /v1/token/refresh': () => ok({ accessToken: 'fresh-token', expiresIn: 172800 }),
    'GET /v1/functionnode/app/list': () => ok({ list: [] }),
    'GET /v1/functionnode/app/hascode/list': () => ok({ codes: [], isAdministrator: true }),
    'GET /v1/workbench/config': () => ok({ config: { components: [{ id: 'recent', type: 'recentActivity', visible: true, width: 4 }] }, isDefault: true }),
    'GET /v1/workbench/recentactivity': () => ok({ list: [] }),
  });
}

const encode = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '');
const jwtIssuedAt = (secondsAgo: number) => `${encode({ alg: 'HS256' })}.${encode({ iat: Math.floor(Date.now() / 1000) - secondsAgo })}.sig`;

describe('workbench', () => {
  beforeEach(() => {
    resetTokenRefresh();
    setToken(jwtIssuedAt(60));
    setEngineCode('alpha01');
  });

  it('greets the user; 组织信息 in the user menu shows the engine, the role and the feature switches', async () => {
    const { callsTo } = stubWorkbench();
    const user = userEvent.setup();
    renderPage('/workbench', <WorkbenchPage />);
    expect(await screen.findByText('你好，张三')).toBeTruthy();
    expect(screen.getByText('欢迎回到「甲公司」的工作台。')).toBeTruthy();
    // Loaded when the workbench starts (calls.md §9), before anyone opens the drawer.
    await waitFor(() => expect(callsTo('POST', '/v1/switch/batch')).toHaveLength(1));
    const names = (callsTo('POST', '/v1/switch/batch')[0].body as { names: string[] }).names;
    expect(names).toHaveLength(22);

    await user.click(screen.getByRole('button', { name: '用户菜单' }));
    await user.click(await screen.findByRole('menuitem', { name: /组织信息/ }));
    const drawer = await findDialog('组织信息');
    expect(within(drawer).getByText('甲公司')).toBeTruthy();
    expect(within(drawer).getByText('alpha01')).toBeTruthy();
    expect(within(drawer).getByText('管理员')).toBeTruthy();
    const item = (name: string) => within(drawer).getAllByRole('listitem').find((li) => li.textContent?.startsWith(name))!;
    await waitFor(() => expect(within(item('智能助手')).getByText('开启')).toBeTruthy());
    expect(within(item('看板视图')).getByText('关闭')).toBeTruthy();
    expect(within(drawer).getAllByRole('listitem')).toHaveLength(22);
    expect(callsTo('GET', '/v1/engine/connected')[0].url).toBe('/v1/engine/connected?pageIndex=0&pageSize=50');
    // The token is young: no refresh.
    expect(callsTo('GET', '/v1/token/refresh')).toHaveLength(0);
  });

  it('switches engine: tells the server, moves the cookie, reloads the user info in the new engine', async () => {
    const { callsTo } = stubWorkbench();
    renderPage('/workbench', <WorkbenchPage />);
    await screen.findByText('你好，张三');
    await waitFor(() => expect(callsTo('GET', '/v1/engine/connected')).toHaveLength(1));

    fireEvent.mouseDown(screen.getByLabelText('切换组织'));
    expect(await screen.findByRole('option', { name: '乙合作方' })).toBeTruthy();
    const external = screen.getByTitle('乙合作方');
    expect(within(external).getByText('外部')).toBeTruthy();
    fireEvent.click(external);

    await waitFor(() => expect(callsTo('PUT', '/v1/engine/current')).toHaveLength(1));
    expect(callsTo('PUT', '/v1/engine/current')[0].body).toEqual({ engineCode: 'beta02' });
    await waitFor(() => expect(readCookie('engine')).toBe('beta02'));
    expect(await screen.findByText('欢迎回到「乙合作方」的工作台。')).toBeTruthy();
    const reloads = callsTo('GET', '/v1/user/info');
    expect(reloads.length).toBeGreaterThanOrEqual(2);
    expect(reloads.at(-1)!.headers.enginecode).toBe('beta02');
  });

  it('refreshes a token older than 24 hours once', async () => {
    setToken(jwtIssuedAt(25 * 60 * 60));
    const { callsTo } = stubWorkbench();
    renderPage('/workbench', <WorkbenchPage />);
    await screen.findByText('你好，张三');
    await waitFor(() => expect(readCookie('access-token')).toBe('fresh-token'));
    expect(callsTo('GET', '/v1/token/refresh')).toHaveLength(1);
  });

  it('the user menu signs out through /entry/logout', async () => {
    stubWorkbench();
    const user = userEvent.setup();
    const { router } = renderPage('/workbench', <WorkbenchPage />);
    await screen.findByText('你好，张三');
    await user.click(screen.getByRole('button', { name: '用户菜单' }));
    await user.click(await screen.findByRole('menuitem', { name: /退出登录/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/entry/logout'));
  });

  it('administrators find 管理后台 in the top bar; it opens the organisation console', async () => {
    stubWorkbench();
    const user = userEvent.setup();
    const { router } = renderPage('/workbench', <WorkbenchPage />);
    await screen.findByText('你好，张三');
    await user.click(screen.getByRole('button', { name: /管理后台/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/org'));
  });

  it('members who are not administrators have no console entry', async () => {
    setEngineCode('beta02');
    stubWorkbench();
    renderPage('/workbench', <WorkbenchPage />);
    await screen.findByText('你好，张三');
    expect(screen.queryByRole('button', { name: /管理后台/ })).toBeNull();
  });

  it('a disabled user is told why the workbench does not open, and may sign in again', async () => {
    stubFetch({
      'GET /v1/user/info': () => json({ successful: false, errorCode: 200502, errorMessage: '该用户已被停用', errorType: 'BIZ' }, 403),
      'GET /v1/token/refresh': () => ok({ accessToken: 'fresh-token', expiresIn: 172800 }),
    });
    renderPage('/workbench', <WorkbenchPage />);
    expect(await screen.findByText('该用户已被停用')).toBeTruthy();
    expect(screen.getByText('工作台加载失败')).toBeTruthy();
    expect(screen.getByRole('button', { name: '重新登录' })).toBeTruthy();
  });
});
