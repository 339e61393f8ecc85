import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../../test/render.tsx';
import { findDialog } from '../../../test/find-dialog.ts';
import { setEngineCode, setToken } from '../../../lib/session.ts';
import { AutomationPage } from '../automation-page.tsx';
import { run, savedAutomation, stubAutomationServer } from '../test/automation-fake.ts';

function openPage() {
  setToken('t1');
  setEngineCode('alpha01');
  return renderPage('/form/automation/:schemaCode', <AutomationPage />, '/form/automation/f_order');
}

const failed = run({ runId: 'r2', state: 'Failed', objectId: 'o-1002', error: 'HTTP 503', steps: [{ stepId: 'S1', type: 'http', name: '同步ERP', ok: false, output: { status: 503 }, error: 'HTTP 503', durationMs: 120 }] });

describe('the run log', { timeout: 60_000 }, () => {
  it("lists an automation's runs with their states, filters by state and keyword, shows a run's steps and retries a failed one", async () => {
    const server = stubAutomationServer({ automations: [savedAutomation()], runs: [run(), failed] });
    const user = userEvent.setup();
    openPage();
    await user.click(await screen.findByRole('button', { name: '运行日志 订单生效后通知负责人' }));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('成功')).toBeTruthy();
    expect(within(drawer).getByText('失败')).toBeTruthy();
    expect(server.callsTo('POST', '/v1/automatic/logs')[0]!.body).toMatchObject({ schemaCode: 'f_order', automationId: 'a1', pageIndex: 0, pageSize: 20 });

    // Only the failed ones, then a keyword.
    await user.click(within(drawer).getByLabelText('状态'));
    await user.click(await screen.findByTitle('失败'));
    await waitFor(() => expect(server.callsTo('POST', '/v1/automatic/logs').at(-1)!.body).toMatchObject({ state: 'Failed' }));
    await waitFor(() => expect(within(drawer).queryByText('o-1001')).toBeNull());
    await user.type(within(drawer).getByRole('searchbox', { name: '搜索数据 ID、错误或输出' }), 'o-1002{Enter}');
    await waitFor(() => expect(server.callsTo('POST', '/v1/automatic/logs').at(-1)!.body).toMatchObject({ state: 'Failed', keyword: 'o-1002' }));

    // The failed run's detail: the step's error and output.
    await user.click(within(drawer).getByText('o-1002'));
    const detail = await findDialog('订单生效后通知负责人 · 详情');
    expect(within(detail).getAllByText(/HTTP 503/).length).toBeGreaterThan(0);
    expect(within(detail).getByText('同步ERP')).toBeTruthy();
    expect(within(detail).getByText(/"status": 503/)).toBeTruthy();
    await user.click(within(detail).getByRole('button', { name: '重试' }));
    await waitFor(() => expect(server.callsTo('POST', '/v1/automatic/retry').map((c) => c.body)).toEqual([{ runId: 'r2' }]));
    expect(await screen.findByText('已重新加入队列')).toBeTruthy();
  });

  it('offers 重试 only on failed runs and says what will appear when there are none', async () => {
    stubAutomationServer({ automations: [savedAutomation()], runs: [] });
    const user = userEvent.setup();
    openPage();
    await user.click((await screen.findAllByRole('button', { name: /运行日志/ }))[0]!);
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText(/还没有运行记录/)).toBeTruthy();
    expect(within(drawer).queryByRole('button', { name: '重试' })).toBeNull();
  });
});
