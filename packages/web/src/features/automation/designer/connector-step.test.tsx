import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Automation } from '@tritium/shared/automation/index';
import { renderPage } from '../../../test/render.tsx';
import { setEngineCode, setToken } from '../../../lib/session.ts';
import { AutomationPage } from '../automation-page.tsx';
import { stubAutomationServer } from '../test/automation-fake.ts';

// The connector step's card (docs/decisions/0120): a connector of the engine, a parameter from the record's fields,
// an output written back to a field; saved as the model says.

async function choose(combobox: HTMLElement, title: string) {
  fireEvent.mouseDown(combobox);
  const options = await screen.findAllByTitle(title);
  fireEvent.click(options.at(-1)!);
}

describe('the automation connector step', { timeout: 60_000 }, () => {
  it('picks a connector, a parameter and an output into a field, and saves them', async () => {
    const server = stubAutomationServer();
    const user = userEvent.setup();
    setToken('t1');
    setEngineCode('alpha01');
    renderPage('/form/automation/:schemaCode', <AutomationPage />, '/form/automation/f_order');
    await user.click((await screen.findAllByRole('button', { name: /新建自动化/ }))[0]!);
    const drawer = await screen.findByRole('dialog');
    await user.type(within(drawer).getByLabelText('自动化名称'), '从 ERP 补全客户');
    await user.click(within(drawer).getByRole('button', { name: /添加动作/ }));
    await user.click(await screen.findByText('连接器'));
    const step = await within(drawer).findByRole('group', { name: '1. 连接器' });
    await choose(within(step).getByLabelText('连接器'), '金蝶 ERP / 查询客户');
    await user.click(within(step).getByRole('button', { name: /添加参数/ }));
    await user.type(within(step).getByLabelText('参数名'), 'Region');
    fireEvent.change(within(step).getByLabelText('值，如 {{Code}}'), { target: { value: '华东-{{Customer}}' } });
    await user.click(within(step).getByRole('button', { name: /(^|\s)添\s*加$/ }));
    await waitFor(() => expect(within(step).getAllByLabelText('连接器输出').length).toBe(1));
    await choose(within(step).getByLabelText('连接器输出'), 'credit');
    await user.click(within(drawer).getByRole('button', { name: /保存/ }));
    await waitFor(() => expect(server.saves).toHaveLength(1));
    const saved = Automation.parse((server.saves[0]!.body as { automation: unknown }).automation);
    expect(saved.steps[0]).toMatchObject({ type: 'connector', connectorCode: 'GetCustomer', params: [{ name: 'Region', value: '华东-{{Customer}}' }], outputMappings: [{ field: expect.any(String), output: 'credit' }] });
  });
});
