import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Automation } from '@tritium/shared/automation/index';
import { FormDefinition } from '@tritium/shared/contracts/form-design/index';
import { renderPage } from '../../../test/render.tsx';
import { fail, ok } from '../../../test/fetch-stub.ts';
import { setEngineCode, setToken } from '../../../lib/session.ts';
import { AutomationPage } from '../automation-page.tsx';
import { orderDefinition, pluginInstance, stubAutomationServer } from '../test/automation-fake.ts';

// The plugin steps' cards (docs/decisions/0123): offered when the engine has the plugin, else disabled naming it;
// the payment step picks a payment control of the trigger form, the attendance step a target form, the days, whose
// punches and the fields they go into; saved as the step's settings, the server's refusal shown as other steps'.

async function choose(combobox: HTMLElement, title: string) {
  fireEvent.mouseDown(combobox);
  const options = await screen.findAllByTitle(title);
  fireEvent.click(options.at(-1)!);
}

async function openDesigner() {
  const user = userEvent.setup();
  setToken('t1');
  setEngineCode('alpha01');
  renderPage('/form/automation/:schemaCode', <AutomationPage />, '/form/automation/f_order');
  await user.click((await screen.findAllByRole('button', { name: /新建自动化/ }))[0]!);
  const drawer = await screen.findByRole('dialog');
  await user.type(within(drawer).getByLabelText('自动化名称'), '插件动作');
  await user.click(within(drawer).getByRole('button', { name: /添加动作/ }));
  return { user, drawer };
}

/** The order form with a payment control (and a plugin control of another plugin, which is not offered). */
const withPayment = () => {
  const definition = orderDefinition();
  return FormDefinition.parse({
    ...definition,
    controls: [
      ...definition.controls,
      { type: 'plugin', code: 'Pay', options: { displayName: '订单收款', pluginCode: 'payment', pluginSettings: { amountField: 'Amount' } } },
      { type: 'plugin', code: 'Other', options: { displayName: '自定义按钮', pluginCode: 'my_plugin' } },
    ],
  });
};

const field = (code: string, displayName: string, typeKey: string, dataType: string) => ({ code, displayName, controlType: 0, typeKey, dataType, isSystem: false });

describe('the automation plugin steps', { timeout: 60_000 }, () => {
  it('offers 支付 with the payment plugin, names the attendance plugin to install, and saves the payment control', async () => {
    const server = stubAutomationServer({ definition: withPayment(), plugins: [pluginInstance('payment', 'installed', '在线支付'), pluginInstance('attendance', 'notInstalled', '考勤')] });
    const { user, drawer } = await openDesigner();
    const attendance = await screen.findByRole('menuitem', { name: '考勤' });
    await waitFor(() => expect(attendance.getAttribute('aria-disabled')).toBe('true'));
    await user.hover(within(attendance).getByText('考勤'));
    expect(await screen.findByText('需先在管理后台的“插件”页面安装「考勤」插件')).toBeTruthy();
    await user.click(screen.getByRole('menuitem', { name: '支付' }));
    const step = await within(drawer).findByRole('group', { name: '1. 支付' });
    fireEvent.mouseDown(within(step).getByLabelText('支付控件'));
    expect(await screen.findByTitle('订单收款')).toBeTruthy();
    expect(screen.queryByTitle('自定义按钮')).toBeNull();
    await choose(within(step).getByLabelText('支付控件'), '订单收款');
    await user.click(within(drawer).getByRole('button', { name: /保存/ }));
    await waitFor(() => expect(server.saves).toHaveLength(1));
    const saved = Automation.parse((server.saves[0]!.body as { automation: unknown }).automation);
    expect(saved.steps[0]).toEqual({ id: 'S1', name: '', type: 'payment', settings: { controlCode: 'Pay' } });
  });

  it('sets the attendance step: target form, last N days, everyone, fields by type; shows the server refusal', async () => {
    let refuse = true;
    const server = stubAutomationServer({
      plugins: [pluginInstance('payment', 'notInstalled', '在线支付'), pluginInstance('attendance', 'installed', '考勤')],
      handlers: {
        'POST /v1/formdesign/associationform/field': () =>
          ok({ schemaCode: 'f_delivery', displayName: '打卡记录', childSchemas: [], fields: [
            field('Person', '打卡人', 'user', 'user'), field('Note', '备注', 'textBox', 'string'), field('PunchTime', '打卡时间', 'dateTime', 'datetime'),
            field('Place', '地点', 'textArea', 'text'), field('Count', '次数', 'number', 'decimal'),
          ] }),
      },
    });
    const saveAnswer = server.fetchMock.getMockImplementation()!;
    server.fetchMock.mockImplementation(async (input, init) => {
      const path = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost').pathname;
      if (path === '/v1/automatic/save' && refuse) {
        refuse = false;
        return fail(460004, '考勤设置有误：字段“Note”应为日期控件');
      }
      return saveAnswer(input, init);
    });
    const { user, drawer } = await openDesigner();
    expect((await screen.findByRole('menuitem', { name: '支付' })).getAttribute('aria-disabled')).toBe('true');
    await user.click(screen.getByRole('menuitem', { name: '考勤' }));
    const step = await within(drawer).findByRole('group', { name: '1. 考勤' });
    await choose(within(step).getByLabelText('目标表单'), '发货单（f_delivery）');
    await user.click(within(step).getByRole('radio', { name: '最近 N 天' }));
    const days = within(step).getByLabelText('天数');
    await user.clear(days);
    await user.type(days, '3');
    // Only fields of a fitting type are offered: a person for 人员, a date for 打卡时间, texts for the rest.
    fireEvent.mouseDown(within(step).getByLabelText('人员'));
    expect(await screen.findByTitle('打卡人')).toBeTruthy();
    expect(screen.queryByTitle('次数')).toBeNull();
    await choose(within(step).getByLabelText('人员'), '打卡人');
    await choose(within(step).getByLabelText('打卡时间'), '打卡时间');
    await choose(within(step).getByLabelText('打卡地点'), '地点');
    expect((within(step).getByRole('radio', { name: '所有已绑定账号的人员' }) as HTMLInputElement).checked).toBe(true);

    await user.click(within(drawer).getByRole('button', { name: /保存/ }));
    expect(await within(drawer).findByText(/考勤设置有误：字段“Note”应为日期控件/)).toBeTruthy();
    await user.click(within(drawer).getByRole('button', { name: /保存/ }));
    await waitFor(() => expect(server.saves).toHaveLength(1));
    const saved = Automation.parse((server.saves[0]!.body as { automation: unknown }).automation);
    expect(saved.steps[0]).toEqual({
      id: 'S1', name: '', type: 'attendance',
      settings: { targetSchemaCode: 'f_delivery', range: { type: 'lastDays', days: 3 }, people: { type: 'all' }, mappings: { user: 'Person', time: 'PunchTime', location: 'Place' } },
    });
  });
});
