import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WorkbenchPage } from '../workbench/workbench-page.tsx';
import { resetTokenRefresh } from '../workbench/hooks/use-token-refresh.ts';
import { preloadWorkbenchPages } from '../workbench/components/pc-workbench.tsx';
import { renderPage } from '../../test/render.tsx';
import { findDialog } from '../../test/find-dialog.ts';
import { setEngineCode, setToken } from '../../lib/session.ts';
import { stubApps } from './test/apps-fake.ts';

// 单例表单 (node type 240, domain.md §3) among what an administrator may add to an app from the workbench's 新建 menu.

beforeAll(preloadWorkbenchPages);

const encode = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '');
const youngToken = `${encode({ alg: 'HS256' })}.${encode({ iat: Math.floor(Date.now() / 1000) - 60 })}.sig`;

describe('creating a singleton form', () => {
  beforeEach(() => {
    resetTokenRefresh();
    setToken(youngToken);
    setEngineCode('alpha01');
  });

  it('the 新建 menu offers 单例表单 after the forms; the new node is created with type 240 and opens in the designer', async () => {
    const { callsTo } = stubApps();
    const user = userEvent.setup();
    const { router } = renderPage('/workbench/*', <WorkbenchPage />, '/workbench/app/crm');
    await screen.findByRole('navigation', { name: '功能菜单' });
    await user.click(screen.getByRole('button', { name: '新建功能' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items.slice(0, 3)).toEqual(['表单', '流程表单', '单例表单']);
    await user.click(screen.getByRole('menuitem', { name: '单例表单' }));
    const dialog = await findDialog('新建单例表单');
    await user.type(within(dialog).getByLabelText('名称'), '公司信息');
    await user.type(within(dialog).getByLabelText('编码'), 's_company');
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(callsTo('POST', '/v1/functionnode')).toHaveLength(1));
    expect(callsTo('POST', '/v1/functionnode')[0].body).toMatchObject({ nodeType: 240, displayName: '公司信息', code: 's_company', appCode: 'crm' });
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/form/designer?schemaCode=s_company'));
  });
});
