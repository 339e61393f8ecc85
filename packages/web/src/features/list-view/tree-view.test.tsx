import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../test/render.tsx';
import { findDialog } from '../../test/find-dialog.ts';
import { fail, ok, stubFetch } from '../../test/fetch-stub.ts';
import { ListView } from './components/list-view.tsx';

// The Hierarchy view and the view designer's new sections (docs/decisions/0023) against a fake server: a department
// form whose Parent field points to itself.

const definition = {
  attributes: { displayName: '部门', enableDataLog: false, enableFormSNS: false, enableTask: false },
  controls: [
    { type: 'textBox', code: 'Title', options: { displayName: '名称' } },
    { type: 'number', code: 'Size', options: { displayName: '人数' } },
    { type: 'associationQuery', code: 'Parent', options: { displayName: '上级部门', schemaCode: 'f_dept' } },
  ],
};
const FIELDS = [
  { code: 'Title', title: '名称', controlType: 'textBox', dataType: 'string', sortable: true, operators: ['Equal', 'Contains', 'IsBlank'] },
  { code: 'Size', title: '人数', controlType: 'number', dataType: 'decimal', sortable: true, operators: ['Equal', 'Above', 'Below', 'Between'] },
  { code: 'Parent', title: '上级部门', controlType: 'associationQuery', dataType: 'reference', sortable: false, operators: ['Equal', 'IsBlank'], targetSchemaCode: 'f_dept' },
];
const base = { scope: 3, rowHeight: 46, pageSize: 50, sort: [], filters: [], quickSearch: [], stats: [], actions: [], styleRules: [] };
const LIST = { ...base, code: 'All', title: '全部部门', mode: 0, columns: [{ field: 'Title' }, { field: 'Size' }] };
const TREE = { ...base, code: 'Tree', title: '组织架构', mode: 6, parentField: 'Parent', columns: [{ field: 'Title' }, { field: 'Size' }] };
const ID = (n: number) => `0192dddd-0000-7000-8000-00000000000${n}`;
const row = (n: number, title: string, size: number, childCount: number, parent: string | null = null) => ({ ObjectId: ID(n), Name: title, Title: title, Size: size, Parent: parent, $childCount: childCount });

function stub(views: unknown[], options: { deepRefused?: boolean } = {}) {
  return stubFetch({
    'POST /v1/form/loadsetting': () => ok({ notModified: false, timestamp: 1, schema: { schemaCode: 'f_dept', appCode: 'hr', displayName: '部门', nodeType: 200, version: 1, properties: [], childSchemas: [] }, definition }),
    'GET /v1/view/setting': () => ok({ schemaCode: 'f_dept', views, canDesign: true }),
    'GET /v1/page/header': (call) => {
      const code = new URL(call.url, 'http://localhost').searchParams.get('viewCode');
      const view = (views as { code: string; columns: { field: string }[] }[]).find((v) => v.code === code)!;
      return ok({ view, columns: view.columns.map((c) => ({ ...FIELDS.find((f) => f.code === c.field)!, width: null, fixed: null })), filters: [] });
    },
    'GET /v1/preference/view/list': () => ok({ list: [] }),
    'POST /v1/bizdata/view/query': () => ok({ list: [row(1, '总部', 100, 0)], total: 1, hasMore: false }),
    'POST /v1/bizdata/view/children': (call) => {
      const { parentId } = call.body as { parentId?: string | null };
      if (!parentId) return ok({ list: [row(1, '总部', 100, 2), row(2, '分部', 5, 0)], total: 2, hasMore: false, level: 1, parentField: 'Parent', viewTotal: 5 });
      if (parentId === ID(1)) return ok({ list: [row(3, '华东', 30, 1, ID(1)), row(4, '华北', 10, 0, ID(1))], total: 2, hasMore: false, level: 2, parentField: 'Parent' });
      if (options.deepRefused) return fail(290011, '层级视图最多支持10级、100000条数据，请缩小视图的筛选范围或联系管理员调整视图。');
      return ok({ list: [row(5, '上海', 8, 0, ID(3))], total: 1, hasMore: false, level: 3, parentField: 'Parent' });
    },
    'POST /v1/form/action/execute': () => ok({ objectId: ID(9), status: 1, seqNo: null, name: '杭州' }),
    'GET /v1/view/designer/load': () => ok({ schemaCode: 'f_dept', views, fields: FIELDS }),
    'POST /v1/view/designer/save': (call) => ok({ schemaCode: 'f_dept', views: (call.body as { views: unknown[] }).views, canDesign: true }),
  });
}

async function choose(combobox: HTMLElement, title: string) {
  fireEvent.mouseDown(combobox);
  const options = await screen.findAllByTitle(title);
  fireEvent.click(options.at(-1)!);
}
const rowOf = (text: string) => screen.getByText(text).closest('tr')!;
const expand = (text: string) => fireEvent.click(rowOf(text).querySelector('.ant-table-row-expand-icon')!);

describe('the hierarchy view', { timeout: 90_000 }, () => {
  it('shows the roots, loads children when a record is expanded, and adds a child under a record', async () => {
    const { callsTo } = stub([TREE]);
    const user = userEvent.setup();
    renderPage('/list', <ListView schemaCode="f_dept" />);
    await screen.findByText('总部', {}, { timeout: 20_000 });
    expect(callsTo('POST', '/v1/bizdata/view/query')).toHaveLength(0);
    expect(callsTo('POST', '/v1/bizdata/view/children')[0].body).toMatchObject({ schemaCode: 'f_dept', viewCode: 'Tree', parentId: null, pageIndex: 0, pageSize: 50 });
    expect(screen.getByText('共2条顶级数据，视图共5条')).toBeTruthy();
    // Only a record with children can open.
    expect(rowOf('分部').querySelector('.ant-table-row-expand-icon-spaced')).toBeTruthy();
    expand('总部');
    expect(await screen.findByText('华东')).toBeTruthy();
    expect(callsTo('POST', '/v1/bizdata/view/children').at(-1)!.body).toMatchObject({ parentId: ID(1), pageSize: 50 });
    expand('华东');
    expect(await screen.findByText('上海')).toBeTruthy();

    await user.click(within(rowOf('华北')).getByRole('button', { name: /添加下级/ }));
    const dialog = await findDialog('添加下级数据');
    expect(within(dialog).getByText('上级：华北')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('名称'), '天津');
    await user.click(within(dialog).getByRole('button', { name: /^保\s*存$/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/form/action/execute')).toHaveLength(1));
    expect(callsTo('POST', '/v1/form/action/execute')[0].body).toEqual({ schemaCode: 'f_dept', actionCode: 'Submit', values: { Title: '天津', Parent: ID(4) } });
  });

  it("says why a level past the limit cannot open, with the server's message", async () => {
    stub([TREE], { deepRefused: true });
    renderPage('/list', <ListView schemaCode="f_dept" />);
    await screen.findByText('总部', {}, { timeout: 20_000 });
    expand('总部');
    await screen.findByText('华东');
    expand('华东');
    expect(await screen.findByText(/层级视图最多支持10级、100000条数据/)).toBeTruthy();
  });
});

describe('the view designer', { timeout: 90_000 }, () => {
  it('makes a view a hierarchy on its parent field and gives it a fixed filter by field, operator and value', async () => {
    const { callsTo } = stub([LIST]);
    const user = userEvent.setup();
    renderPage('/list', <ListView schemaCode="f_dept" />);
    await screen.findByText('总部', {}, { timeout: 20_000 });
    await user.click(screen.getByRole('button', { name: /设计视图/ }));
    const dialog = await findDialog('设计视图');
    await user.click(await within(dialog).findByText('层级'));
    // The only association of the form to itself is chosen at once.
    expect(within(dialog).getByTitle('上级部门')).toBeTruthy();
    const filter = within(dialog).getByRole('group', { name: '固定筛选条件' });
    await user.click(within(filter).getByRole('button', { name: /添加条件/ }));
    await choose(within(filter).getByLabelText('第1个条件的字段'), '人数');
    await choose(within(filter).getByLabelText('第1个条件的比较方式'), '大于');
    await user.type(within(filter).getByLabelText('第1个条件的值'), '5');
    await user.click(within(dialog).getByRole('button', { name: /^保\s*存$/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/view/designer/save')).toHaveLength(1));
    const saved = (callsTo('POST', '/v1/view/designer/save')[0].body as { views: any[] }).views[0];
    expect(saved).toMatchObject({ mode: 6, parentField: 'Parent', filter: { type: 'And', children: [{ field: 'Size', operator: 'Above', value: 5 }] } });
  });
});
