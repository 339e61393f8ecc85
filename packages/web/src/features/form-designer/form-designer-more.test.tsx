import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../test/render.tsx';
import { findDialog } from '../../test/find-dialog.ts';
import { FormDesignerPage } from './form-designer-page.tsx';
import { stubDesigner } from './test/designer-fake.ts';
import { preloadWorkbenchPages } from '../workbench/components/pc-workbench.tsx';

// The workbench's pages are loaded lazily; a first load of their modules here is slow (pc-workbench.tsx).
beforeAll(preloadWorkbenchPages);

describe('choosing the form an association points to', () => {
  it('offers the forms of this app by name, finds others by keyword, and stores the chosen schema code', async () => {
    const { callsTo, saved } = stubDesigner();
    const user = userEvent.setup();
    renderPage('/form/designer', <FormDesignerPage />, '/form/designer?schemaCode=f_lead');
    await screen.findByRole('heading', { name: '线索登记' });
    await user.click(within(screen.getByRole('navigation', { name: '控件库' })).getByRole('button', { name: '关联表单' }));
    const properties = screen.getByRole('complementary', { name: '属性' });
    const picker = within(properties).getByLabelText('关联表单');
    await user.click(picker);
    // This app's forms (not its report), named, with their codes.
    expect(await screen.findByTitle('客户档案（f_customer）')).toBeTruthy();
    expect(screen.queryByTitle(/销售报表/)).toBeNull();
    await user.type(picker, '合同');
    await waitFor(() => expect(callsTo('POST', '/v1/functionnode/list/bykeyword').at(-1)?.body).toEqual({ keyword: '合同', nodeTypes: [200, 210, 240] }));
    await user.click(await screen.findByTitle('合同（f_contract）'));
    await user.click(screen.getByRole('button', { name: /保存/ }));
    await waitFor(() => expect(saved).toHaveLength(1));
    const controls = (saved[0].body as { definition: { controls: { type: string; options: { schemaCode?: string } }[] } }).definition.controls;
    expect(controls.find((c) => c.type === 'associationQuery')!.options.schemaCode).toBe('f_contract');
  });
});

describe('leaving the designer', () => {
  it('with unsaved changes asks first; staying keeps the changes, leaving goes', async () => {
    stubDesigner();
    const user = userEvent.setup();
    const { router } = renderPage('/form/designer', <FormDesignerPage />, '/form/designer?schemaCode=f_lead');
    await screen.findByRole('heading', { name: '线索登记' });
    await user.click(within(screen.getByRole('navigation', { name: '控件库' })).getByRole('button', { name: '数值' }));
    await user.click(screen.getByRole('button', { name: '返回应用' }));
    const ask = await findDialog('离开表单设计？');
    await user.click(within(ask).getByRole('button', { name: '留下' }));
    expect(router.state.location.pathname).toBe('/form/designer');
    expect(screen.getByRole('status', { name: '保存状态' }).textContent).toBe('有未保存的修改');
    await user.click(screen.getByRole('button', { name: '返回应用' }));
    // The newest question (the first one may still be closing).
    await user.click((await screen.findAllByRole('button', { name: '不保存，离开' })).at(-1)!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/workbench/app/crm/f_lead'));
  });
});

describe('controls that need an outside service', () => {
  it('say so on the canvas', async () => {
    stubDesigner();
    const user = userEvent.setup();
    renderPage('/form/designer', <FormDesignerPage />, '/form/designer?schemaCode=f_lead');
    await screen.findByRole('heading', { name: '线索登记' });
    await user.click(within(screen.getByRole('navigation', { name: '控件库' })).getByRole('button', { name: 'OCR识别' }));
    const card = within(screen.getByRole('region', { name: '画布' })).getByRole('listitem', { name: 'OCR识别' });
    expect(within(card).getByText('需配置服务')).toBeTruthy();
    expect(within(within(screen.getByRole('region', { name: '画布' })).getByRole('listitem', { name: '客户名称' })).queryByText('需配置服务')).toBeNull();
  });
});
