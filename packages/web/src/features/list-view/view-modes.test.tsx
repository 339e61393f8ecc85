import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../test/render.tsx';
import { findDialog } from '../../test/find-dialog.ts';
import { fail, ok, stubFetch } from '../../test/fetch-stub.ts';
import { ListView } from './components/list-view.tsx';
import { saveMove } from './modes/save-move.ts';

// The view modes (docs/decisions/0047) against a fake server: the kanban board's columns, counts and "load more", the
// toolbar's mode switcher showing a list as cards, the designer's kanban settings (only fitting fields offered, save
// waiting for the group field), a refused move's message, and the phone's tiles and collapsed toolbar.

const definition = {
  attributes: { displayName: '任务', enableDataLog: false, enableFormSNS: false, enableTask: false },
  controls: [
    { type: 'textBox', code: 'Title', options: { displayName: '名称' } },
    { type: 'dropDown', code: 'Stage', options: { displayName: '阶段', defaultItems: ['待办', '完成'] } },
    { type: 'number', code: 'Hours', options: { displayName: '工时' } },
    { type: 'user', code: 'Lead', options: { displayName: '负责人' } },
  ],
};
const field = (code: string, title: string, controlType: string, dataType: string) => ({ code, title, controlType, dataType, sortable: true, operators: ['Equal'] });
const FIELDS = [field('Title', '名称', 'textBox', 'string'), field('Stage', '阶段', 'dropDown', 'string'), field('Hours', '工时', 'number', 'decimal'), field('Lead', '负责人', 'user', 'user'), field('Start', '开始', 'dateTime', 'datetime'), field('End', '结束', 'dateTime', 'datetime')];
const base = { scope: 3, rowHeight: 46, pageSize: 20, sort: [], filters: [], quickSearch: ['Title'], stats: [], actions: [{ code: 'Create', title: '新增', type: 'Create' }], styleRules: [], columns: [{ field: 'Title' }, { field: 'Hours' }] };
const LIST = { ...base, code: 'All', title: '全部任务', mode: 0 };
const BOARD = { ...base, code: 'Board', title: '任务看板', mode: 8, settings: { groupField: 'Stage', titleField: 'Title', fields: ['Hours'], pageSize: 10 } };
const LINE = { ...base, code: 'Line', title: '时间轴', mode: 2, settings: { startField: 'Start', endField: 'End', titleField: 'Title', groupField: 'Stage', zoom: 'week' } };
const ID = (n: number) => `0192eeee-0000-7000-8000-0000000000${String(n).padStart(2, '0')}`;
const task = (n: number, stage: string | null) => ({ ObjectId: ID(n), Name: `任务${n}`, Title: `任务${n}`, Stage: stage, Hours: n });

function stub(views: unknown[], options: { modesOff?: number[]; handlers?: Parameters<typeof stubFetch>[0] } = {}) {
  return stubFetch({
    'POST /v1/form/loadsetting': () => ok({ notModified: false, timestamp: 1, schema: { schemaCode: 'f_task', appCode: 'pm', displayName: '任务', nodeType: 200, version: 1, properties: [], childSchemas: [] }, definition }),
    'POST /v1/form/permission/mine': () => ok({ schemaCode: 'f_task', source: 'open', actions: ['view', 'create', 'edit', 'delete', 'import', 'export'], viewScopes: ['all'], editScopes: ['all'], fieldRights: {} }),
    'GET /v1/view/setting': () => ok({ schemaCode: 'f_task', views, canDesign: true, modesOff: options.modesOff ?? [] }),
    'GET /v1/page/header': (call) => {
      const code = new URL(call.url, 'http://localhost').searchParams.get('viewCode');
      const view = (views as { code: string; columns: { field: string }[] }[]).find((v) => v.code === code)!;
      return ok({ view, columns: view.columns.map((c) => ({ ...FIELDS.find((f) => f.code === c.field)!, width: null, fixed: null })), filters: [], modeFields: code === 'Board' || code === 'Line' ? [FIELDS[1]] : [] });
    },
    'GET /v1/preference/view/list': () => ok({ list: [] }),
    'POST /v1/bizdata/view/query': () => ok({ list: [task(1, '待办'), task(2, '完成')], total: 2, hasMore: false }),
    'POST /v1/bizdata/view/kanban': () => ok({
      groupField: 'Stage', columnsLeftOut: 0,
      columns: [
        { value: '待办', count: 12, list: Array.from({ length: 10 }, (_, i) => task(i + 1, '待办')), hasMore: true },
        { value: '完成', count: 1, list: [task(20, '完成')], hasMore: false },
        { value: null, count: 0, list: [], hasMore: false },
      ],
    }),
    'POST /v1/bizdata/view/kanban/column': () => ok({ list: [task(11, '待办'), task(12, '待办')], total: 12, hasMore: false }),
    'POST /v1/bizdata/view/calendar': () => {
      const now = Date.now();
      const at = (days: number) => new Date(now + days * 86_400_000).toISOString();
      return ok({ list: [{ ...task(1, '待办'), Start: at(-3), End: at(2) }, { ...task(2, '完成'), Start: at(1), End: at(9) }, { ...task(3, null), Start: at(-1), End: at(0) }], total: 3, hasMore: false });
    },
    'POST /v1/form/action/execute': () => fail(250003, '只有数据的创建人、拥有者或应用管理员可以修改或删除该数据'),
    'GET /v1/view/designer/load': () => ok({ schemaCode: 'f_task', views, fields: FIELDS, modesOff: options.modesOff ?? [] }),
    'POST /v1/view/designer/save': (call) => ok({ schemaCode: 'f_task', views: (call.body as { views: unknown[] }).views, canDesign: true, modesOff: [] }),
    ...options.handlers,
  });
}

async function choose(combobox: HTMLElement, title: string) {
  fireEvent.mouseDown(combobox);
  const options = await screen.findAllByTitle(title);
  fireEvent.click(options.at(-1)!);
}

const realMatchMedia = window.matchMedia;
afterEach(() => {
  window.matchMedia = realMatchMedia;
});

describe('the kanban board', { timeout: 90_000 }, () => {
  it('shows each column with its count and first cards, and loads more of a column', async () => {
    const { callsTo } = stub([BOARD]);
    const user = userEvent.setup();
    renderPage('/list', <ListView schemaCode="f_task" />);
    const board = await screen.findByRole('region', { name: '看板' }, { timeout: 20_000 });
    const todo = await within(board).findByRole('region', { name: '待办' });
    expect(within(todo).getByLabelText('12 条')).toBeTruthy();
    expect(within(todo).getAllByRole('button', { name: /^任务\d+$/ })).toHaveLength(10);
    expect(within(within(board).getByRole('region', { name: '未设置' })).getByText('没有数据')).toBeTruthy();
    // The board reads its own call; the list's page query is not asked.
    expect(callsTo('POST', '/v1/bizdata/view/query')).toHaveLength(0);
    expect(callsTo('POST', '/v1/bizdata/view/kanban')[0].body).toMatchObject({ schemaCode: 'f_task', viewCode: 'Board', keyword: '' });
    await user.click(within(todo).getByRole('button', { name: '加载更多（10/12）' }));
    expect(await within(todo).findByRole('button', { name: '任务12' })).toBeTruthy();
    expect(callsTo('POST', '/v1/bizdata/view/kanban/column')[0].body).toMatchObject({ viewCode: 'Board', value: '待办', pageIndex: 1 });
    expect(within(todo).getByRole('button', { name: '在“待办”中新增' })).toBeTruthy();
  });

  it("a refused move answers the server's message for the board to show", async () => {
    stub([BOARD]);
    const outcome = await saveMove('f_task', ID(1), { Stage: '完成' });
    expect(outcome).toEqual({ ok: false, message: '只有数据的创建人、拥有者或应用管理员可以修改或删除该数据' });
  });
});

describe('the mode switcher and the designer', { timeout: 90_000 }, () => {
  it('shows a list view as cards from the toolbar; a switched-off mode is not offered', async () => {
    const { callsTo } = stub([LIST], { modesOff: [7] });
    renderPage('/list', <ListView schemaCode="f_task" />);
    const switcher = await screen.findByRole('radiogroup', { name: '显示方式' }, { timeout: 20_000 });
    expect(within(switcher).queryByText('卡片')).toBeNull();
    fireEvent.click(within(switcher).getByText('宫格'));
    const cards = await screen.findByRole('list', { name: '卡片' });
    expect(within(cards).getAllByRole('listitem')).toHaveLength(2);
    expect(within(cards).getByRole('listitem', { name: '任务1' })).toBeTruthy();
    expect(callsTo('POST', '/v1/bizdata/view/query').length).toBeGreaterThan(0);
  });

  it('designs a kanban view: only option, user and status fields group it, and the save waits for one', async () => {
    const { callsTo } = stub([LIST]);
    const user = userEvent.setup();
    renderPage('/list', <ListView schemaCode="f_task" />);
    await screen.findByRole('radiogroup', { name: '显示方式' }, { timeout: 20_000 });
    await user.click(screen.getByRole('button', { name: /设计视图/ }));
    const dialog = await findDialog('设计视图');
    await user.click(await within(dialog).findByText('看板'));
    const panel = within(dialog).getByRole('group', { name: '看板设置' });
    const save = within(dialog).getByRole('button', { name: /^保\s*存$/ });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    fireEvent.mouseDown(within(panel).getByLabelText('分组字段'));
    expect(await screen.findAllByTitle('负责人')).toBeTruthy();
    const offered = () => [...document.querySelectorAll('.ant-select-dropdown .ant-select-item-option')].map((o) => o.getAttribute('title'));
    await waitFor(() => expect(offered()).toContain('负责人'));
    expect(offered()).not.toContain('工时');
    await choose(within(panel).getByLabelText('分组字段'), '阶段');
    await waitFor(() => expect((save as HTMLButtonElement).disabled).toBe(false));
    await user.click(save);
    await waitFor(() => expect(callsTo('POST', '/v1/view/designer/save')).toHaveLength(1));
    expect((callsTo('POST', '/v1/view/designer/save')[0].body as { views: any[] }).views[0]).toMatchObject({ mode: 8, settings: { groupField: 'Stage' } });
  });
});

describe('cards', { timeout: 90_000 }, () => {
  it('show the cover image of the photo field, the title and the chosen fields', async () => {
    const CARDS = { ...base, code: 'Cards', title: '卡片', mode: 7, settings: { coverField: 'Cover', titleField: 'Title', fields: ['Hours'] } };
    const cover = { id: '0192ffff-0000-7000-8000-000000000001', name: '现场.jpg', size: 100, contentType: 'image/jpeg' };
    stub([CARDS], { handlers: {
      'POST /v1/bizdata/view/query': () => ok({ list: [{ ...task(1, '待办'), Cover: [cover] }, task(2, '完成')], total: 2, hasMore: false }),
      'POST /v1/file/urls/byfileids': () => ok({ list: [{ fileId: cover.id, url: '/files/cover-1.jpg', expiresAt: '2030-01-01T00:00:00Z' }] }),
      'GET /v1/page/header': () => ok({ view: CARDS, columns: [{ ...FIELDS[0], width: null, fixed: null }], filters: [], modeFields: [FIELDS[2], { ...field('Cover', '照片', 'photo', 'files') }] }),
    } });
    renderPage('/list', <ListView schemaCode="f_task" />);
    const list = await screen.findByRole('list', { name: '卡片' }, { timeout: 20_000 });
    const first = within(list).getByRole('listitem', { name: '任务1' });
    await waitFor(() => expect(within(first).getByRole('img', { name: '现场.jpg' }).getAttribute('src')).toBe('/files/cover-1.jpg'));
    expect(within(first).getByText('工时')).toBeTruthy();
    expect(within(within(list).getByRole('listitem', { name: '任务2' })).queryByRole('img')).toBeNull();
  });
});

describe('the timeline', { timeout: 90_000 }, () => {
  it('draws the window\'s records as bars in rows by the group field, and moves the window', async () => {
    const { callsTo } = stub([LINE]);
    const user = userEvent.setup();
    renderPage('/list', <ListView schemaCode="f_task" />);
    const timeline = await screen.findByRole('region', { name: '时间轴' }, { timeout: 20_000 });
    expect(within(await within(timeline).findByRole('group', { name: '待办' })).getByRole('button', { name: '任务1' })).toBeTruthy();
    expect(within(within(timeline).getByRole('group', { name: '完成' })).getByRole('button', { name: '任务2' })).toBeTruthy();
    expect(within(within(timeline).getByRole('group', { name: '未设置' })).getByRole('button', { name: '任务3' })).toBeTruthy();
    const first = callsTo('POST', '/v1/bizdata/view/calendar')[0].body as { viewCode: string; start: string; end: string };
    expect(first.viewCode).toBe('Line');
    // Twelve weeks, today a third of the way in.
    expect((Date.parse(first.end) - Date.parse(first.start)) / 86_400_000).toBeGreaterThanOrEqual(83);
    await user.click(within(timeline).getByRole('button', { name: '下一段' }));
    await waitFor(() => expect(callsTo('POST', '/v1/bizdata/view/calendar').length).toBeGreaterThan(1));
    expect((callsTo('POST', '/v1/bizdata/view/calendar').at(-1)!.body as { start: string }).start).toBe(first.end);
  });
});

describe('on a phone', { timeout: 90_000 }, () => {
  it('a list opens as tiles; the toolbar keeps search, filter and add, the rest under 更多', async () => {
    window.matchMedia = ((query: string) => ({
      matches: query.includes('max-width: 767.98px'), media: query, onchange: null, addListener: () => {}, removeListener: () => {}, addEventListener: () => {}, removeEventListener: () => {}, dispatchEvent: () => false,
    })) as unknown as typeof window.matchMedia;
    stub([LIST]);
    const user = userEvent.setup();
    renderPage('/list', <ListView schemaCode="f_task" />);
    const cards = await screen.findByRole('list', { name: '卡片' }, { timeout: 20_000 });
    expect(within(cards).getAllByRole('listitem')).toHaveLength(2);
    const toolbar = screen.getByRole('toolbar');
    expect(within(toolbar).getByRole('button', { name: '新增' })).toBeTruthy();
    expect(within(toolbar).getByRole('button', { name: '筛选' })).toBeTruthy();
    expect(within(toolbar).getByLabelText('搜索')).toBeTruthy();
    expect(screen.queryByRole('radiogroup', { name: '显示方式' })).toBeNull();
    await user.click(within(toolbar).getByRole('button', { name: '更多' }));
    expect(await screen.findByRole('radiogroup', { name: '显示方式' })).toBeTruthy();
  });
});
