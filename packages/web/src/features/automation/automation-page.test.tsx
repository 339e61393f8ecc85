import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Automation } from '@tritium/shared/automation/index';
import { AutomationSaveBody } from '@tritium/shared/contracts/automation/index';
import { renderPage } from '../../test/render.tsx';
import { setEngineCode, setToken } from '../../lib/session.ts';
import { FormDesignerPage } from '../form-designer/form-designer-page.tsx';
import { stubDesigner } from '../form-designer/test/designer-fake.ts';
import { AutomationPage } from './automation-page.tsx';
import { savedAutomation, stubAutomationServer } from './test/automation-fake.ts';

// The automation page of an order form against a fake server keeping its automations in memory.

function openPage() {
  setToken('t1');
  setEngineCode('alpha01');
  return renderPage('/form/automation/:schemaCode', <AutomationPage />, '/form/automation/f_order');
}

/** Picks an option of an antd select by its visible title. */
async function choose(combobox: HTMLElement, title: string) {
  fireEvent.mouseDown(combobox);
  const options = await screen.findAllByTitle(title);
  fireEvent.click(options.at(-1)!);
}

const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

describe('the automation page', { timeout: 60_000 }, () => {
  it("is reached from the form designer's 自动化 button once the form is published", async () => {
    stubDesigner();
    const user = userEvent.setup();
    const { router } = renderPage('/form/designer', <FormDesignerPage />, '/form/designer?schemaCode=f_lead', [{ path: '/form/automation/:schemaCode', element: <div>automation-stub</div> }]);
    await screen.findByRole('heading', { name: '线索登记' });
    await user.click(screen.getByRole('button', { name: /自动化/ }));
    expect(await screen.findByText('automation-stub')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/form/automation/f_lead');
  });

  it('lists the automations with the trigger in words, the owner, and switches one off and on', async () => {
    const server = stubAutomationServer({ automations: [savedAutomation(), savedAutomation({ id: 'a2', name: '交付前提醒', enabled: false, trigger: { type: 'date', field: 'DueDate', offsetDays: -3, time: '09:00' }, nextRunTime: '2026-12-01T01:00:00.000Z' })] });
    const user = userEvent.setup();
    openPage();
    expect(await screen.findByRole('heading', { name: '订单 · 自动化' })).toBeTruthy();
    const first = (await screen.findByText('订单生效后通知负责人')).closest('tr')!;
    expect(within(first).getByText('数据生效时')).toBeTruthy();
    expect(within(first).getByText('张三')).toBeTruthy();
    expect(within(rowOf('交付前提醒')).getByText('「交付日期」前3天 09:00')).toBeTruthy();

    await user.click(screen.getByRole('switch', { name: '启用 订单生效后通知负责人' }));
    await waitFor(() => expect(server.callsTo('POST', '/v1/automatic/disable').map((c) => c.body)).toEqual([{ id: 'a1' }]));
    await waitFor(() => expect(screen.getByRole('switch', { name: '启用 订单生效后通知负责人' }).getAttribute('aria-checked')).toBe('false'));
    await user.click(screen.getByRole('switch', { name: '启用 交付前提醒' }));
    await waitFor(() => expect(server.callsTo('POST', '/v1/automatic/enable').map((c) => c.body)).toEqual([{ id: 'a2' }]));
  });

  it('runs a custom-triggered automation on demand', async () => {
    const server = stubAutomationServer({ automations: [savedAutomation({ id: 'a3', name: '月末对账', trigger: { type: 'custom' } })] });
    const user = userEvent.setup();
    openPage();
    await user.click(await screen.findByRole('button', { name: '立即运行 月末对账' }));
    await waitFor(() => expect(server.callsTo('POST', '/v1/bizdata/action/automation').map((c) => c.body)).toEqual([{ schemaCode: 'f_order', automationId: 'a3', objectIds: [] }]));
    expect(await screen.findByText('已加入运行队列，结果见运行日志')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /立即运行 订单/ })).toBeNull();
  });

  it('says what would appear when there are none, and offers to create one', async () => {
    stubAutomationServer();
    openPage();
    expect(await screen.findByText(/还没有自动化/)).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /新建自动化/ }).length).toBeGreaterThan(0);
  });

  it('builds "when an order becomes effective, insert a delivery and notify the owner" and saves what the contract takes', async () => {
    const server = stubAutomationServer();
    const user = userEvent.setup();
    openPage();
    await user.click((await screen.findAllByRole('button', { name: /新建自动化/ }))[0]!);
    const drawer = await screen.findByRole('dialog');
    await user.clear(within(drawer).getByLabelText('自动化名称'));
    await user.type(within(drawer).getByLabelText('自动化名称'), '订单生效后发货');

    // A condition on the order: 金额 above 100.
    const conditions = within(drawer).getByRole('group', { name: '条件' });
    await user.click(within(conditions).getByRole('button', { name: /添加条件/ }));
    await choose(within(conditions).getByLabelText('第1个条件的字段'), '金额');
    await choose(within(conditions).getByLabelText('第1个条件的比较方式'), '大于');
    await user.type(within(conditions).getByLabelText('第1个条件的值'), '100');

    // Step 1: insert a delivery, its 订单号 from the order's ObjectId.
    await user.click(within(drawer).getByRole('button', { name: /添加动作/ }));
    await user.click(await screen.findByText('新增数据'));
    const insert = await within(drawer).findByRole('group', { name: '1. 新增数据' });
    await user.click(within(insert).getByLabelText('目标表单'));
    await user.click(await screen.findByTitle('发货单（f_delivery）'));
    await user.click(within(insert).getByRole('button', { name: /添加映射/ }));
    await waitFor(() => expect(within(insert).getAllByTitle('订单号').length).toBeGreaterThan(0));

    // Step 2: notify the owner, the title naming the customer through 插入字段.
    await user.click(within(drawer).getByRole('button', { name: /添加动作/ }));
    await user.click(await screen.findByText('发送通知'));
    const notify = await within(drawer).findByRole('group', { name: '2. 发送通知' });
    await user.type(within(notify).getByLabelText('标题'), '新订单：');
    await user.click(within(notify).getByRole('button', { name: '在「标题」中插入字段' }));
    await user.click(await screen.findByRole('menuitem', { name: '客户' }));
    expect((within(notify).getByLabelText('标题') as HTMLInputElement).value).toBe('新订单：{Customer}');

    await user.click(within(drawer).getByRole('button', { name: /保存/ }));
    await waitFor(() => expect(server.saves).toHaveLength(1));
    const body = server.saves[0]!.body as { schemaCode: string; automation: unknown };
    expect(() => AutomationSaveBody.parse(body)).not.toThrow();
    const automation = Automation.parse(body.automation);
    expect(body.schemaCode).toBe('f_order');
    expect(automation).toMatchObject({
      name: '订单生效后发货',
      enabled: true,
      runAs: 'owner',
      trigger: { type: 'effective' },
      condition: { type: 'And', children: [{ field: 'Amount', operator: 'Above', value: 100 }] },
      steps: [
        { id: 'S1', type: 'insert', targetSchemaCode: 'f_delivery', forEach: null, status: 'effective', mappings: [{ field: 'OrderNo', op: 'set', value: { type: 'field', code: 'ObjectId' } }] },
        { id: 'S2', type: 'notification', recipients: { owner: true, creator: false }, title: '新订单：{Customer}' },
      ],
    });
    expect(await screen.findByText('已保存')).toBeTruthy();
  });

  it('refuses to save what the model refuses, and says where', async () => {
    const server = stubAutomationServer();
    const user = userEvent.setup();
    openPage();
    await user.click((await screen.findAllByRole('button', { name: /新建自动化/ }))[0]!);
    const drawer = await screen.findByRole('dialog');
    await user.click(within(drawer).getByRole('button', { name: /保存/ }));
    expect(await within(drawer).findByText(/请添加至少一个执行动作/)).toBeTruthy();
    await user.click(within(drawer).getByRole('button', { name: /添加动作/ }));
    await user.click(await screen.findByText('新增数据'));
    await user.click(within(drawer).getByRole('button', { name: /保存/ }));
    expect(await within(drawer).findByText(/动作 1 · 请设置字段映射/)).toBeTruthy();
    expect(server.saves).toHaveLength(0);
  });

  it('saves a smart-action button for one role, then shows a webhook trigger its URL once saved; closing with changes asks first', async () => {
    const server = stubAutomationServer();
    const user = userEvent.setup();
    openPage();
    await user.click((await screen.findAllByRole('button', { name: /新建自动化/ }))[0]!);
    const drawer = await screen.findByRole('dialog');
    await choose(within(drawer).getByLabelText('触发方式'), '点击按钮时');
    await user.type(within(drawer).getByLabelText('按钮名称'), '确认发货');
    await user.click(within(drawer).getByRole('checkbox', { name: '列表' }));
    await choose(within(drawer).getByLabelText('可见角色'), '销售');
    await user.type(within(drawer).getByLabelText('确认提示（可选）'), '确认后将生成发货单');
    await user.click(within(drawer).getByRole('button', { name: /添加动作/ }));
    await user.click(await screen.findByText('机器人消息'));
    await user.type(within(drawer).getByLabelText('标题'), '已确认发货');
    await user.click(within(drawer).getByRole('button', { name: /保存/ }));
    await waitFor(() => expect(server.saves).toHaveLength(1));
    expect(Automation.parse((server.saves[0]!.body as { automation: unknown }).automation).trigger).toEqual({
      type: 'button', label: '确认发货', locations: ['form', 'list'], roleIds: ['role-sales'], confirmText: '确认后将生成发货单', resultMessage: '',
    });

    // The same automation as a webhook: no URL before saving, its URL with a copy button after.
    await choose(within(drawer).getByLabelText('触发方式'), 'Webhook 调用时');
    expect(within(drawer).getByText('保存后生成调用地址和密钥。')).toBeTruthy();
    await user.click(within(drawer).getByRole('button', { name: /保存/ }));
    await waitFor(() => expect(server.saves).toHaveLength(2));
    expect((server.saves[1]!.body as { automation: { id?: string } }).automation.id).toBe('a1');
    expect(await within(drawer).findByText(`${window.location.origin}/v1/automatic/webhook/a1?token=s3cret`)).toBeTruthy();
    expect(within(drawer).getByRole('button', { name: /复制|copy/i })).toBeTruthy();

    // A change after saving: closing asks, and 继续编辑 keeps the drawer.
    await user.clear(within(drawer).getByLabelText('自动化名称'));
    await user.type(within(drawer).getByLabelText('自动化名称'), '改名');
    await user.click(within(drawer).getByRole('button', { name: /close|关闭/i }));
    await user.click(await screen.findByRole('button', { name: '继续编辑' }));
    expect(within(drawer).getByLabelText('自动化名称')).toBeTruthy();
  });
});
