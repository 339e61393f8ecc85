import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WorkbenchPage } from '../workbench-page.tsx';
import { resetTokenRefresh } from '../hooks/use-token-refresh.ts';
import { renderPage } from '../../../test/render.tsx';
import { findDialog } from '../../../test/find-dialog.ts';
import { setEngineCode, setToken } from '../../../lib/session.ts';
import { stubApps } from '../../apps/test/apps-fake.ts';

const encode = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '');
const youngToken = `${encode({ alg: 'HS256' })}.${encode({ iat: Math.floor(Date.now() / 1000) - 60 })}.sig`;

describe('自定义工作台', () => {
  beforeEach(() => {
    resetTokenRefresh();
    setToken(youngToken);
    setEngineCode('alpha01');
  });

  it('hides and adds blocks, saves the layout, and can restore the default', async () => {
    const { callsTo } = stubApps();
    const user = userEvent.setup();
    renderPage('/workbench/*', <WorkbenchPage />, '/workbench');
    await user.click(await screen.findByRole('button', { name: /自定义工作台/ }));
    const drawer = await findDialog('恢复默认');
    await user.click(within(drawer).getByRole('switch', { name: '显示「我的应用」' }));
    await user.click(within(drawer).getByRole('button', { name: '移除「最近访问」' }));
    await user.click(within(drawer).getByRole('button', { name: /添加模块/ }));
    await user.click(await screen.findByRole('menuitem', { name: '常用' }));
    await user.click(within(drawer).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(callsTo('POST', '/v1/workbench/saveconfig')).toHaveLength(1));
    const saved = callsTo('POST', '/v1/workbench/saveconfig')[0].body as { components: { type: string; visible: boolean; width: number }[] };
    expect(saved.components.map((c) => [c.type, c.visible, c.width])).toEqual([['appList', false, 4], ['shortcuts', true, 4]]);
    // The saved layout is what the home shows now: the app block hidden, 最近访问 gone, 常用 added.
    await waitFor(() => expect(screen.queryByText('我的应用', { selector: '.ant-card-head-title' })).toBeNull());
    expect(screen.queryByText('最近访问', { selector: '.ant-card-head-title' })).toBeNull();
    expect(screen.getByText('常用', { selector: '.ant-card-head-title' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /自定义工作台/ }));
    const again = await findDialog('恢复默认');
    await user.click(within(again).getByRole('button', { name: /恢复默认/ }));
    await waitFor(() => expect(within(again).getByRole('switch', { name: '显示「最近访问」' })).toBeTruthy());
    expect(within(again).getAllByRole('switch')).toHaveLength(2);
  });
});
