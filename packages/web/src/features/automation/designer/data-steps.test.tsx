import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Automation } from '@tritium/shared/automation/index';
import { renderPage } from '../../../test/render.tsx';
import { setEngineCode, setToken } from '../../../lib/session.ts';
import { AutomationPage } from '../automation-page.tsx';
import { stubAutomationServer } from '../test/automation-fake.ts';

async function choose(combobox: HTMLElement, title: string) {
  fireEvent.mouseDown(combobox);
  const options = await screen.findAllByTitle(title);
  fireEvent.click(options.at(-1)!);
}

async function addStep(drawer: HTMLElement, label: string, n: number) {
  const user = userEvent.setup();
  await user.click(within(drawer).getByRole('button', { name: /添加动作/ }));
  await user.click(await screen.findByRole('menuitem', { name: label }));
  return within(drawer).findByRole('group', { name: `${n}. ${label}` });
}

describe('data steps', { timeout: 60_000 }, () => {
  it('queries a form with a fixed filter, then updates each record found, reading the found record as S1.Code', async () => {
    const server = stubAutomationServer();
    const user = userEvent.setup();
    setToken('t1');
    setEngineCode('alpha01');
    renderPage('/form/automation/:schemaCode', <AutomationPage />, '/form/automation/f_order');
    await user.click((await screen.findAllByRole('button', { name: /新建自动化/ }))[0]!);
    const drawer = await screen.findByRole('dialog');

    const query = await addStep(drawer, '查询数据', 1);
    await choose(within(query).getByLabelText('目标表单'), '发货单（f_delivery）');
    const filter = await within(query).findByRole('group', { name: '固定筛选条件' });
    await user.click(await within(filter).findByRole('button', { name: /添加条件/ }));
    await choose(within(filter).getByLabelText('第1个条件的字段'), '客户');
    await user.type(within(filter).getByLabelText('第1个条件的值'), '华东');

    const update = await addStep(drawer, '更新数据', 2);
    await choose(within(update).getByLabelText('目标表单'), '发货单（f_delivery）');
    await choose(within(update).getByLabelText('循环'), '步骤「S1」查询到的每条数据');
    await user.click(within(update).getByRole('button', { name: /添加条件/ }));
    await user.click(within(update).getByRole('button', { name: /添加映射/ }));
    const values = within(update).getAllByLabelText('值');
    // Searched by name: the form's own fields come first in a long list.
    await user.type(values[0]!, '订单号');
    await user.click(await screen.findByTitle('S1.订单号'));
    // Plugin actions are shown but disabled while no plugin provides them (none is installed); connectors are the platform's own.
    await user.click(within(drawer).getByRole('button', { name: /添加动作/ }));
    expect(await screen.findByRole('menuitem', { name: 'HTTP 请求' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: '连接器' })).toBeTruthy();
    for (const name of ['考勤', '支付']) expect(screen.getByRole('menuitem', { name }).getAttribute('aria-disabled')).toBe('true');
    await user.keyboard('{Escape}');

    await user.click(within(drawer).getByRole('button', { name: /保存/ }));
    await waitFor(() => expect(server.saves).toHaveLength(1));
    const automation = Automation.parse((server.saves[0]!.body as { automation: unknown }).automation);
    expect(automation.steps).toMatchObject([
      { id: 'S1', type: 'query', targetSchemaCode: 'f_delivery', limit: 100, filter: { type: 'And', children: [{ field: 'Customer', operator: 'Equal', value: '华东' }] } },
      { id: 'S2', type: 'update', forEach: { type: 'query', stepId: 'S1' }, match: [{ field: 'OrderNo', value: { type: 'field', code: 'S1.OrderNo' } }], mappings: [{ field: 'OrderNo', op: 'set' }], upsert: false },
    ]);
  });
});
