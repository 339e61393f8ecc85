import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Automation } from '@tritium/shared/automation/index';
import { AutomationTestRunBody } from '@tritium/shared/contracts/automation/index';
import { renderPage } from '../../../test/render.tsx';
import { findDialog } from '../../../test/find-dialog.ts';
import { setEngineCode, setToken } from '../../../lib/session.ts';
import { AutomationPage } from '../automation-page.tsx';
import { savedAutomation, stubAutomationServer } from '../test/automation-fake.ts';

function openPage() {
  setToken('t1');
  setEngineCode('alpha01');
  return renderPage('/form/automation/:schemaCode', <AutomationPage />, '/form/automation/f_order');
}

describe('the test run', { timeout: 60_000 }, () => {
  it('runs the unsaved automation against a recent record and shows each step, labelled as writing nothing', async () => {
    const server = stubAutomationServer({ automations: [savedAutomation()] });
    const user = userEvent.setup();
    openPage();
    await user.click(await screen.findByRole('button', { name: '编辑 订单生效后通知负责人' }));
    const drawer = await screen.findByRole('dialog');
    // An unsaved change: the test run sends it, not what is stored.
    await user.clear(within(drawer).getByLabelText('自动化名称'));
    await user.type(within(drawer).getByLabelText('自动化名称'), '试一下');
    await user.click(within(drawer).getByRole('button', { name: /试运行/ }));
    const modal = await findDialog('开始试运行');
    expect(within(modal).getByText('试运行，不会写入数据')).toBeTruthy();
    const start = within(modal).getByRole('button', { name: '开始试运行' });
    expect(start.hasAttribute('disabled')).toBe(true);

    fireEvent.mouseDown(within(modal).getByLabelText('触发数据'));
    await user.click(await screen.findByText('华东贸易的订单（o-1001）'));
    await user.click(start);
    await waitFor(() => expect(server.callsTo('POST', '/v1/automatic/testrun')).toHaveLength(1));
    const body = AutomationTestRunBody.parse(server.callsTo('POST', '/v1/automatic/testrun')[0]!.body);
    expect(body.objectId).toBe('o-1001');
    expect(Automation.parse(body.automation).name).toBe('试一下');

    const result = await within(modal).findByRole('region', { name: '试运行' });
    expect(within(result).getByText('满足条件')).toBeTruthy();
    expect(within(result).getByText('生成发货单')).toBeTruthy();
    expect(within(result).getByText('成功')).toBeTruthy();
    expect(within(result).getByText(/"OrderNo": "o-1001"/)).toBeTruthy();
    expect(server.saves).toHaveLength(0);
  });
});
