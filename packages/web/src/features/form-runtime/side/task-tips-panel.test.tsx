import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TaskTipsPanel } from './task-tips-panel.tsx';
import { stubTaskTips, taskTip } from './side-fake.ts';
import { confirmPopover, renderPanel } from '../../../test/render-panel.tsx';

const list = () => screen.findByRole('list', { name: '任务提醒列表' });

describe('TaskTipsPanel', () => {
  it('lists tips with their time, state and receivers; cancel and delete only where allowed', async () => {
    stubTaskTips([taskTip('跟进合同'), taskTip('别人的提醒', { canChange: false, createdByName: '李四' }), taskTip('已取消的', { state: 'cancelled' })]);
    renderPanel(<TaskTipsPanel schemaCode="Orders" objectId="rec-1" />);
    const items = within(await list()).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(within(items[0]).getByText('待提醒')).toBeTruthy();
    expect(within(items[0]).getByText(/提醒：李四/)).toBeTruthy();
    expect(within(items[0]).getByRole('button', { name: '取消提醒' })).toBeTruthy();
    expect(within(items[1]).queryByRole('button')).toBeNull();
    expect(within(items[2]).getByText('已取消')).toBeTruthy();
    expect(within(items[2]).queryByRole('button', { name: '取消提醒' })).toBeNull();
    expect(within(items[2]).getByRole('button', { name: '删除' })).toBeTruthy();
  });

  it('cancels a pending tip and deletes one after confirming', async () => {
    const first = taskTip('跟进合同');
    const second = taskTip('催款');
    const { callsTo, tips } = stubTaskTips([first, second]);
    const user = userEvent.setup();
    renderPanel(<TaskTipsPanel schemaCode="Orders" objectId="rec-1" />);
    await user.click(within(within(await list()).getAllByRole('listitem')[0]).getByRole('button', { name: '取消提醒' }));
    await waitFor(() => expect(callsTo('POST', '/v1/tasktip/cancel')[0]?.body).toEqual({ id: first.id }));
    expect(await within(within(await list()).getAllByRole('listitem')[0]).findByText('已取消')).toBeTruthy();

    await user.click(within(within(await list()).getAllByRole('listitem')[1]).getByRole('button', { name: '删除' }));
    await confirmPopover(user, '删除这条任务提醒？', '删除');
    await waitFor(() => expect(callsTo('POST', '/v1/tasktip/remove')[0]?.body).toEqual({ id: second.id }));
    await waitFor(() => expect(screen.queryByText('催款')).toBeNull());
    expect(tips().map((tip) => [tip.content, tip.state])).toEqual([['跟进合同', 'cancelled']]);
  });

  it('adds a tip: content, a future time and the people to remind are required', async () => {
    const { callsTo } = stubTaskTips();
    const user = userEvent.setup();
    renderPanel(<TaskTipsPanel schemaCode="Orders" objectId="rec-1" />);
    expect(await screen.findByText('还没有任务提醒')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '添加提醒' }));
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('请填写提醒内容')).toBeTruthy();
    expect(screen.getByText('请选择提醒时间')).toBeTruthy();
    expect(screen.getByText('请选择提醒对象')).toBeTruthy();

    await user.click(screen.getByLabelText('提醒内容'));
    await user.paste('  回访客户 ');
    const time = screen.getByLabelText('提醒时间');
    await user.click(time);
    // Pasted in one go: typing re-renders the calendar panel on every key.
    await user.paste('2030-01-02 09:30');
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: '提醒对象' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('搜索', { exact: true }), 'ww');
    await user.click(await within(dialog).findByRole('checkbox', { name: /王五/ }));
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: '保存' }));

    await waitFor(() => expect(callsTo('POST', '/v1/tasktip/add')).toHaveLength(1));
    const sent = callsTo('POST', '/v1/tasktip/add')[0].body as { remindTime: string };
    expect(sent).toEqual({ schemaCode: 'Orders', objectId: 'rec-1', content: '回访客户', remindTime: sent.remindTime, receiverIds: ['u3'] });
    expect(new Date(sent.remindTime).getFullYear()).toBe(2030);
    expect(await within(await list()).findByText('回访客户')).toBeTruthy();
    expect(screen.queryByLabelText('提醒内容')).toBeNull();
  });
});
