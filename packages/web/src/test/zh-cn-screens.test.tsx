import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { ApprovalTrace } from '../features/form-runtime/workflow/approval-trace.tsx';
import { DataLogPanel } from '../features/form-runtime/components/data-log-panel.tsx';
import { runtimeTree } from '../features/form-runtime/model/runtime-tree.ts';
import { CommentsPanel } from '../features/form-runtime/side/comments-panel.tsx';
import { comment, stubComments } from '../features/form-runtime/side/side-fake.ts';
import { FlowCenterPage } from '../features/flow-center/flow-center-page.tsx';
import { MessageList } from '../features/message-center/message-list.tsx';
import type { MessageDto } from '../features/message-center/message-api.ts';
import { SearchBox } from '../features/search/search-box.tsx';
import { preloadWorkbenchPages } from '../features/workbench/components/pc-workbench.tsx';
import { formatDateTime, formatDateTimeSeconds } from '../lib/date-format.ts';
import { ok, stubFetch } from './fetch-stub.ts';
import { renderPanel } from './render-panel.tsx';
import { renderPage } from './render.tsx';
import { findForeignText } from './zh-cn-text-check.ts';

// ui.md: a zh-CN screen shows no English and only the spec's zh-CN dates. Main screens with fixed data, read as text.

beforeAll(preloadWorkbenchPages);

const AT = '2026-11-28T21:27:04.000Z';
const LATER = '2026-11-29T02:05:00.000Z';
const EARLIER = '2025-03-01T02:05:00.000Z';
const foreignOnScreen = () => findForeignText(document.body.textContent ?? '');

const realMatchMedia = window.matchMedia;
afterEach(() => {
  window.matchMedia = realMatchMedia;
});

describe('zh-CN screens', () => {
  it('the approval history: the initiator 发起 the start node, times as YYYY-MM-DD HH:mm', async () => {
    stubFetch({
      'GET /v1/workflow/instance/detail': () =>
        ok({
          instance: {},
          tokens: [{ tokenId: 'tok-1', seq: 1, activityCode: 'Start', activityName: '开始' }, { tokenId: 'tok-2', seq: 2, activityCode: 'Manager', activityName: '经理审批' }],
          items: [{ workItemId: 'w2', activityCode: 'Manager', activityName: '经理审批', participant: 'u2', state: 'Working' }],
          comments: [
            { commentId: 'c0', tokenId: 'tok-1', workItemId: null, activityCode: 'Start', userId: 'u1', action: 'start', text: '', approval: 1, signature: null, attachmentIds: [], receivers: [], createdTime: AT },
            { commentId: 'c1', tokenId: 'tok-1', workItemId: 'w1', activityCode: 'Start', userId: 'u1', action: 'submit', text: '请审批', approval: 1, signature: null, attachmentIds: [], receivers: [], createdTime: AT },
            { commentId: 'c2', tokenId: 'tok-2', workItemId: 'w2', activityCode: 'Manager', userId: 'u2', action: 'submit', text: '', approval: 1, signature: null, attachmentIds: [], receivers: [], createdTime: LATER },
          ],
        }),
      'POST /v1/org/unit/batch': () => ok({ list: [{ id: 'u1', name: '张三' }, { id: 'u2', name: '李四' }] }),
    });
    renderPanel(<ApprovalTrace instanceId="wf-1" />);
    expect(await screen.findByText('请审批')).toBeTruthy();
    // The log's own start entry and the originator's submit read as one 发起.
    const entries = await screen.findAllByLabelText('审批记录');
    expect(entries).toHaveLength(2);
    const [start, manager] = entries;
    expect(within(start!).getByText('发起')).toBeTruthy();
    expect(within(start!).queryByText('同意')).toBeNull();
    expect(within(manager!).getByText('同意')).toBeTruthy();
    expect(within(start!).getByText(formatDateTime(AT))).toBeTruthy();
    expect(foreignOnScreen()).toEqual([]);
  });

  it('the flow center list', async () => {
    const row = { instanceId: 'i1', schemaCode: 'f_expense', objectId: 'o1', instanceName: '差旅报销', formName: '报销单', appCode: 'fin', originator: 'u9', originatorName: '李四', instanceState: 'Running', approval: -1, currentActivities: [{ code: 'A', name: '部门审批' }], startTime: AT, finishedTime: null, workItemId: 'w1', itemType: 'approve', activityCode: 'A', activityName: '部门审批', itemState: 'Working', receivedTime: AT, itemFinishedTime: null, urged: false, dueTime: LATER, overdue: false };
    stubFetch({
      'POST /v1/workflow/todos/list': () => ok({ list: [row], total: 1, hasMore: false }),
      'GET /v1/workflow/todos/count': () => ok({ todo: 1, toRead: 0 }),
      'GET /v1/workflow/todos/unfinished/count': () => ok({ count: 0 }),
      'GET /v1/workflow/todos/forms': () => ok({ list: [{ schemaCode: 'f_expense', formName: '报销单' }] }),
      'GET /v1/remindtask/unread/count': () => ok({ count: 0 }),
    });
    renderPage('/workbench/flow', <FlowCenterPage />, '/workbench/flow?tab=todo');
    expect(await screen.findByText('差旅报销')).toBeTruthy();
    expect(screen.getByText(formatDateTime(AT))).toBeTruthy();
    expect(screen.getByText(formatDateTime(LATER))).toBeTruthy();
    expect(foreignOnScreen()).toEqual([]);
  });

  it('the message list', async () => {
    const message = (messageId: string, createdTime: string): MessageDto => ({
      messageId, seq: 1, category: 'workflow', title: '请审批差旅报销', content: '李四提交了差旅报销', senderId: 'u9', senderName: '李四', state: 'unread',
      link: { schemaCode: 'f_expense', objectId: 'o1' } as MessageDto['link'], createdTime, readTime: null,
    });
    renderPage('/', <MessageList messages={[message('m1', new Date().toISOString()), message('m2', EARLIER)]} />);
    expect(await screen.findAllByText('请审批差旅报销')).toHaveLength(2);
    expect(screen.getByText(formatDateTime(EARLIER))).toBeTruthy();
    expect(foreignOnScreen()).toEqual([]);
  });

  it('the comments of a record', async () => {
    stubComments([comment('请尽快处理', { id: 'u2', name: '李四' }, { createdTime: AT })]);
    renderPanel(<CommentsPanel schemaCode="Orders" objectId="rec-1" />);
    expect(await screen.findByText('请尽快处理')).toBeTruthy();
    expect(screen.getByText(formatDateTime(AT))).toBeTruthy();
    expect(foreignOnScreen()).toEqual([]);
  });

  it('the data log of a record, to the second', async () => {
    stubFetch({
      'POST /v1/form/datalog/list': () => ok({ list: [{ id: 'l1', userId: 'u1', time: AT, changes: [{ code: 'CustomerName', from: '甲公司', to: '乙公司' }] }] }),
      'POST /v1/org/unit/batch': () => ok({ list: [{ id: 'u1', name: '张三' }] }),
    });
    const tree = runtimeTree([{ code: 'CustomerName', type: 'textBox', options: { displayName: '客户名称' } } as never]);
    renderPanel(<DataLogPanel schemaCode="Orders" objectId="rec-1" tree={tree} />);
    expect(await screen.findByText(formatDateTimeSeconds(AT))).toBeTruthy();
    await waitFor(() => expect(screen.getByText('张三')).toBeTruthy());
    expect(screen.getByText('客户名称：甲公司 → 乙公司')).toBeTruthy();
    expect(foreignOnScreen()).toEqual([]);
  });

  it('the search box on a phone shows no keyboard shortcut', async () => {
    window.matchMedia = ((query: string) => ({
      matches: query.includes('max-width: 767.98px'), media: query, onchange: null, addListener: () => {}, removeListener: () => {}, addEventListener: () => {}, removeEventListener: () => {}, dispatchEvent: () => false,
    })) as unknown as typeof window.matchMedia;
    renderPage('/', <SearchBox width="100%" />);
    expect(await screen.findByRole('button', { name: '全局搜索' })).toBeTruthy();
    expect(screen.queryByText(/Ctrl|⌘/)).toBeNull();
    expect(foreignOnScreen()).toEqual([]);
  });
});
