import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MessageBell } from './message-bell.tsx';
import { MessagesPage } from './messages-page.tsx';
import { ok, stubFetch } from '../../test/fetch-stub.ts';
import { renderPage } from '../../test/render.tsx';
import { preloadWorkbenchPages } from '../workbench/components/pc-workbench.tsx';

// The workbench's pages are loaded lazily; a first load of their modules here is slow (pc-workbench.tsx).
beforeAll(preloadWorkbenchPages);

// The message center against a fake server: the bell's capped badge, the drawer of unread messages, marking all read,
// opening a message's record; the page's state and category filters sent to the server.

const message = (n: number, extra: Record<string, unknown> = {}) => ({
  messageId: `00000000-0000-4000-8000-00000000000${n}`, seq: n, category: 'workflow', title: `待办：差旅 ${n}`, content: '', senderId: 'u9', senderName: '李四',
  state: 'unread', link: { schemaCode: 'f_expense', objectId: `o${n}`, workItemId: null, instanceId: null }, createdTime: '2026-11-20T03:00:00.000Z', readTime: null, ...extra,
});

function stubServer(unread = 3) {
  return stubFetch({
    'POST /v1/toolkit/internalmessage/count': () => ok({ unread, categories: [{ category: 'workflow', unread: 2 }, { category: 'comment', unread: unread - 2 }] }),
    'POST /v1/toolkit/internalmessage/list': () =>
      ok({ list: [message(1, { content: '今天要处理' }), message(2, { category: 'comment', title: '评论了：报销单', state: 'read' })], total: 2, hasMore: false }),
    'POST /v1/toolkit/internalmessage/read': () => ok({ updated: 1 }),
  });
}

describe('message center', () => {
  it('the bell shows the unread count (99+ past 99), lists messages in a drawer, marks all read and opens a record', async () => {
    const { callsTo } = stubServer(120);
    const user = userEvent.setup();
    renderPage('/workbench', <MessageBell />, '/workbench', [{ path: '/form/open/:schemaCode/:objectId', element: <div>record-page</div> }]);
    const bell = await screen.findByRole('button', { name: '消息 120' });
    expect(screen.getByText('99+')).toBeTruthy();
    await user.click(bell);
    expect(await screen.findByText('今天要处理')).toBeTruthy();
    expect(callsTo('POST', '/v1/toolkit/internalmessage/list')[0].body).toEqual({ pageIndex: 0, pageSize: 20, state: 'unread' });
    expect(screen.getAllByText('来自 李四')).toHaveLength(2);
    expect(screen.getByText('评论')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '全部已读' }));
    await waitFor(() => expect(callsTo('POST', '/v1/toolkit/internalmessage/read')[0]?.body).toEqual({ all: true }));
    await user.click(screen.getByRole('button', { name: '待办：差旅 1' }));
    await waitFor(() => expect(callsTo('POST', '/v1/toolkit/internalmessage/read')[1]?.body).toEqual({ messageIds: [message(1).messageId] }));
    expect(await screen.findByText('record-page')).toBeTruthy();
  });

  it('the page filters by state and category', async () => {
    const { callsTo } = stubServer();
    const user = userEvent.setup();
    renderPage('/workbench/messages', <MessagesPage />);
    expect(await screen.findByText('待办：差旅 1')).toBeTruthy();
    expect(callsTo('POST', '/v1/toolkit/internalmessage/list')[0].body).toEqual({ pageIndex: 0, pageSize: 20, state: 'all' });
    await user.click(screen.getByText(/^未读/));
    await waitFor(() => expect(callsTo('POST', '/v1/toolkit/internalmessage/list').at(-1)?.body).toEqual({ pageIndex: 0, pageSize: 20, state: 'unread' }));
    await user.click(screen.getByRole('combobox', { name: '全部类型' }));
    await user.click(await screen.findByText('评论 (1)'));
    await waitFor(() => expect(callsTo('POST', '/v1/toolkit/internalmessage/list').at(-1)?.body).toEqual({ pageIndex: 0, pageSize: 20, state: 'unread', category: 'comment' }));
  });
});
