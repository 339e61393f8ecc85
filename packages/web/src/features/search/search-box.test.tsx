import { beforeAll, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SearchBox } from './search-box.tsx';
import { fail, ok, stubFetch } from '../../test/fetch-stub.ts';
import { renderPage } from '../../test/render.tsx';
import { preloadWorkbenchPages } from '../workbench/components/pc-workbench.tsx';

// The workbench's pages are loaded lazily; a first load of their modules here is slow (pc-workbench.tsx).
beforeAll(preloadWorkbenchPages);

// The top bar's search against a fake server: Ctrl+K opens it, short keywords are not sent, nodes come before records
// grouped by app and form, matches are marked (as text), the arrow keys and Enter open the chosen result, Esc closes.

const node = { code: 'crm_follow', appCode: 'crm', appName: '客户管理', displayName: '客户跟进', nodeType: 200, icon: 'form', iconColor: 'blue', highlights: [{ start: 0, length: 2 }] };
const hit = (objectId: string, title: string, snippet: string, start: number, fieldCode = 'Notes') => ({
  objectId, title, seqNo: null, fieldCode, fieldName: fieldCode === 'Name' ? '数据标题' : '跟进记录', createdTime: '2026-11-20T02:00:00.000Z',
  snippet: { text: snippet, highlights: [{ start, length: 2 }] },
});
const groups = [
  { appCode: 'crm', appName: '客户管理', schemaCode: 'crm_follow', formName: '客户跟进', nodeType: 200, hits: [hit('o1', '客户<b>拜访</b>', '客户<b>拜访</b>', 0, 'Name'), hit('o2', '北京回访', '下月与客户续签', 3)] },
  { appCode: 'sales', appName: '销售', schemaCode: 'sales_order', formName: '订单', nodeType: 200, hits: [hit('o3', '订单一', '老客户复购', 1)] },
];

function stubServer() {
  return stubFetch({
    'GET /v1/fulltextsearch/nodes': () => ok({ list: [node] }),
    'GET /v1/toolkit/fulltext/search': () => ok({ list: groups, pageIndex: 0, pageSize: 10, hasMore: false }),
  });
}

const extra = [{ path: '/form/open/:schemaCode/:objectId', element: <div>record-page</div> }, { path: '/workbench/app/:app/:node', element: <div>node-page</div> }];
const renderBox = () => renderPage('/', <SearchBox />, '/', extra);
const input = () => screen.getByRole('combobox', { name: '搜索关键字' });
const options = () => within(screen.getByRole('listbox', { name: '搜索结果' })).getAllByRole('option');
const selected = () => options().find((o) => o.getAttribute('aria-selected') === 'true')?.getAttribute('aria-label');

describe('the top bar search', () => {
  it('opens with Ctrl+K, waits for two characters, then lists nodes first and records grouped by app and form', async () => {
    const server = stubServer();
    const user = userEvent.setup();
    renderBox();
    expect(screen.queryByRole('combobox')).toBeNull();
    await user.keyboard('{Control>}k{/Control}');
    await waitFor(() => expect(document.activeElement).toBe(input()));
    await user.type(input(), '客');
    expect(await screen.findByText('请输入至少 2 个字符')).toBeTruthy();
    await user.type(input(), '户');
    await waitFor(() => expect(options()).toHaveLength(4));
    expect(server.callsTo('GET', '/v1/toolkit/fulltext/search').map((c) => new URL(c.url, 'http://x').searchParams.get('keyword'))).toEqual(['客户']);
    expect(server.callsTo('GET', '/v1/fulltextsearch/nodes')).toHaveLength(1);
    expect(options().map((o) => o.getAttribute('aria-label'))).toEqual(['客户跟进', '客户<b>拜访</b> 客户<b>拜访</b>', '北京回访 下月与客户续签', '订单一 老客户复购']);
    expect(screen.getByText('数据 · 客户管理 / 客户跟进')).toBeTruthy();
    expect(screen.getByText('数据 · 销售 / 订单')).toBeTruthy();
    // Matches are marked, and user text stays text.
    const marks = [...document.querySelectorAll('mark')].map((m) => m.textContent);
    expect(marks).toEqual(['客户', '客户', '客户', '客户']);
    expect(document.querySelector('[role="listbox"] b')).toBeNull();
    expect(screen.getAllByText('跟进记录：', { exact: false })).toHaveLength(2);
  });

  it('moves with the arrow keys, wraps around, and opens the chosen record with Enter', async () => {
    stubServer();
    const user = userEvent.setup();
    const { router } = renderBox();
    await user.click(screen.getByRole('button', { name: '全局搜索' }));
    await user.type(input(), '客户');
    await waitFor(() => expect(options()).toHaveLength(4));
    expect(selected()).toBe('客户跟进');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(selected()).toBe('北京回访 下月与客户续签');
    expect(input().getAttribute('aria-activedescendant')).toBe(options()[2]!.id);
    await user.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}');
    expect(selected()).toBe('订单一 老客户复购');
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(selected()).toBe('北京回访 下月与客户续签');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/form/open/crm_follow/o2'));
    expect(screen.queryByRole('combobox')).toBeNull();
  });

  it('opens a node with Enter, and closes with Esc without going anywhere', async () => {
    stubServer();
    const user = userEvent.setup();
    const { router } = renderBox();
    await user.keyboard('{Meta>}k{/Meta}');
    await user.type(input(), '客户');
    await waitFor(() => expect(options()).toHaveLength(4));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('combobox')).toBeNull());
    expect(router.state.location.pathname).toBe('/');
    await act(async () => {
      await user.keyboard('{Control>}k{/Control}');
    });
    await user.type(input(), '客户');
    await waitFor(() => expect(options()).toHaveLength(4));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/workbench/app/crm/crm_follow'));
  });

  it('says so when nothing is found, and when the search fails', async () => {
    stubFetch({
      'GET /v1/fulltextsearch/nodes': () => ok({ list: [] }),
      'GET /v1/toolkit/fulltext/search': (call) => {
        const keyword = new URL(call.url, 'http://localhost').searchParams.get('keyword');
        return keyword === '没有' ? ok({ list: [], pageIndex: 0, pageSize: 10, hasMore: false }) : fail(888, '服务器系统错误', {}, 500);
      },
    });
    const user = userEvent.setup();
    renderBox();
    await user.keyboard('{Control>}k{/Control}');
    await user.type(input(), '没有');
    expect(await screen.findByText('没有找到与“没有”相关的内容')).toBeTruthy();
    await user.clear(input());
    await user.type(input(), '出错');
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', '搜索失败，请稍后重试');
  });
});
