import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../test/render.tsx';
import { findDialog } from '../../test/find-dialog.ts';
import { ok, stubFetch } from '../../test/fetch-stub.ts';
import { PermissionDrawer } from './permission-drawer.tsx';

// 表单权限 (docs/decisions/0037): the form's groups, a group edited and saved as the server takes it (members by id,
// actions, scopes, only the fields that are not editable), and a member's rights previewed.

const FIELDS = [
  { code: 'Client', label: '客户' },
  { code: 'Amount', label: '金额' },
  { code: 'Lines', label: '明细' },
  { code: 'Lines.Cost', label: '明细.成本', grid: 'Lines' },
];
const GROUP = {
  id: '0192cccc-0000-7000-8000-000000000001', name: '销售', sortKey: 1,
  members: { users: ['u1'], departments: ['d1'], roles: [] },
  actions: ['view', 'create'], viewScope: 'ownDept', editScope: 'own', fieldRights: { Amount: 'hidden' },
};

function stub() {
  return stubFetch({
    'POST /v1/form/permission/group/list': () => ok({ schemaCode: 'deals', list: [GROUP], names: { u1: '王芳', d1: '华南销售部' } }),
    'POST /v1/form/permission/group/save': (call) => ok({ ...(call.body as { group: object }).group, sortKey: 1 }),
    'GET /v1/org/role/list': () => ok({ list: [], total: 0 }),
  });
}

describe('the form permission editor', { timeout: 90_000 }, () => {
  it('lists the groups with their members, scopes and hidden fields', async () => {
    stub();
    renderPage('/p', <PermissionDrawer schemaCode="deals" open onClose={() => {}} fields={FIELDS} />);
    expect(await screen.findByText('销售')).toBeTruthy();
    expect(screen.getByText('王芳、华南销售部')).toBeTruthy();
    expect(screen.getByText('查看范围：本部门；编辑和删除范围：本人')).toBeTruthy();
    expect(screen.getByText('金额（隐藏）')).toBeTruthy();
  });

  it('saves an edited group as the server takes it: ids, actions, scopes and the fields that are not editable', async () => {
    const { calls } = stub();
    const user = userEvent.setup();
    renderPage('/p', <PermissionDrawer schemaCode="deals" open onClose={() => {}} fields={FIELDS} />);
    await user.click(await screen.findByRole('button', { name: '编辑权限组 销售' }));
    const editor = await findDialog('编辑权限组');
    await user.click(within(editor).getByRole('checkbox', { name: '导出' }));
    const cost = within(editor).getByRole('radiogroup', { name: '明细.成本' });
    await user.click(within(cost).getByText('只读'));
    const amount = within(editor).getByRole('radiogroup', { name: '金额' });
    await user.click(within(amount).getByText('可编辑'));
    await user.click(within(editor).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/v1/form/permission/group/save'))).toBe(true));
    const saved = calls.find((c) => c.url.endsWith('/v1/form/permission/group/save'))!.body as { schemaCode: string; group: Record<string, unknown> };
    expect(saved).toEqual({
      schemaCode: 'deals',
      group: {
        id: GROUP.id, name: '销售',
        members: { users: ['u1'], departments: ['d1'], roles: [] },
        actions: ['view', 'create', 'export'], viewScope: 'ownDept', editScope: 'own',
        fieldRights: { 'Lines.Cost': 'readonly' },
      },
    });
  });
});
