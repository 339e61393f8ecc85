import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WorkbenchPage } from '../workbench/workbench-page.tsx';
import { resetTokenRefresh } from '../workbench/hooks/use-token-refresh.ts';
import { preloadWorkbenchPages } from '../workbench/components/pc-workbench.tsx';
import { renderPage } from '../../test/render.tsx';
import { findDialog } from '../../test/find-dialog.ts';
import { setEngineCode, setToken } from '../../lib/session.ts';
import { paneFoldsStorageKey } from '../../lib/pane-folds.tsx';
import { stubApps } from './test/apps-fake.ts';

beforeAll(preloadWorkbenchPages);

const encode = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '');
const youngToken = `${encode({ alg: 'HS256' })}.${encode({ iat: Math.floor(Date.now() / 1000) - 60 })}.sig`;
const open = (path: string) => renderPage('/workbench/*', <WorkbenchPage />, path);
// The fake's engine and user (apps-fake.ts).
const storageKey = paneFoldsStorageKey('alpha01', 'u1');

describe('folding the workbench panes', () => {
  beforeEach(() => {
    resetTokenRefresh();
    setToken(youngToken);
    setEngineCode('alpha01');
  });

  it('folds the app list to its icons, keeps it folded on the next visit, and unfolds it', async () => {
    stubApps();
    const user = userEvent.setup();
    const first = open('/workbench/app/crm');
    const list = await screen.findByRole('navigation', { name: '应用列表' });
    await user.click(within(list).getByRole('button', { name: '收起应用列表' }));

    const folded = screen.getByRole('navigation', { name: '应用列表' });
    expect(within(folded).getByRole('link', { name: '客户管理' })).toBeTruthy();
    expect(within(folded).queryByText('我的应用')).toBeNull();
    expect(within(folded).queryByRole('button', { name: /新建应用/ })).toBeNull();
    expect(JSON.parse(localStorage.getItem(storageKey)!)).toEqual({ appList: true, functionTree: false });

    first.unmount();
    open('/workbench/app/crm');
    const again = await screen.findByRole('navigation', { name: '应用列表' });
    await user.click(await within(again).findByRole('button', { name: '展开应用列表' }));
    expect(await within(screen.getByRole('navigation', { name: '应用列表' })).findByText('我的应用')).toBeTruthy();
    expect(JSON.parse(localStorage.getItem(storageKey)!)).toEqual({ appList: false, functionTree: false });
  });

  it('folds the function tree away and brings it back with its button', async () => {
    stubApps();
    const user = userEvent.setup();
    open('/workbench/app/crm');
    expect(await screen.findByRole('navigation', { name: '功能菜单' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '收起功能菜单' }));
    await waitFor(() => expect(screen.queryByRole('navigation', { name: '功能菜单' })).toBeNull());
    // The open node stays open with the whole width.
    expect(screen.getByRole('heading', { name: '线索登记' })).toBeTruthy();
    expect(JSON.parse(localStorage.getItem(storageKey)!)).toEqual({ appList: false, functionTree: true });

    await user.click(screen.getByRole('button', { name: '展开功能菜单' }));
    expect(await screen.findByRole('navigation', { name: '功能菜单' })).toBeTruthy();
  });

  it("another person's folds in the same browser are theirs, not this user's", async () => {
    localStorage.setItem(paneFoldsStorageKey('alpha01', 'someone-else'), JSON.stringify({ appList: true, functionTree: true }));
    stubApps();
    open('/workbench/app/crm');
    expect(await screen.findByRole('navigation', { name: '功能菜单' })).toBeTruthy();
    expect(within(screen.getByRole('navigation', { name: '应用列表' })).getByText('我的应用')).toBeTruthy();
  });

  it('a new form opens in its designer', async () => {
    const { callsTo } = stubApps();
    const user = userEvent.setup();
    const { router } = open('/workbench/app/crm');
    await screen.findByRole('navigation', { name: '功能菜单' });
    await user.click(screen.getByRole('button', { name: '新建功能' }));
    await user.click(await screen.findByRole('menuitem', { name: '表单' }));
    const dialog = await findDialog('新建表单');
    await user.type(within(dialog).getByLabelText('名称'), '采购申请');
    await user.type(within(dialog).getByLabelText('编码'), 'f_purchase');
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(callsTo('POST', '/v1/functionnode')).toHaveLength(1));
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/form/designer?schemaCode=f_purchase'));
  });
});
