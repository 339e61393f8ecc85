import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STYLE_PALETTE } from '@tritium/shared/constants/formats';
import { renderPage } from '../../test/render.tsx';
import { findDialog } from '../../test/find-dialog.ts';
import { ListView } from './components/list-view.tsx';
import { ROWS, stubListView } from './test/list-view-fake.ts';
import { ok } from '../../test/fetch-stub.ts';

async function openList(options: Parameters<typeof stubListView>[0] = {}) {
  const stub = stubListView(options);
  const user = userEvent.setup();
  renderPage('/list', <ListView schemaCode="f_order" />);
  await screen.findByText('大单', {}, { timeout: 20_000 });
  const queries = () => stub.callsTo('POST', '/v1/bizdata/view/query').map((c) => c.body as Record<string, any>);
  return { ...stub, user, queries };
}

/** Picks an option of an antd select by its visible title. */
async function choose(combobox: HTMLElement, title: string) {
  fireEvent.mouseDown(combobox);
  const options = await screen.findAllByTitle(title);
  fireEvent.click(options.at(-1)!);
}

const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

describe('the list view', { timeout: 90_000 }, () => {
  it("shows the view's columns, names, statistics and style colours, and sorts by a sortable header", async () => {
    const { user, queries } = await openList();
    expect(screen.getByRole('tab', { name: '全部订单' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: '我的订单' })).toBeTruthy();
    expect(queries()[0]).toMatchObject({ schemaCode: 'f_order', viewCode: 'All', pageIndex: 0, pageSize: 20, withStats: true, keyword: '', filter: { type: 'And', children: [] } });
    expect(within(rowOf('大单')).getByText('300.00')).toBeTruthy();
    expect(await within(rowOf('大单')).findByText('张三')).toBeTruthy();
    expect(within(rowOf('小单')).getByText('--')).toBeTruthy();
    // Amount above 100: the row takes palette colour 12; the compact row height of the view.
    expect(rowOf('大单').style.background).toBe(STYLE_PALETTE[12]);
    expect(rowOf('小单').style.background).toBe('');
    expect(rowOf('大单').style.height).toBe('36px');
    expect(screen.getByText('合计 312.50')).toBeTruthy();

    await user.click(screen.getByRole('columnheader', { name: '金额' }));
    await waitFor(() => expect(queries().at(-1)!.sort).toEqual([{ field: 'Amount', direction: 'asc' }]));
    await user.click(screen.getByRole('columnheader', { name: '金额' }));
    await waitFor(() => expect(queries().at(-1)!.sort).toEqual([{ field: 'Amount', direction: 'desc' }]));
    // People columns do not sort.
    await user.click(screen.getByRole('columnheader', { name: '关注人' }));
    expect(queries().at(-1)!.sort).toEqual([{ field: 'Amount', direction: 'desc' }]);

    await user.click(screen.getByRole('tab', { name: '我的订单' }));
    await waitFor(() => expect(queries().at(-1)).toMatchObject({ viewCode: 'Mine', pageSize: 50, withStats: false }));
    expect(queries().at(-1)!.sort).toBeUndefined();
  });

  it('filters with the offered fields and the operators of their type, and searches', async () => {
    const { user, queries } = await openList();
    await user.click(screen.getByRole('button', { name: /筛选/ }));
    const panel = await screen.findByRole('group', { name: '筛选' });
    await user.click(within(panel).getByRole('button', { name: /添加条件/ }));
    await choose(within(panel).getByLabelText('第1个条件的字段'), '金额');
    fireEvent.mouseDown(within(panel).getByLabelText('第1个条件的比较方式'));
    await screen.findAllByTitle('大于');
    const dropdowns = [...document.querySelectorAll('.ant-select-dropdown')];
    const operators = [...dropdowns.at(-1)!.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent);
    expect(operators).toEqual(expect.arrayContaining(['等于', '大于', '小于', '介于', '为空']));
    expect(operators).not.toContain('包含');
    fireEvent.click((await screen.findAllByTitle('大于')).at(-1)!);
    await user.type(within(panel).getByLabelText('第1个条件的值'), '100');
    await user.click(within(panel).getByRole('button', { name: /^筛\s*选$/ }));
    await waitFor(() => expect(queries().at(-1)!.filter).toEqual({ type: 'And', children: [{ field: 'Amount', operator: 'Above', value: 100 }] }));

    await user.type(screen.getByLabelText('搜索'), '大{Enter}');
    await waitFor(() => expect(queries().at(-1)).toMatchObject({ keyword: '大', filter: { children: [{ field: 'Amount' }] }, pageIndex: 0 }));
  });

  it('saves what the user sees as a personal view, opens it, and deletes it', async () => {
    const { user, queries, callsTo } = await openList();
    await user.click(screen.getByRole('columnheader', { name: '金额' }));
    await user.type(screen.getByLabelText('搜索'), '大{Enter}');
    await waitFor(() => expect(queries().at(-1)!.keyword).toBe('大'));
    await user.click(screen.getByRole('button', { name: /另存为视图/ }));
    const dialog = await findDialog('另存为视图');
    await user.type(within(dialog).getByLabelText('视图名称'), '大额订单');
    await user.click(within(dialog).getByRole('button', { name: /确/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/preference/view/addView')).toHaveLength(1));
    expect(callsTo('POST', '/v1/preference/view/addView')[0].body).toEqual({
      schemaCode: 'f_order', ViewPageId: 'All', Title: '大额订单', Fields: ['Title', 'Amount', 'Level', 'Watchers'],
      Config: { keyword: '大', sort: [{ field: 'Amount', direction: 'asc' }] },
    });
    const tab = await screen.findByRole('tab', { name: /大额订单/ });
    await waitFor(() => expect(tab.getAttribute('aria-selected')).toBe('true'));
    await waitFor(() => expect(queries().at(-1)).toMatchObject({ personalViewId: '0192bbbb-0000-7000-8000-000000000001', keyword: '大', sort: [{ field: 'Amount', direction: 'asc' }] }));

    await user.click(screen.getByRole('button', { name: '视图“大额订单”的操作' }));
    await user.click(await screen.findByRole('menuitem', { name: '删除视图' }));
    await waitFor(() => expect(callsTo('POST', '/v1/preference/view/deleteView')[0]?.body).toEqual({ Id: '0192bbbb-0000-7000-8000-000000000001' }));
    await waitFor(() => expect(screen.queryByRole('tab', { name: /大额订单/ })).toBeNull());
  });

  it('edits the selected records in a batch job with progress and shows what was refused', async () => {
    const { user, callsTo } = await openList();
    expect(screen.getByRole('button', { name: /批量修改/ }).hasAttribute('disabled')).toBe(true);
    await user.click(within(rowOf('大单')).getByRole('checkbox'));
    await user.click(within(rowOf('小单')).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: /批量修改/ }));
    const dialog = await findDialog('批量修改（已选 2 条）');
    await choose(within(dialog).getByLabelText('要修改的字段'), '等级');
    await choose(within(dialog).getByLabelText('修改为'), '低');
    await user.click(within(dialog).getByRole('button', { name: '开始修改' }));
    await waitFor(() => expect(callsTo('POST', '/v1/bizdata/batchupdate')).toHaveLength(1));
    expect(callsTo('POST', '/v1/bizdata/batchupdate')[0].body).toEqual({ schemaCode: 'f_order', viewCode: 'All', objectIds: ROWS.map((r) => r.ObjectId), field: 'Level', value: '低' });
    expect(await within(dialog).findByText('已修改 1 条，1 条未能修改', {}, { timeout: 4000 })).toBeTruthy();
    expect(within(dialog).getByText(/只有数据的创建人/)).toBeTruthy();
    expect(callsTo('POST', '/v1/bizdata/batchupdate/progress').length).toBeGreaterThanOrEqual(2);
  });

  it('changes the owner of the selected records to a person picked in the org picker', async () => {
    const person = { id: 'u3', parentId: 'd1', name: '王五', hasChild: false, state: 'active', isExternal: false, entryId: null, unitType: 'User', nodeType: 'user', mobile: null, authType: 3, parentName: '销售部' };
    const found = () => ok({ list: [person], total: 1, hasMore: false });
    const { user, callsTo } = await openList({
      handlers: {
        'POST /v1/org/search': found,
        'POST /v1/org/list': found,
        'POST /v1/bizdata/owner/change': () => ok({ changed: 2 }),
      },
    });
    const button = screen.getByRole('button', { name: /修改拥有者/ });
    expect(button.hasAttribute('disabled')).toBe(true);
    await user.click(within(rowOf('大单')).getByRole('checkbox'));
    await user.click(within(rowOf('小单')).getByRole('checkbox'));
    await user.click(button);
    const dialog = await findDialog('选择新的拥有者');
    await user.type(within(dialog).getByLabelText('搜索', { exact: true }), 'ww');
    await user.click(await within(dialog).findByRole('checkbox', { name: /王五/ }));
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(callsTo('POST', '/v1/bizdata/owner/change')).toHaveLength(1));
    expect(callsTo('POST', '/v1/bizdata/owner/change')[0].body).toEqual({ schemaCode: 'f_order', objectIds: ROWS.map((r) => r.ObjectId), ownerId: 'u3' });
    expect(await screen.findByText('已修改 2 条数据的拥有者')).toBeTruthy();
  });

  it('deletes the selected records after a confirmation', async () => {
    const { user, callsTo } = await openList();
    await user.click(within(rowOf('小单')).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: /删\s*除/ }));
    expect(callsTo('POST', '/v1/bizdata/view/delete')).toHaveLength(0);
    await screen.findByText('确定删除选中的 1 条数据吗？');
    await user.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/bizdata/view/delete')[0]?.body).toEqual({ schemaCode: 'f_order', objectIds: [ROWS[1].ObjectId] }));
  });

  it('runs a list button of the form’s code with the selected records, then reads the list again', async () => {
    const { user, callsTo, queries } = await openList();
    await user.click(within(rowOf('小单')).getByRole('checkbox'));
    const before = queries().length;
    await user.click(screen.getByRole('button', { name: /关闭订单/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/codeeditor/listaction')[0]?.body).toEqual({ schemaCode: 'f_order', actionName: 'close', objectIds: [ROWS[1].ObjectId] }));
    await screen.findByText('「关闭订单」已运行完成');
    await waitFor(() => expect(queries().length).toBeGreaterThan(before));
  });

  it('offers the designer to administrators of the app only, and saves the views from it', async () => {
    const member = await openList();
    expect(screen.queryByRole('button', { name: /设计视图/ })).toBeNull();
    member.fetchMock.mockReset();
    document.body.innerHTML = '';
    const { user, callsTo } = await openList({ canDesign: true });
    await user.click(screen.getByRole('button', { name: /设计视图/ }));
    const dialog = await findDialog('设计视图');
    const title = await within(dialog).findByLabelText('视图名称');
    await user.clear(title);
    await user.type(title, '所有订单');
    await user.click(within(dialog).getByRole('button', { name: /添加样式规则/ }));
    await user.click(within(dialog).getByRole('button', { name: /^保\s*存$/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/view/designer/save')).toHaveLength(1));
    const body = callsTo('POST', '/v1/view/designer/save')[0].body as { views: any[] };
    expect(body.views.map((v) => v.title)).toEqual(['所有订单', '我的订单']);
    expect(body.views[0].styleRules).toHaveLength(2);
    expect(body.views[0].styleRules[1]).toEqual({ filter: { field: 'Title', operator: 'Equal' }, color: 0 });
  });
});
