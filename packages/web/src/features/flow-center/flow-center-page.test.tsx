import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FlowCenterPage } from './flow-center-page.tsx';
import { TodoBlock } from './todo-block.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { ok, stubFetch, type RecordedCall } from '../../test/fetch-stub.ts';
import { renderPage } from '../../test/render.tsx';
import { findDialog } from '../../test/find-dialog.ts';
import { preloadWorkbenchPages } from '../workbench/components/pc-workbench.tsx';

// The workbench's pages are loaded lazily; a first load of their modules here is slow (pc-workbench.tsx).
beforeAll(preloadWorkbenchPages);

// The flow center against a fake server: tabs with capped badges, rows linking to the record, search and form
// filter sent to the server, rapid approval with a per-item answer.

const row = (n: number, extra: Record<string, unknown> = {}) => ({
  instanceId: `i${n}`, schemaCode: 'f_expense', objectId: `o${n}`, instanceName: `差旅 ${n}`, formName: '报销单', appCode: 'fin',
  originator: 'u9', originatorName: '李四', instanceState: 'Running', approval: -1, currentActivities: [{ code: 'A', name: '部门审批' }],
  startTime: '2026-11-20T02:00:00.000Z', finishedTime: null, workItemId: `w${n}`, itemType: 'approve', activityCode: 'A', activityName: '部门审批',
  itemState: 'Working', receivedTime: '2026-11-20T02:00:00.000Z', itemFinishedTime: null, urged: false, dueTime: null, overdue: false, ...extra,
});

function stubServer(options: { rapid?: (call: RecordedCall) => Response } = {}) {
  return stubFetch({
    'POST /v1/workflow/todos/list': (call) => {
      const body = call.body as { tab: string; keyword?: string };
      if (body.tab === 'todo') return ok({ list: [row(1, { urged: true, dueTime: '2026-11-21T02:00:00.000Z' }), row(2, { dueTime: '2026-11-20T03:00:00.000Z', overdue: true }), row(3, { itemType: 'fill', activityCode: 'Start', activityName: '发起' })], total: 3, hasMore: false });
      if (body.tab === 'apply') return ok({ list: [row(7, { workItemId: null, instanceName: body.keyword ? `${body.keyword}报销` : '我的报销', instanceState: 'Finished', approval: 1, currentActivities: [] })], total: 1, hasMore: false });
      return ok({ list: [], total: 0, hasMore: false });
    },
    'GET /v1/workflow/todos/count': () => ok({ todo: 120, toRead: 4 }),
    'GET /v1/workflow/todos/unfinished/count': () => ok({ count: 0 }),
    'GET /v1/workflow/todos/forms': () => ok({ list: [{ schemaCode: 'f_expense', formName: '报销单' }, { schemaCode: 'f_leave', formName: '请假单' }] }),
    'POST /v1/workflow/todos/rapid-approve': (call) =>
      options.rapid?.(call) ?? ok({ results: (call.body as { workItemIds: string[] }).workItemIds.map((id) => ({ workItemId: id, successful: true, errorCode: null, errorMessage: null })), successCount: 2, failCount: 0 }),
    'GET /v1/remindtask/unread/count': () => ok({ count: 3 }),
    'POST /v1/remindtask/list': () =>
      ok({
        list: [
          { taskId: 't1', kind: 'urge', content: '今天要处理', taskState: 'unread', senderId: 'u9', senderName: '李四', instanceId: 'i1', workItemId: null, schemaCode: 'f_expense', objectId: 'o1', instanceName: '差旅 1', createdTime: '2026-11-20T03:00:00.000Z', readTime: null },
          { taskId: 't2', kind: 'todo', content: '', taskState: 'read', senderId: 'u9', senderName: '李四', instanceId: 'i2', workItemId: 'w2', schemaCode: 'f_expense', objectId: 'o2', instanceName: '差旅 2', createdTime: '2026-11-20T02:00:00.000Z', readTime: '2026-11-20T02:30:00.000Z' },
        ],
        total: 2,
        hasMore: false,
      }),
    'PUT /v1/remindtask/state/read': () => ok({ updated: 1 }),
  });
}

const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

describe('flow center', () => {
  it('shows the todo tab with capped badges, the urged marker and rows that open the record', async () => {
    stubServer();
    renderPage('/workbench/flow', <FlowCenterPage />, '/workbench/flow?tab=todo');
    expect(await screen.findByText('差旅 1')).toBeTruthy();
    expect(screen.getByTestId('badge-todo').textContent).toBe('99+');
    expect(screen.getByTestId('badge-toRead').textContent).toBe('4');
    expect(screen.queryByTestId('badge-apply')).toBeNull();
    expect(within(rowOf('差旅 1')).getByText('催办')).toBeTruthy();
    expect(within(rowOf('差旅 2')).queryByText('催办')).toBeNull();
    expect(screen.getByText('差旅 1').closest('a')?.getAttribute('href')).toBe('/form/open/f_expense/o1');
    expect(within(rowOf('差旅 1')).getByText('李四')).toBeTruthy();
    // The deadline of a node with a time limit; a passed one is marked 已超时 in red (docs/decisions/0042).
    expect(screen.getByRole('columnheader', { name: '办理期限' })).toBeTruthy();
    expect(within(rowOf('差旅 2')).getByText('已超时')).toBeTruthy();
    expect(within(rowOf('差旅 1')).queryByText('已超时')).toBeNull();
    expect(within(rowOf('差旅 1')).getByText(formatDateTime('2026-11-21T02:00:00.000Z'))).toBeTruthy();
    expect(within(rowOf('差旅 3')).getAllByText('—').length).toBeGreaterThan(0);
    // A fill item cannot be approved in a batch.
    expect((within(rowOf('差旅 3')).getByRole('checkbox') as HTMLInputElement).disabled).toBe(true);
  });

  it('switches tabs and sends the search and the form filter to the server', async () => {
    const { callsTo } = stubServer();
    const user = userEvent.setup();
    renderPage('/workbench/flow', <FlowCenterPage />, '/workbench/flow?tab=todo');
    await screen.findByText('差旅 1');
    await user.click(screen.getByRole('tab', { name: /我发起的/ }));
    expect(await screen.findByText('我的报销')).toBeTruthy();
    await user.type(screen.getByRole('searchbox', { name: '搜索流程名称' }), '年度{Enter}');
    expect(await screen.findByText('年度报销')).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: '全部表单' }));
    await user.click(await screen.findByText('请假单'));
    await waitFor(() => expect(callsTo('POST', '/v1/workflow/todos/list').at(-1)?.body).toMatchObject({ tab: 'apply', keyword: '年度', schemaCode: 'f_leave', pageIndex: 0 }));
  });

  it('rapid approval agrees the selected items and lists the ones the server refused', async () => {
    const { callsTo } = stubServer({
      rapid: () =>
        ok({
          results: [
            { workItemId: 'w1', successful: true, errorCode: null, errorMessage: null },
            { workItemId: 'w2', successful: false, errorCode: 280007, errorMessage: '该待办已被处理' },
          ],
          successCount: 1,
          failCount: 1,
        }),
    });
    const user = userEvent.setup();
    renderPage('/workbench/flow', <FlowCenterPage />, '/workbench/flow?tab=todo');
    await screen.findByText('差旅 1');
    const button = screen.getByRole('button', { name: '快速审批' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(rowOf('差旅 1')).getByRole('checkbox'));
    await user.click(within(rowOf('差旅 2')).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: '快速审批（2）' }));
    const dialog = await findDialog('快速审批（同意所选 2 条）');
    await user.type(within(dialog).getByRole('textbox', { name: '审批意见' }), '同意报销');
    await user.click(within(dialog).getByRole('button', { name: '全部同意' }));
    await waitFor(() => expect(callsTo('POST', '/v1/workflow/todos/rapid-approve')).toHaveLength(1));
    expect(callsTo('POST', '/v1/workflow/todos/rapid-approve')[0].body).toEqual({ workItemIds: ['w1', 'w2'], opinion: { text: '同意报销' } });
    expect(await within(dialog).findByText('差旅 2：该待办已被处理')).toBeTruthy();
  });

  it('the workbench home\'s todo block lists the newest todos and leads to the flow center', async () => {
    const { callsTo } = stubServer();
    renderPage('/workbench', <TodoBlock />);
    expect(await screen.findByText('差旅 1')).toBeTruthy();
    expect(callsTo('POST', '/v1/workflow/todos/list')[0].body).toEqual({ tab: 'todo', pageIndex: 0, pageSize: 5 });
    expect(screen.getByRole('link', { name: '进入流程中心（3 条待办）' }).getAttribute('href')).toBe('/workbench/flow?tab=todo');
  });
});
