import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, ok, type RecordedCall } from '../../test/fetch-stub.ts';
import { renderRoutes } from '../../test/render.tsx';
import { findDialog } from '../../test/find-dialog.ts';
import { setEngineCode, setToken } from '../../lib/session.ts';
import { AdminFrame } from './admin-frame.tsx';
import { OrgAdminPage } from './org-admin-page.tsx';
import { EAST, SALES, orgUser, stubConsole } from './test/org-fixtures.ts';

function renderConsole() {
  setToken('t1');
  setEngineCode('alpha01');
  return renderRoutes(
    [
      { path: '/admin', element: <AdminFrame />, children: [{ path: 'org', element: <OrgAdminPage /> }] },
      { path: '*', element: <div>elsewhere-stub</div> },
    ],
    '/admin/org',
  );
}

const bodies = (calls: RecordedCall[]) => calls.map((c) => c.body as Record<string, unknown>);
const tree = () => screen.getByRole('tree', { name: '部门树' });
const treeItem = (name: string) => within(tree()).getAllByRole('treeitem').find((item) => item.querySelector('.ant-typography')?.textContent === name);

async function openMenu(user: ReturnType<typeof userEvent.setup>, department: string, item: string) {
  await user.click(await screen.findByRole('button', { name: `${department} 的操作` }));
  await user.click(await screen.findByRole('menuitem', { name: item }));
}

describe('organisation console', () => {
  it('a member who is not an administrator sees a 403 page and no organisation call is made', async () => {
    const { callsTo } = stubConsole({}, { isAdmin: false });
    renderConsole();
    expect(await screen.findByText('没有访问权限')).toBeTruthy();
    expect(screen.getByRole('button', { name: '返回工作台' })).toBeTruthy();
    expect(callsTo('POST', '/v1/org/department/list')).toHaveLength(0);
    expect(callsTo('POST', '/v1/org/user/list')).toHaveLength(0);
  });

  it('lists the members of the selected department page by page (pageIndex from 0, 50 a page) and searches them', async () => {
    const { callsTo } = stubConsole();
    const user = userEvent.setup();
    renderConsole();
    expect(await screen.findByText('成员1')).toBeTruthy();
    const lists = () => bodies(callsTo('POST', '/v1/org/user/list'));
    expect(lists()[0]).toEqual({ departmentId: 'c1', state: 'all', pageIndex: 0, pageSize: 50 });
    expect(screen.getByText('共 120 人')).toBeTruthy();

    await user.click(screen.getByTitle('2'));
    await waitFor(() => expect(lists().at(-1)).toEqual({ departmentId: 'c1', state: 'all', pageIndex: 1, pageSize: 50 }));
    expect(await screen.findByText('成员51')).toBeTruthy();

    // Another page size starts again at the first page; the sizes are the spec's from 10 up.
    fireEvent.mouseDown(screen.getByRole('combobox'));
    const sizes = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(sizes).toEqual(['10 条/页', '20 条/页', '50 条/页', '100 条/页', '200 条/页', '500 条/页']);
    fireEvent.click(screen.getByTitle('20 条/页'));
    await waitFor(() => expect(lists().at(-1)).toEqual({ departmentId: 'c1', state: 'all', pageIndex: 0, pageSize: 20 }));

    await user.type(screen.getByLabelText('搜索成员'), 'zs{Enter}');
    await waitFor(() => expect(lists().at(-1)).toEqual({ departmentId: 'c1', keyword: 'zs', state: 'all', pageIndex: 0, pageSize: 20 }));

    // Choosing another department lists its members from the first page, without the search.
    await user.click(within(treeItem('销售部')!).getByText('销售部'));
    await waitFor(() => expect(lists().at(-1)).toEqual({ departmentId: 'd1', state: 'all', pageIndex: 0, pageSize: 20 }));
    expect(screen.getByRole('heading', { name: '销售部' })).toBeTruthy();
  });

  it('a move the server refuses shows its message and puts the department back', async () => {
    let answer: (response: Response) => void = () => {};
    const { callsTo } = stubConsole({
      'POST /v1/org/department/move': () => new Promise<Response>((resolve) => (answer = resolve)),
      'POST /v1/org/search': () => ok({ list: [{ ...EAST, mobile: null, authType: null, parentName: '销售部' }], total: 1, hasMore: false }),
      'POST /v1/org/list': () => ok({ list: [], total: 0, hasMore: false }),
    });
    const user = userEvent.setup();
    renderConsole();
    await screen.findByText('成员1');
    await waitFor(() => expect(treeItem('销售部')).toBeTruthy());

    // 移动到… is the keyboard's way to what dragging does: 销售部 under its own 华东组.
    await openMenu(user, '销售部', '移动到…');
    const picker = await findDialog('把「销售部」移动到');
    await user.type(within(picker).getByLabelText('搜索', { exact: true }), 'hd');
    await user.click(await within(picker).findByRole('checkbox', { name: /华东组/ }));
    await user.click(within(picker).getByRole('button', { name: '确定' }));

    await waitFor(() => expect(callsTo('POST', '/v1/org/department/move')).toHaveLength(1));
    expect(callsTo('POST', '/v1/org/department/move')[0].body).toEqual({ id: SALES.id, parentId: EAST.id });
    // Shown moved at once, while the server thinks.
    await waitFor(() => expect(treeItem('销售部')).toBeUndefined());
    answer(fail(220002, '不能把部门移动到它自己或它的下级部门之下'));
    expect(await screen.findByText('不能把部门移动到它自己或它的下级部门之下')).toBeTruthy();
    await waitFor(() => expect(treeItem('销售部')).toBeTruthy());
  });

  it('dragging a department onto another asks the server to move it there, and a refusal puts it back', async () => {
    const { callsTo } = stubConsole({ 'POST /v1/org/department/move': () => fail(220002, '不能把部门移动到它自己或它的下级部门之下') });
    renderConsole();
    await screen.findByText('成员1');
    await waitFor(() => expect(treeItem('研发部')).toBeTruthy());
    const dataTransfer = { setData: () => {}, getData: () => '', effectAllowed: 'move', dropEffect: 'move' };
    fireEvent.dragStart(treeItem('研发部')!, { clientX: 0, clientY: 0, dataTransfer });
    fireEvent.dragEnter(treeItem('销售部')!, { clientX: 100, clientY: 0, dataTransfer });
    fireEvent.dragOver(treeItem('销售部')!, { clientX: 100, clientY: 0, dataTransfer });
    fireEvent.drop(treeItem('销售部')!, { clientX: 100, clientY: 0, dataTransfer });
    await waitFor(() => expect(callsTo('POST', '/v1/org/department/move')).toHaveLength(1));
    expect(callsTo('POST', '/v1/org/department/move')[0].body).toEqual({ id: 'd2', parentId: 'd1' });
    expect(await screen.findByText('不能把部门移动到它自己或它的下级部门之下')).toBeTruthy();
    await waitFor(() => expect(treeItem('研发部')).toBeTruthy());
  });

  it('removing a department that is not empty says what is still inside', async () => {
    stubConsole({ 'POST /v1/org/department/remove': () => fail(220003, '该部门下还有子部门或成员，请先移走后再删除', { detail: { childCount: 1, userCount: 3 } }) });
    const user = userEvent.setup();
    renderConsole();
    await screen.findByText('成员1');
    await openMenu(user, '销售部', '删除');
    const confirm = await findDialog('删除部门「销售部」？');
    await user.click(within(confirm).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('该部门下还有 1 个子部门、3 名成员（含已停用的成员）。请先把他们移到其他部门，再删除。')).toBeTruthy();
  });

  it('adds a member with the selected department as main, and shows a field problem beside the field', async () => {
    let attempt = 0;
    const { callsTo } = stubConsole({
      'POST /v1/org/user/create': () =>
        ++attempt === 1 ? fail(777, '参数校验失败', { detail: { issues: [{ path: 'mobile', message: '手机号已被占用' }] } }) : ok({}),
    });
    const user = userEvent.setup();
    renderConsole();
    await screen.findByText('成员1');
    await user.click(within(treeItem('销售部')!).getByText('销售部'));
    await user.click(screen.getByRole('button', { name: /添加成员/ }));
    const drawer = await findDialog('添加成员');
    await user.type(within(drawer).getByLabelText('姓名'), '王五');
    await user.type(within(drawer).getByLabelText('手机号'), '13900001111');
    await user.click(within(drawer).getByRole('button', { name: '保存' }));
    expect(await within(drawer).findByText('手机号已被占用')).toBeTruthy();
    expect(callsTo('POST', '/v1/org/user/create')[0].body).toEqual({
      name: '王五',
      mobile: '13900001111',
      departmentIds: ['d1'],
      mainDepartmentId: 'd1',
      authType: 3,
      roleIds: [],
      postIds: [],
    });
  });

  it('a member may get an e-mail address for notification mail; a malformed one is refused beside the field', async () => {
    const { callsTo } = stubConsole({ 'POST /v1/org/user/create': () => ok({}) });
    const user = userEvent.setup();
    renderConsole();
    await screen.findByText('成员1');
    await user.click(within(treeItem('销售部')!).getByText('销售部'));
    await user.click(screen.getByRole('button', { name: /添加成员/ }));
    const drawer = await findDialog('添加成员');
    await user.type(within(drawer).getByLabelText('姓名'), '王五');
    await user.type(within(drawer).getByLabelText('手机号'), '13900001111');
    await user.type(within(drawer).getByLabelText('邮箱'), 'wangwu@');
    await user.click(within(drawer).getByRole('button', { name: '保存' }));
    expect(await within(drawer).findByText('请填写有效的邮箱地址')).toBeTruthy();
    expect(callsTo('POST', '/v1/org/user/create')).toHaveLength(0);
    await user.type(within(drawer).getByLabelText('邮箱'), 'example.com');
    await user.click(within(drawer).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(callsTo('POST', '/v1/org/user/create')).toHaveLength(1));
    expect(callsTo('POST', '/v1/org/user/create')[0].body).toMatchObject({ name: '王五', email: 'wangwu@example.com' });
  });

  it('disabling asks first, says sessions end at once, then tells the server', async () => {
    const { callsTo } = stubConsole({ 'POST /v1/org/user/disable': () => ok({}) });
    const user = userEvent.setup();
    renderConsole();
    await screen.findByText('成员1');
    await user.click(screen.getByRole('button', { name: '停用 成员1' }));
    const confirm = await findDialog('停用成员1？');
    expect(within(confirm).getByText(/登录会立即失效/)).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: '停用' }));
    await waitFor(() => expect(callsTo('POST', '/v1/org/user/disable')).toHaveLength(1));
    expect(callsTo('POST', '/v1/org/user/disable')[0].body).toEqual({ id: 'u1' });
  });

  it('roles: picks members with the multi-user picker and adds them to the selected role', async () => {
    const role = { id: 'r1', parentId: 'g1', name: '销售经理', hasChild: false, state: 'normal', isExternal: false, entryId: null, unitType: 'Role', nodeType: 'role', groupName: '业务角色', memberCount: 0 };
    const group = { id: 'g1', parentId: 'c1', name: '业务角色', hasChild: true, state: 'normal', isExternal: false, entryId: null, unitType: 'RoleGroup', nodeType: 'role', roleCount: 1 };
    const found = (n: number) => ({ ...orgUser(n), parentName: '销售部' });
    const { callsTo } = stubConsole({
      'GET /v1/org/rolegroup/list': () => ok({ list: [group], total: 1, hasMore: false }),
      'GET /v1/org/role/list': () => ok({ list: [role], total: 1, hasMore: false }),
      'POST /v1/org/search': () => ok({ list: [found(7), found(8)], total: 2, hasMore: false }),
      'POST /v1/org/list': () => ok({ list: [], total: 0, hasMore: false }),
      'POST /v1/org/role/member/add': () => ok({ changed: 2 }),
    });
    const user = userEvent.setup();
    renderConsole();
    await user.click(await screen.findByRole('tab', { name: '角色' }));
    await user.click(await screen.findByText('销售经理'));
    await waitFor(() => expect(bodies(callsTo('POST', '/v1/org/user/list')).some((b) => b.roleId === 'r1')).toBe(true));
    expect(bodies(callsTo('POST', '/v1/org/user/list')).find((b) => b.roleId === 'r1')).toEqual({ roleId: 'r1', scope: 'all', pageIndex: 0, pageSize: 50 });

    await user.click(screen.getAllByRole('button', { name: /添加成员/ }).at(-1)!);
    const picker = await findDialog('添加「销售经理」的成员');
    await user.type(within(picker).getByLabelText('搜索', { exact: true }), 'cy');
    await user.click(await within(picker).findByRole('checkbox', { name: /成员7/ }));
    await user.click(within(picker).getByRole('checkbox', { name: /成员8/ }));
    await user.click(within(picker).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(callsTo('POST', '/v1/org/role/member/add')).toHaveLength(1));
    expect(callsTo('POST', '/v1/org/role/member/add')[0].body).toEqual({ roleId: 'r1', userIds: ['u7', 'u8'] });
    expect(await screen.findByText('已添加 2 人')).toBeTruthy();
  });
});
