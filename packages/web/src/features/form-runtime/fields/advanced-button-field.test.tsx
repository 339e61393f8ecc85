import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { WorkbenchProviders } from '../../../test/render.tsx';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { RuntimeFormContext, type RuntimeFormState } from '../components/form-context.ts';
import type { FormValues } from '../model/form-values.ts';
import { advancedButtonField } from './advanced-button-field.tsx';
import { runtimeControl } from './test-harness.tsx';

// The advanced button in an open form: the form's values go to the server, the answered fields and sub-table rows
// land in the form; a confirm first when the designer asked; without a connector it does nothing.

function renderInForm(options: Record<string, unknown>) {
  const control = runtimeControl('advancedButton', options, '从 ERP 读取');
  const seen: { form: FormValues } = { form: { values: { CustomerNo: 'C01' }, children: { Lines: [] } } };
  function Form() {
    const [form, setForm] = useState<FormValues>(seen.form);
    seen.form = form;
    const state = {
      schemaCode: 'Orders', mode: 'Create', device: 'pc', titleWidth: 100, form, system: { ObjectId: 'rec-1' }, errors: {},
      setValue: (code, value) => setForm((f) => ({ ...f, values: { ...f.values, [code]: value } })),
      setRows: (grid, update) => setForm((f) => ({ ...f, children: { ...f.children, [grid]: update(f.children[grid] ?? []) } })),
    } satisfies RuntimeFormState;
    return (
      <RuntimeFormContext.Provider value={state}>
        <advancedButtonField.Edit control={control} value={null} onChange={() => undefined} id="btn" invalid={false} device="pc" schemaCode="Orders" />
      </RuntimeFormContext.Provider>
    );
  }
  render(
    <WorkbenchProviders queryClient={new QueryClient()}>
      <Form />
    </WorkbenchProviders>,
  );
  return seen;
}

const answer = { values: { CustomerName: '客户C01', Credit: 5000, Lines: [{ OrderId: 'SO-1', Amount: 120.5 }] }, durationMs: 12 };

describe('advanced button', () => {
  it('sends the form’s values and fills the answered fields and sub-table rows', async () => {
    const stub = stubFetch({ 'POST /v1/connectors/button': () => ok(answer) });
    const seen = renderInForm({ connectorCode: 'GetCustomer' });
    await userEvent.click(screen.getByRole('button', { name: '从 ERP 读取' }));
    await waitFor(() => expect(seen.form.values.CustomerName).toBe('客户C01'));
    expect(seen.form.values.Credit).toBe(5000);
    expect(seen.form.children.Lines!.map((r) => r.OrderId)).toEqual(['SO-1']);
    expect(stub.callsTo('POST', '/v1/connectors/button')[0]!.body).toEqual({ schemaCode: 'Orders', controlCode: 'F_advancedButton', values: { CustomerNo: 'C01' }, objectId: 'rec-1' });
    expect(await screen.findByText('已从外部系统填入 3 个字段')).toBeTruthy();
  });

  it('asks first when the designer wants a confirm, and sends nothing when cancelled', async () => {
    const stub = stubFetch({ 'POST /v1/connectors/button': () => ok(answer) });
    const seen = renderInForm({ connectorCode: 'GetCustomer', confirm: true });
    await userEvent.click(screen.getByRole('button', { name: '从 ERP 读取' }));
    expect((await screen.findAllByText('确定执行“从 ERP 读取”吗？')).length).toBeGreaterThan(0);
    await userEvent.click((await screen.findAllByRole('button', { name: '取消' })).at(-1)!);
    expect(stub.callsTo('POST', '/v1/connectors/button')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: '从 ERP 读取' }));
    // The cancelled confirm may still be closing: the newest one is the last.
    await userEvent.click((await screen.findAllByRole('button', { name: '确定' })).at(-1)!);
    await waitFor(() => expect(seen.form.values.CustomerName).toBe('客户C01'));
  });

  it('is disabled without a connector', () => {
    stubFetch({});
    renderInForm({});
    expect((screen.getByRole('button', { name: '从 ERP 读取' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
