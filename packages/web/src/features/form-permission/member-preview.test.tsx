import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../test/render.tsx';
import { ok, stubFetch } from '../../test/fetch-stub.ts';
import { MemberPreview } from './member-preview.tsx';

// "Preview as" (docs/decisions/0056): the screen shows what the server answered for the member — its columns, its
// rows, its record — and asks for the record of a row the administrator clicks.

const RIGHTS = { schemaCode: 'deals', source: 'groups', actions: ['view', 'create'], viewScopes: ['ownDept'], editScopes: ['own'], fieldRights: { Amount: 'hidden', Note: 'readonly' } };
const row = (id: string, client: string) => ({ ObjectId: id, Name: client, Status: 1, Client: client, Note: '年度' });
const record = (id: string, client: string) => ({
  schemaCode: 'deals', version: 1, isNew: false, values: { Client: client, Note: '年度' }, children: {}, status: 1, actions: ['Close'], isWorkflow: false,
  fieldRights: RIGHTS.fieldRights,
  system: { ObjectId: id, Name: client, Status: 1, CreatedBy: null, ModifiedBy: null, OwnerId: null, OwnerDeptId: null, CreatedTime: null, ModifiedTime: null, SeqNo: null, WorkflowInstanceId: null },
});
const ID1 = '0192cccc-0000-7000-8000-0000000000a1';
const ID2 = '0192cccc-0000-7000-8000-0000000000a2';

describe('preview as a member', { timeout: 60_000 }, () => {
  it('shows the member\'s list and record as answered, and the record of a clicked row', async () => {
    const { calls } = stubFetch({
      'POST /v1/form/permission/preview': (call) => {
        const body = call.body as { objectId?: string };
        const [id, client] = body.objectId === ID2 ? [ID2, '华南客户丁'] : [ID1, '华南客户丙'];
        return ok({
          opens: true, rights: RIGHTS, total: 2,
          columns: [{ code: 'Client', displayName: '客户', type: 'textBox', options: {} }, { code: 'Note', displayName: '备注', type: 'textBox', options: {} }],
          list: [row(ID1, '华南客户丙'), row(ID2, '华南客户丁')],
          record: record(id, client),
        });
      },
    });
    const user = userEvent.setup();
    renderPage('/p', <MemberPreview schemaCode="deals" user={{ id: 'u1', name: '王芳' }} label={(c) => ({ Amount: '金额', Note: '备注' })[c] ?? c} />);
    const list = await screen.findByRole('table', { name: '王芳 看到的列表（共 2 条）' });
    expect(within(list).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['客户', '备注']);
    expect(screen.getByText('金额（隐藏）、备注（只读）')).toBeTruthy();
    const shown = () => screen.getByLabelText('王芳 看到的这条数据');
    expect(within(shown()).getByText('华南客户丙')).toBeTruthy();
    await user.click(within(list).getByText('华南客户丁'));
    await waitFor(() => expect(within(shown()).queryByText('华南客户丁')).toBeTruthy());
    expect(calls.filter((c) => c.url.endsWith('/v1/form/permission/preview')).map((c) => c.body)).toEqual([
      { schemaCode: 'deals', userId: 'u1' },
      { schemaCode: 'deals', userId: 'u1', objectId: ID2 },
    ]);
  });

  it('says so when the member cannot open the form', async () => {
    stubFetch({ 'POST /v1/form/permission/preview': () => ok({ opens: false, rights: null, columns: [], list: [], total: 0, record: null }) });
    renderPage('/p', <MemberPreview schemaCode="deals" user={{ id: 'u1', name: '王芳' }} label={(c) => c} />);
    expect(await screen.findByText('王芳 不能打开这个表单：先在应用权限中授权')).toBeTruthy();
  });
});
