import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WorkbenchPage } from '../workbench/workbench-page.tsx';
import { resetTokenRefresh } from '../workbench/hooks/use-token-refresh.ts';
import { renderPage } from '../../test/render.tsx';
import { setEngineCode, setToken } from '../../lib/session.ts';
import { findDialog } from '../../test/find-dialog.ts';
import { stubApps } from './test/apps-fake.ts';
import { preloadWorkbenchPages } from '../workbench/components/pc-workbench.tsx';

// The workbench's pages are loaded lazily; a first load of their modules here is slow (pc-workbench.tsx).
beforeAll(preloadWorkbenchPages);

const encode = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '');
const youngToken = `${encode({ alg: 'HS256' })}.${encode({ iat: Math.floor(Date.now() / 1000) - 60 })}.sig`;
const open = (path: string) => renderPage('/workbench/*', <WorkbenchPage />, path);
const appList = () => screen.getByRole('navigation', { name: '应用列表' });

describe('apps on the workbench', () => {
  beforeEach(() => {
    resetTokenRefresh();
    setToken(youngToken);
    setEngineCode('alpha01');
  });

  it('lists the apps and opens one at its default node; groups stay folded except the one holding it', async () => {
    const { callsTo } = stubApps();
    open('/workbench/app/crm');
    expect(await within(await screen.findByRole('navigation', { name: '应用列表' })).findByRole('link', { name: '客户管理' })).toBeTruthy();
    const tree = await screen.findByRole('navigation', { name: '功能菜单' });
    expect(await screen.findByRole('heading', { name: '线索登记' })).toBeTruthy();
    expect(await screen.findByText(/表单尚未发布/)).toBeTruthy();
    expect(screen.getByRole('button', { name: /设计表单/ })).toBeTruthy();
    expect(within(tree).getByRole('button', { name: '销售线索' }).getAttribute('aria-expanded')).toBe('true');
    expect(within(tree).getByRole('button', { name: '合同管理' }).getAttribute('aria-expanded')).toBe('false');
    expect(within(tree).queryByText('合同统计')).toBeNull();
    // The list is asked for without trees; the app's tree comes from feature/list; the visit is recorded.
    expect(callsTo('GET', '/v1/functionnode/app/list')[0].url).toContain('withChildren=false');
    await waitFor(() => expect(callsTo('POST', '/v1/workbench/visit').map((c) => c.body)).toContainEqual({ code: 'crm' }));
  });

  it('creates an app: checks the name here, shows a taken code under the field, then opens the new app', async () => {
    const { callsTo } = stubApps();
    const user = userEvent.setup();
    const { router } = open('/workbench');
    await user.click(await within(await screen.findByRole('navigation', { name: '应用列表' })).findByRole('button', { name: /新建应用/ }));
    const dialog = await findDialog('新建应用');
    await user.type(within(dialog).getByLabelText('名称'), '采');
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await within(dialog).findByText('名称须为2-32个字符')).toBeTruthy();
    expect(callsTo('POST', '/v1/functionnode')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('名称'), '购管理');
    await user.type(within(dialog).getByLabelText('编码'), 'CRM');
    await user.click(within(dialog).getByRole('radio', { name: 'cart' }));
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await within(dialog).findByText('编码已被使用，请换一个')).toBeTruthy();

    await user.clear(within(dialog).getByLabelText('编码'));
    await user.type(within(dialog).getByLabelText('编码'), 'purchase');
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/workbench/app/purchase'));
    expect(callsTo('POST', '/v1/functionnode').at(-1)!.body).toEqual({ nodeType: 190, displayName: '采购管理', code: 'purchase', icon: 'cart', iconColor: '#1f6fff' });
    expect(await within(appList()).findByRole('link', { name: '采购管理' })).toBeTruthy();
  });

  it('移动到… checks the move first, then puts the node last in the chosen group', async () => {
    const { callsTo, nodes } = stubApps();
    const user = userEvent.setup();
    open('/workbench/app/crm');
    const tree = await screen.findByRole('navigation', { name: '功能菜单' });
    await user.click(await within(tree).findByRole('button', { name: '「跟进记录」的操作' }));
    await user.click(await screen.findByRole('menuitem', { name: /移动到/ }));
    const dialog = await findDialog('移动「跟进记录」');
    await user.click(within(dialog).getByRole('combobox'));
    await user.click(await screen.findByTitle('合同管理'));
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(callsTo('POST', '/v1/functionnode/move')).toHaveLength(1));
    expect(callsTo('POST', '/v1/functionNode/checkmove')[0].body).toEqual({ code: 'f_follow', parentCode: 'g_contract', preCode: 'r_contract' });
    expect(callsTo('POST', '/v1/functionnode/move')[0].body).toEqual({ code: 'f_follow', parentCode: 'g_contract', preCode: 'r_contract' });
    expect(nodes().find((n) => n.code === 'f_follow')!.parentCode).toBe('g_contract');
  });

  it('停用 disables a node (shown struck through) and 启用 brings it back', async () => {
    const { callsTo } = stubApps();
    const user = userEvent.setup();
    open('/workbench/app/crm');
    const tree = await screen.findByRole('navigation', { name: '功能菜单' });
    await user.click(await within(tree).findByRole('button', { name: '「跟进记录」的操作' }));
    await user.click(await screen.findByRole('menuitem', { name: /停用/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/functionnode/update')[0]?.body).toEqual({ code: 'f_follow', state: 'Disabled' }));
    await waitFor(() => expect(within(tree).getByText('跟进记录').closest('del')).toBeTruthy());
    await user.click(within(tree).getByRole('button', { name: '「跟进记录」的操作' }));
    await user.click(await screen.findByRole('menuitem', { name: /启用/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/functionnode/update')[1]?.body).toEqual({ code: 'f_follow', state: 'Normal' }));
  });

  it('copies an app with a progress bar; a copy that timed out may be retried', async () => {
    const { callsTo } = stubApps({ copyScript: [{ state: 'Running', progress: 40 }, { state: 'Timeout', progress: 40 }, { state: 'Running', progress: 60 }, { state: 'Finished', progress: 100 }] });
    const user = userEvent.setup();
    open('/workbench');
    await user.click(await within(await screen.findByRole('navigation', { name: '应用列表' })).findByRole('button', { name: '「客户管理」的操作' }));
    await user.click(await screen.findByRole('menuitem', { name: /复制应用/ }));
    const dialog = await findDialog('复制应用「客户管理」');
    await waitFor(() => expect(within(dialog).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40'));
    expect(await within(dialog).findByText(/复制中断/, {}, { timeout: 3000 })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: '重试' }));
    expect(callsTo('POST', '/v1/functionnode/copy/retry')[0].body).toEqual({ actionId: '01a20200-0000-7000-8000-000000000001' });
    expect(await within(dialog).findByText('复制完成，新应用「客户管理-副本」已加入应用列表。', {}, { timeout: 3000 })).toBeTruthy();
    expect(within(dialog).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(await within(appList()).findByRole('link', { name: '客户管理-副本' })).toBeTruthy();
  });

  it('deleting an app asks first and says everything in it goes', async () => {
    const { callsTo } = stubApps();
    const user = userEvent.setup();
    open('/workbench/app/crm');
    await user.click(await within(await screen.findByRole('navigation', { name: '应用列表' })).findByRole('button', { name: '「客户管理」的操作' }));
    await user.click(await screen.findByRole('menuitem', { name: /删除/ }));
    const confirm = await findDialog(/删除应用「客户管理」/);
    expect(within(confirm).getByText(/所有分组、表单、报表和链接将一并删除/)).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: '删除' }));
    await waitFor(() => expect(callsTo('POST', '/v1/functionnode/remove')[0]?.body).toEqual({ code: 'crm' }));
    await waitFor(() => expect(within(appList()).queryByRole('link', { name: '客户管理' })).toBeNull());
  });

  it('members see the apps but no way to create, reorder or change them', async () => {
    stubApps({ isAdministrator: false });
    open('/workbench/app/crm');
    const list = await screen.findByRole('navigation', { name: '应用列表' });
    expect(await within(list).findByRole('link', { name: '客户管理' })).toBeTruthy();
    await screen.findByRole('navigation', { name: '功能菜单' });
    expect(within(list).queryByRole('button', { name: /新建应用/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /拖动/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /的操作/ })).toBeNull();
    expect(screen.queryByRole('button', { name: '新建功能' })).toBeNull();
    expect(await screen.findByRole('heading', { name: '线索登记' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /设计表单/ })).toBeNull();
  });
});
