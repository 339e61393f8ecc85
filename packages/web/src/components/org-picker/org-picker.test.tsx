import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ok, stubFetch, type RecordedCall } from '../../test/fetch-stub.ts';
import { renderPage } from '../../test/render.tsx';
import { setEngineCode } from '../../lib/session.ts';
import { DepartmentPicker, MultiUserPicker, UserPicker, type PickedUnit } from './index.ts';
import { recentStorageKey } from './recent-units.ts';

const person = (id: string, name: string, parentName: string, isExternal = false) => ({
  id,
  parentId: 'd1',
  name,
  hasChild: false,
  state: 'active',
  isExternal,
  entryId: null,
  unitType: 'User',
  nodeType: 'user',
  mobile: `1380000${id.padStart(4, '0')}`,
  authType: isExternal ? 5 : 3,
  parentName,
});
const department = (id: string, name: string, parentName: string | null, hasChild = false) => ({
  id,
  parentId: parentName ? 'c1' : null,
  name,
  hasChild,
  state: 'normal',
  isExternal: false,
  entryId: null,
  unitType: parentName ? 'OrganizationUnit' : 'Company',
  nodeType: 'department',
  mobile: null,
  authType: null,
  parentName,
});
const PEOPLE = [person('1', '张三', '销售部'), person('2', '张珊', '研发部'), person('3', '李四', '销售部')];
const list = (items: unknown[]) => ok({ list: items, total: items.length, hasMore: false });

function stubOrg() {
  return stubFetch({
    'POST /v1/org/search': (call: RecordedCall) => {
      const { keyword, unitTypes, scope } = call.body as { keyword: string; unitTypes: string[]; scope: string };
      if (unitTypes.includes('OrganizationUnit')) return list([department('d1', '销售部', '氚星科技')]);
      if (scope === 'external') return list([person('9', '钱多多', '外部组织', true)]);
      // Pinyin initials as the server matches them (docs/decisions/0003): zs → 张三, 张珊.
      return list(keyword === 'ls' ? [PEOPLE[2]] : PEOPLE.slice(0, 2));
    },
    'POST /v1/org/list': (call: RecordedCall) => {
      const { parentId } = call.body as { parentId?: string };
      if (!parentId) return list([department('c1', '氚星科技', null, true)]);
      if (parentId === 'c1') return list([department('d1', '销售部', '氚星科技', true), PEOPLE[0]]);
      return list([PEOPLE[2]]);
    },
  });
}

/** A form-like owner of the value, as Form.Item would be. */
function Owner({ single, onChange }: { single?: boolean; onChange: (value: unknown) => void }) {
  const [many, setMany] = useState<PickedUnit[]>([]);
  const [one, setOne] = useState<PickedUnit | null>(null);
  return single ? (
    <UserPicker aria-label="审批人" value={one} onChange={(v) => (setOne(v), onChange(v))} />
  ) : (
    <MultiUserPicker aria-label="参与人" value={many} onChange={(v) => (setMany(v), onChange(v))} />
  );
}

const searchBodies = (calls: RecordedCall[]) => calls.filter((c) => c.url.endsWith('/v1/org/search')).map((c) => c.body);

async function openAndSearch(user: ReturnType<typeof userEvent.setup>, field: string, keyword: string) {
  await user.click(screen.getByRole('button', { name: field }));
  const dialog = await screen.findByRole('dialog');
  await user.type(within(dialog).getByLabelText('搜索', { exact: true }), keyword);
  return dialog;
}

describe('org unit pickers', () => {
  it('searches once the typing stops, with kind and scope, and shows who each match is', async () => {
    const { calls } = stubOrg();
    const user = userEvent.setup();
    renderPage('/', <Owner onChange={() => {}} />);
    const dialog = await openAndSearch(user, '参与人', 'zs');
    const results = await within(dialog).findByRole('group', { name: '搜索结果' });
    expect(within(results).getByRole('checkbox', { name: /张三.*销售部/ })).toBeTruthy();
    expect(within(results).getByRole('checkbox', { name: /张珊.*研发部/ })).toBeTruthy();
    // Debounced: one call for "zs", none for "z".
    expect(searchBodies(calls)).toEqual([{ keyword: 'zs', unitTypes: ['User'], scope: 'inner', pageIndex: 0, pageSize: 50 }]);
  });

  it('ticks and unticks several people and returns their ids and names', async () => {
    stubOrg();
    const onChange = vi.fn();
    const user = userEvent.setup();
    renderPage('/', <Owner onChange={onChange} />);
    const dialog = await openAndSearch(user, '参与人', 'zs');
    await user.click(await within(dialog).findByRole('checkbox', { name: /张三/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /张珊/ }));
    const chosen = within(dialog).getByRole('list', { name: '已选列表' });
    expect(within(chosen).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['张三', '张珊']);
    await user.click(within(dialog).getByRole('checkbox', { name: /张珊/ }));
    expect(within(chosen).getAllByRole('listitem')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: '移除张三' }));
    expect(within(dialog).queryByRole('list', { name: '已选列表' })).toBeNull();

    await user.clear(within(dialog).getByLabelText('搜索', { exact: true }));
    await user.type(within(dialog).getByLabelText('搜索', { exact: true }), 'ls');
    await user.click(await within(dialog).findByRole('checkbox', { name: /李四/ }));
    await user.clear(within(dialog).getByLabelText('搜索', { exact: true }));
    await user.type(within(dialog).getByLabelText('搜索', { exact: true }), 'zs');
    await user.click(await within(dialog).findByRole('checkbox', { name: /张三/ }));
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(onChange).toHaveBeenLastCalledWith([
      { id: '3', name: '李四' },
      { id: '1', name: '张三' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The field shows the picks as tags, each removable without opening the dialog.
    await user.click(screen.getByLabelText('移除李四'));
    expect(onChange).toHaveBeenLastCalledWith([{ id: '1', name: '张三' }]);
  });

  it('a single picker holds one person: a second pick replaces the first', async () => {
    stubOrg();
    const onChange = vi.fn();
    const user = userEvent.setup();
    renderPage('/', <Owner single onChange={onChange} />);
    const dialog = await openAndSearch(user, '审批人', 'zs');
    await user.click(await within(dialog).findByRole('checkbox', { name: /张三/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /张珊/ }));
    const chosen = within(dialog).getByRole('list', { name: '已选列表' });
    expect(within(chosen).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['张珊']);
    expect((within(dialog).getByRole('checkbox', { name: /张三/ }) as HTMLInputElement).checked).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(onChange).toHaveBeenLastCalledWith({ id: '2', name: '张珊' });
  });

  it('keeps the last picks per engine in 最近使用', async () => {
    stubOrg();
    setEngineCode('alpha01');
    const user = userEvent.setup();
    renderPage('/', <Owner onChange={() => {}} />);
    let dialog = await openAndSearch(user, '参与人', 'zs');
    await user.click(await within(dialog).findByRole('checkbox', { name: /张三/ }));
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    const stored = JSON.parse(localStorage.getItem(recentStorageKey('user', 'alpha01')) ?? '[]');
    expect(stored).toEqual([{ id: '1', name: '张三', isExternal: false, parentName: '销售部', mobile: '13800000001' }]);
    expect(localStorage.getItem(recentStorageKey('department', 'alpha01'))).toBeNull();

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: '参与人' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('tab', { name: '最近使用' }));
    const recent = await within(dialog).findByRole('group', { name: '最近使用' });
    // Already chosen in the field, so already ticked.
    expect((within(recent).getByRole('checkbox', { name: /张三/ }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: '取消' }));

    // Another engine has its own list.
    setEngineCode('beta02');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: '参与人' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('tab', { name: '最近使用' }));
    expect(await within(dialog).findByText('还没有最近使用的记录，选过的会出现在这里')).toBeTruthy();
  });

  it('sends the chosen scope to the server; a fixed scope hides the switch', async () => {
    const { calls } = stubOrg();
    const user = userEvent.setup();
    renderPage(
      '/',
      <>
        <Owner onChange={() => {}} />
        <DepartmentPicker aria-label="外部部门" scope="external" />
      </>,
    );
    await user.click(screen.getByRole('button', { name: '参与人' }));
    let dialog = await screen.findByRole('dialog');
    // antd draws the radio under its label; people click the label.
    await user.click(within(within(dialog).getByRole('radiogroup', { name: '组织范围' })).getByText('外部'));
    await user.type(within(dialog).getByLabelText('搜索', { exact: true }), 'qdd');
    expect(await within(dialog).findByRole('checkbox', { name: /钱多多.*外部/ })).toBeTruthy();
    expect(searchBodies(calls).at(-1)).toMatchObject({ keyword: 'qdd', scope: 'external', unitTypes: ['User'] });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: '外部部门' }));
    dialog = await screen.findByRole('dialog', { name: '选择部门' });
    expect(within(dialog).queryByRole('radiogroup', { name: '组织范围' })).toBeNull();
    await user.type(within(dialog).getByLabelText('搜索', { exact: true }), 'xs');
    await within(dialog).findByRole('checkbox', { name: /销售部/ });
    expect(searchBodies(calls).at(-1)).toMatchObject({ keyword: 'xs', scope: 'external', unitTypes: ['OrganizationUnit'] });
    const treeCalls = calls.filter((c) => c.url.endsWith('/v1/org/list')).map((c) => c.body as { scope: string; unitTypes: string[] });
    expect(treeCalls.at(-1)).toMatchObject({ scope: 'external', unitTypes: ['OrganizationUnit'] });
  });

  it('browses the tree level by level and ticks a person there', async () => {
    const { calls } = stubOrg();
    const onChange = vi.fn();
    const user = userEvent.setup();
    renderPage('/', <Owner onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: '参与人' }));
    const dialog = await screen.findByRole('dialog');
    // The root opens by itself and shows its departments, then its own members.
    const zhang = await within(dialog).findByRole('treeitem', { name: /张三/ });
    expect(within(dialog).getByRole('treeitem', { name: /销售部/ })).toBeTruthy();
    fireEvent.click(within(zhang).getByRole('checkbox'));
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(onChange).toHaveBeenLastCalledWith([{ id: '1', name: '张三' }]);
    expect(calls.filter((c) => c.url.endsWith('/v1/org/list')).map((c) => (c.body as { parentId?: string }).parentId)).toEqual([undefined, 'c1']);
  });

  it('Esc closes the dialog and keeps the value as it was', async () => {
    stubOrg();
    const onChange = vi.fn();
    const user = userEvent.setup();
    renderPage('/', <Owner onChange={onChange} />);
    const dialog = await openAndSearch(user, '参与人', 'zs');
    await user.click(await within(dialog).findByRole('checkbox', { name: /张三/ }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onChange).not.toHaveBeenCalled();
  });
});
