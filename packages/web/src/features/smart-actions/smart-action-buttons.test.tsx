import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ok } from '../../test/fetch-stub.ts';
import { findDialog } from '../../test/find-dialog.ts';
import { renderPage } from '../../test/render.tsx';
import { FormPage } from '../form-runtime/pages/form-page.tsx';
import { stubRuntime } from '../form-runtime/test/runtime-fake.ts';
import { ListView } from '../list-view/components/list-view.tsx';
import { stubListView } from '../list-view/test/list-view-fake.ts';
import type { SmartActionDto } from './smart-action-api.ts';

// Smart actions at runtime: the buttons the server lists for the place (it checks the roles), a confirmation when the
// action has one, the run, the result message and fresh data.

const action = (extra: Partial<SmartActionDto> = {}): SmartActionDto => ({
  actionCode: 'a1', label: '确认发货', roleIds: ['role-sales'], locations: ['form', 'list'], confirmText: '', resultMessage: '', ...extra,
});
const smartHandlers = (actions: SmartActionDto[]) => ({
  'POST /v1/smartaction/list': () => ok({ actions }),
  'POST /v1/smartaction/run': () => ok({ runIds: ['r1'] }),
});

describe('smart-action buttons', { timeout: 60_000 }, () => {
  it("on a saved record's form: asks with the confirmation text, runs for that record, says the result and reads the record again", async () => {
    const stub = stubRuntime({ handlers: smartHandlers([action({ confirmText: '确认后将生成发货单', resultMessage: '发货单已生成' })]) });
    const user = userEvent.setup();
    renderPage('/form/open/:schemaCode/:objectId?', <FormPage />, '/form/open/f_order/o-1');
    const button = await screen.findByRole('button', { name: /确认发货/ });
    expect(stub.callsTo('POST', '/v1/smartaction/list')[0]!.body).toEqual({ schemaCode: 'f_order', location: 'form' });
    const loads = stub.callsTo('POST', '/v1/form/loaddata').length;
    await user.click(button);
    const confirm = await findDialog('确认后将生成发货单');
    expect(stub.callsTo('POST', '/v1/smartaction/run')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: /执\s*行/ }));
    await waitFor(() => expect(stub.callsTo('POST', '/v1/smartaction/run').map((c) => c.body)).toEqual([{ schemaCode: 'f_order', actionCode: 'a1', objectIds: ['o-1'] }]));
    expect(await screen.findByText('发货单已生成')).toBeTruthy();
    await waitFor(() => expect(stub.callsTo('POST', '/v1/form/loaddata').length).toBeGreaterThan(loads));
  });

  it('shows no button where the server lists none for the caller', async () => {
    const stub = stubRuntime({ handlers: smartHandlers([]) });
    renderPage('/form/open/:schemaCode/:objectId?', <FormPage />, '/form/open/f_order/o-1');
    await screen.findByRole('button', { name: /编\s*辑/ });
    await waitFor(() => expect(stub.callsTo('POST', '/v1/smartaction/list')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: /确认发货/ })).toBeNull();
  });

  it('on the list toolbar: acts on the selected rows, without a confirmation when none is set, then says 已提交执行 and refetches', async () => {
    const stub = stubListView({ handlers: smartHandlers([action()]) });
    const user = userEvent.setup();
    renderPage('/list', <ListView schemaCode="f_order" />);
    await screen.findByText('大单', {}, { timeout: 20_000 });
    const button = await screen.findByRole('button', { name: /确认发货/ });
    expect(stub.callsTo('POST', '/v1/smartaction/list')[0]!.body).toEqual({ schemaCode: 'f_order', location: 'list' });
    expect(button.hasAttribute('disabled')).toBe(true);
    await user.click(within(screen.getByText('大单').closest('tr')!).getByRole('checkbox'));
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    const queries = stub.callsTo('POST', '/v1/bizdata/view/query').length;
    await user.click(button);
    await waitFor(() => expect(stub.callsTo('POST', '/v1/smartaction/run').map((c) => c.body)).toEqual([{ schemaCode: 'f_order', actionCode: 'a1', objectIds: ['0192aaaa-0000-7000-8000-000000000001'] }]));
    expect(await screen.findByText('已提交执行')).toBeTruthy();
    await waitFor(() => expect(stub.callsTo('POST', '/v1/bizdata/view/query').length).toBeGreaterThan(queries));
  });
});
