import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../../test/render.tsx';
import { ok } from '../../../test/fetch-stub.ts';
import { FormDesignerPage } from '../form-designer-page.tsx';
import { stubDesigner } from '../test/designer-fake.ts';

// 数据维护 is reached from the designer's 表单属性 pane and offers the draft's own fields for an index.

describe('数据维护 in the form designer', () => {
  it('opens from 表单属性 with the form\'s main-table fields and system fields to index, and the other tools as tabs', async () => {
    stubDesigner();
    const designerFetch = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) =>
      String(input).includes('/v1/formconfig/customindex/list') ? ok({ list: [], limits: { maxIndexes: 5, maxFieldsPerIndex: 5 } }) : designerFetch(input, init),
    );
    const user = userEvent.setup();
    renderPage('/form/designer', <FormDesignerPage />, '/form/designer?schemaCode=f_lead');
    await screen.findByRole('heading', { name: '线索登记' });
    await user.click(screen.getByRole('tab', { name: '表单属性' }));
    await user.click(screen.getByRole('button', { name: /数据维护/ }));

    expect(await screen.findByText('每个表单最多 5 个索引，每个索引最多 5 个字段（已建 0 个）')).toBeTruthy();
    await user.click(screen.getByLabelText('索引字段'));
    await screen.findAllByTitle('客户名称');
    const offered = within(document.querySelector('.ant-select-dropdown') as HTMLElement);
    expect(offered.getByTitle('客户名称')).toBeTruthy();
    expect(offered.getByTitle('来源')).toBeTruthy();
    expect(offered.getByTitle('创建人')).toBeTruthy();
    // A sub-table and its columns are not columns of the main table.
    expect(offered.queryByTitle('联系人')).toBeNull();
    expect(offered.queryByTitle('姓名')).toBeNull();
    const drawer = screen.getByRole('dialog');
    expect(within(drawer).getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['自定义索引', '流水号', '重新计算汇总']);
  });
});
