import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, ok, stubFetch } from '../../test/fetch-stub.ts';
import { renderPage } from '../../test/render.tsx';
import { setEngineCode, setToken } from '../../lib/session.ts';
import { findForeignText } from '../../test/zh-cn-text-check.ts';
import { ImportPackageDialog } from './import-package-dialog.tsx';

// 导入应用包 against a fake server (docs/decisions/0130): the file's bytes go up as the body, what it holds is shown
// with its roles matched or not, a form outside the app must be mapped before 安装, then the progress and 打开应用.

const summary = { name: '订单管理', icon: '', formatVersion: 1, formCount: 2, nodeCount: 3, sampleRecordCount: 8, fileCount: 0, externalForms: [{ code: 'Product', name: '产品' }], roles: ['销售'], departments: ['销售部'] };

describe('importing an app package', () => {
  it('uploads the file, maps the form outside the app, installs with progress and opens the app', async () => {
    let polls = 0;
    const { callsTo } = stubFetch({
      'POST /v1/app-package/upload': () => ok({ packageId: '0190c6f5-0000-7000-8000-0000000000aa', summary, problems: [] }),
      'POST /v1/app-package/info': () => ok({ packageId: 'p', summary, roles: [{ name: '销售', matched: '销售' }], departments: [{ name: '销售部', matched: null }] }),
      'GET /v1/functionnode/app/list': () => ok({ list: [{ code: 'Base', displayName: '基础数据', children: [] }] }),
      'GET /v1/functionNode/app/feature/list': () => ok({ list: [{ code: 'Goods', displayName: '商品', nodeType: 200 }, { code: 'Board', displayName: '看板', nodeType: 270 }] }),
      'POST /v1/app-package/install': () => ok({ actionId: '0190c6f5-0000-7000-8000-0000000000bb' }),
      'GET /v1/app-package/install/progress': () => {
        polls += 1;
        return ok(polls < 2 ? { actionId: 'a', isComplete: false, state: 'Running', progress: 40, message: '发布表单 1/2' } : { actionId: 'a', isComplete: true, state: 'Finished', progress: 100, message: '发布应用', appCode: 'App_new', unmatched: ['销售部'] });
      },
    });
    setToken('t1');
    setEngineCode('alpha01');
    const opened = vi.fn();
    const user = userEvent.setup();
    renderPage('/workbench', <ImportPackageDialog onClose={() => undefined} onOpenApp={opened} />);
    const dialog = await screen.findByRole('dialog', { name: '导入应用包' });
    const file = new File([new Uint8Array([31, 139, 8, 0])], '订单管理.tritium-app.tar.gz', { type: 'application/gzip' });
    await user.upload(dialog.querySelector('input[type=file]') as HTMLInputElement, file);
    await within(dialog).findByText('订单管理');
    expect(callsTo('POST', '/v1/app-package/upload')[0]!.body).toBeInstanceOf(File);
    expect(callsTo('POST', '/v1/app-package/upload')[0]!.headers.authorization).toBe('Bearer t1');
    expect(within(dialog).getByText('8 条')).toBeTruthy();
    expect(within(dialog).getByText('销售部（未匹配，安装后由管理员设置）')).toBeTruthy();
    expect(findForeignText(dialog.textContent ?? '')).toEqual([]);
    // 安装 waits for the form outside the app to be mapped.
    const install = within(dialog).getByRole('button', { name: /^安\s*装$/ });
    expect(install.hasAttribute('disabled')).toBe(true);
    await user.click(within(dialog).getByRole('combobox', { name: '应用外的表单「产品」对应：' }));
    await user.click(await screen.findByText('基础数据 / 商品'));
    await waitFor(() => expect(install.hasAttribute('disabled')).toBe(false));
    await user.click(install);
    await waitFor(() => expect(callsTo('POST', '/v1/app-package/install')[0]?.body).toEqual({ packageId: '0190c6f5-0000-7000-8000-0000000000aa', sampleData: true, formMapping: { Product: 'Goods' } }));
    await user.click(await within(dialog).findByRole('button', { name: '打开应用' }, { timeout: 5000 }));
    expect(within(dialog).getByText(/以下角色或部门在本组织中没有同名的.*销售部/)).toBeTruthy();
    expect(opened).toHaveBeenCalledWith('App_new');
  });

  it('shows why a file was refused, and installs nothing', async () => {
    const { callsTo } = stubFetch({
      'POST /v1/app-package/upload': () => fail(500002, '应用包已被改动或损坏：package.json 的校验值不符'),
    });
    setToken('t1');
    setEngineCode('alpha01');
    const user = userEvent.setup();
    renderPage('/workbench', <ImportPackageDialog onClose={() => undefined} onOpenApp={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: '导入应用包' });
    await user.upload(dialog.querySelector('input[type=file]') as HTMLInputElement, new File([new Uint8Array([1, 2, 3])], 'x.tar.gz'));
    expect(await within(dialog).findByText('应用包已被改动或损坏：package.json 的校验值不符')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: /^安\s*装$/ }).hasAttribute('disabled')).toBe(true);
    expect(callsTo('POST', '/v1/app-package/install')).toEqual([]);
  });
});
