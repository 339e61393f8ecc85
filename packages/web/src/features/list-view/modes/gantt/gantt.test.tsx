import { beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../../../test/render.tsx';
import { fail, ok, stubFetch } from '../../../../test/fetch-stub.ts';
import { ListView } from '../../components/list-view.tsx';
import { DAY, arrangeTasks, dragged, levelMoves, linkPath, reordered, type TaskInput } from './gantt-model.ts';

// The Gantt chart (docs/decisions/0054): its arithmetic (levels, swimlanes, order, drags, arrows) and the chart against
// a fake server — tasks indented by level, a bar dragged a day later saved through /v1/gantt/task/update, a refused
// drag's message and the bar back in its place, a level change and a link from the chart.

// jsdom has no PointerEvent: without one, fired pointer events carry no coordinates.
if (typeof window.PointerEvent === 'undefined') {
  class PointerEventStub extends MouseEvent {
    pointerId: number;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 0;
    }
  }
  (window as unknown as { PointerEvent: unknown }).PointerEvent = PointerEventStub;
}

const T0 = new Date('2026-11-02T09:00:00').valueOf();
const input = (id: string, over: Partial<TaskInput> = {}): TaskInput => ({ id, parentId: null, type: 'task', sort: null, start: T0, end: T0 + DAY, lane: '', ...over });

describe('the Gantt arithmetic', () => {
  it('walks each lane depth first, siblings by place then start; a parent loop is cut, not lost', () => {
    const lanes = arrangeTasks([
      input('b', { start: T0 + 2 * DAY }),
      input('a'),
      input('a1', { parentId: 'a', start: T0 + 5 * DAY }),
      input('a2', { parentId: 'a', start: T0 + 9 * DAY, sort: 0 }),
      input('x', { lane: '前端' }),
      input('l1', { parentId: 'l2' }),
      input('l2', { parentId: 'l1' }),
    ]);
    expect(lanes.map((l) => [l.key, l.tasks.map((t) => `${t.id}@${t.depth}`)])).toEqual([
      ['', ['a@0', 'a2@1', 'a1@1', 'b@0', 'l1@0', 'l2@0']],
      ['前端', ['x@0']],
    ]);
    const a = lanes[0]!.tasks;
    expect(a.find((t) => t.id === 'a')!.hasChildren).toBe(true);
    expect(a.find((t) => t.id === 'a1')!.previousSibling).toBe('a2');
    const byId = new Map(a.map((t) => [t.id, t]));
    expect(levelMoves(byId.get('a1')!, byId)).toEqual({ up: null, down: 'a2' });
    expect(levelMoves(byId.get('a')!, byId)).toEqual({ up: undefined, down: undefined });
    expect(reordered(['a', 'b', 'c'], 'b', -1)).toEqual(['b', 'a', 'c']);
    expect(reordered(['a', 'b'], 'b', 1)).toBeNull();
  });

  it('turns a drag into whole days: a move shifts both ends, a resize one and never past the other', () => {
    const task = { start: T0, end: T0 + 2 * DAY };
    expect(dragged(task, 'move', 85, 40)).toEqual({ start: T0 + 2 * DAY, end: T0 + 4 * DAY });
    expect(dragged(task, 'move', 15, 40)).toBeNull();
    expect(dragged(task, 'end', -200, 40)).toEqual({ start: T0, end: T0 });
    expect(dragged(task, 'start', 40, 40)).toEqual({ start: T0 + DAY, end: T0 + 2 * DAY });
    expect(linkPath({ x: 10, y: 5 }, { x: 100, y: 45 })).toBe('M10,5 H20 V45 H100');
    expect(linkPath({ x: 100, y: 5 }, { x: 50, y: 45 })).toBe('M100,5 H110 V25 H40 V45 H50');
  });
});

const definition = {
  attributes: { displayName: '任务', enableDataLog: false, enableFormSNS: false, enableTask: false },
  controls: [
    { type: 'textBox', code: 'Title', options: { displayName: '名称' } },
    { type: 'dateTime', code: 'Start', options: { displayName: '开始' } },
    { type: 'dateTime', code: 'End', options: { displayName: '结束' } },
    { type: 'number', code: 'Done', options: { displayName: '进度' } },
  ],
};
const field = (code: string, title: string, controlType: string, dataType: string) => ({ code, title, controlType, dataType, sortable: true, operators: ['Equal'] });
const FIELDS = [field('Title', '名称', 'textBox', 'string'), field('Start', '开始', 'dateTime', 'datetime'), field('End', '结束', 'dateTime', 'datetime'), field('Done', '进度', 'number', 'decimal')];
const GANTT = {
  scope: 3, rowHeight: 46, pageSize: 20, sort: [], filters: [], quickSearch: [], stats: [], actions: [{ code: 'Create', title: '新增', type: 'Create' }], styleRules: [], columns: [{ field: 'Title' }],
  code: 'Plan', title: '计划', mode: 4, settings: { startField: 'Start', endField: 'End', titleField: 'Title', progressField: 'Done', parentField: 'Parent' },
};
const ID = (n: number) => `0192eeee-0000-7000-8000-0000000000${String(n).padStart(2, '0')}`;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const TASKS = {
  list: [
    { ObjectId: ID(1), Name: '设计', Title: '设计', Start: at(-2), End: at(0), Done: 50 },
    { ObjectId: ID(2), Name: '开发', Title: '开发', Start: at(1), End: at(4), Done: 0 },
    { ObjectId: ID(3), Name: '接口', Title: '接口', Start: at(1), End: at(2), Done: 0 },
  ],
  total: 3, hasMore: false, parentField: 'Parent',
  tasks: [
    { objectId: ID(1), parentId: null, type: 'task', sort: null },
    { objectId: ID(2), parentId: null, type: 'task', sort: null },
    { objectId: ID(3), parentId: ID(2), type: 'task', sort: null },
  ],
  links: [{ predecessor: ID(1), successor: ID(2) }],
};

function stub(update: () => Response) {
  return stubFetch({
    'POST /v1/form/loadsetting': () => ok({ notModified: false, timestamp: 1, schema: { schemaCode: 'f_task', appCode: 'pm', displayName: '任务', nodeType: 200, version: 1, properties: [], childSchemas: [] }, definition }),
    'POST /v1/form/permission/mine': () => ok({ schemaCode: 'f_task', source: 'open', actions: ['view', 'create', 'edit', 'delete'], viewScopes: ['all'], editScopes: ['all'], fieldRights: {} }),
    'GET /v1/view/setting': () => ok({ schemaCode: 'f_task', views: [GANTT], canDesign: true, modesOff: [] }),
    'GET /v1/page/header': () => ok({ view: GANTT, columns: [{ ...FIELDS[0], width: null, fixed: null }], filters: [], modeFields: FIELDS.slice(1) }),
    'GET /v1/preference/view/list': () => ok({ list: [] }),
    'POST /v1/bizdata/view/gantt': () => ok(TASKS),
    'POST /v1/gantt/task/update': update,
    'POST /v1/gantt/task/changelevel': () => ok({ objectId: ID(3) }),
    'POST /v1/gantt/task/savedependency': () => ok({ objectId: ID(3), predecessors: [ID(1)] }),
  });
}

const bar = (name: string) => within(screen.getByRole('region', { name: '甘特图' })).getAllByRole('button', { name }).find((b) => b.tagName === 'g')!;
const rectOf = (name: string) => bar(name).querySelector('rect')!;
const chart = () => screen.getByRole('region', { name: '甘特图' }).querySelector<SVGSVGElement>('svg[data-gantt-chart]')!;

async function dragBar(name: string, dx: number) {
  const from = Number(rectOf(name).getAttribute('x'));
  fireEvent.pointerDown(rectOf(name), { clientX: from + 5, clientY: 60, pointerId: 1 });
  fireEvent.pointerMove(chart(), { clientX: from + 5 + dx, clientY: 60, pointerId: 1 });
  fireEvent.pointerUp(chart(), { clientX: from + 5 + dx, clientY: 60, pointerId: 1 });
}

describe('the Gantt chart', () => {
  // The chart is a lazy chunk: loaded once before the first test, so no test waits on its compiling.
  beforeAll(() => import('./gantt-view.tsx'), 60_000);

  it('lists tasks by level, draws bars with progress and links, and saves a bar dragged a day later', async () => {
    const { callsTo } = stub(() => ok({ objectId: ID(2) }));
    renderPage('/list', <ListView schemaCode="f_task" />);
    const list = await screen.findByRole('list', { name: '任务' });
    await waitFor(() => expect(within(list).getAllByRole('listitem').map((i) => i.getAttribute('aria-label'))).toEqual(['设计', '开发', '接口']));
    // 接口 is under 开发: indented further.
    const [, dev, api] = within(list).getAllByRole('listitem');
    expect(parseInt(api!.style.paddingInlineStart)).toBeGreaterThan(parseInt(dev!.style.paddingInlineStart));
    expect(chart().querySelectorAll('path[marker-end]')).toHaveLength(1);
    expect(chart().textContent).toContain('设计 50%');
    const before = Number(rectOf('开发').getAttribute('x'));
    await dragBar('开发', 41);
    await waitFor(() => expect(callsTo('POST', '/v1/gantt/task/update')).toHaveLength(1));
    const body = callsTo('POST', '/v1/gantt/task/update')[0]!.body as { viewCode: string; objectId: string; start: string; end: string };
    expect(body).toMatchObject({ schemaCode: 'f_task', viewCode: 'Plan', objectId: ID(2) });
    expect(Date.parse(body.start) - Date.parse(TASKS.list[1]!.Start)).toBe(DAY);
    expect(Date.parse(body.end) - Date.parse(TASKS.list[1]!.End)).toBe(DAY);
    expect(await screen.findByText('已修改任务时间')).toBeTruthy();
    expect(before).toBeGreaterThan(0);
  });

  it("a refused drag shows the server's reason and the bar springs back", async () => {
    stub(() => fail(250003, '只有数据的创建人、拥有者或应用管理员可以修改或删除该数据'));
    renderPage('/list', <ListView schemaCode="f_task" />);
    await screen.findByRole('list', { name: '任务' });
    await waitFor(() => expect(rectOf('设计')).toBeTruthy());
    const before = rectOf('设计').getAttribute('x');
    await dragBar('设计', 120);
    expect(await screen.findByText(/不能修改任务：只有数据的创建人/)).toBeTruthy();
    await waitFor(() => expect(rectOf('设计').getAttribute('x')).toBe(before));
  });

  it('a task goes a level down under the sibling before it; a dot dropped on another task links them', async () => {
    const { callsTo } = stub(() => ok({}));
    renderPage('/list', <ListView schemaCode="f_task" />);
    await screen.findByRole('list', { name: '任务' });
    await userEvent.click(await screen.findByRole('button', { name: '任务操作：开发' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: '降级' }));
    await waitFor(() => expect(callsTo('POST', '/v1/gantt/task/changelevel')[0]?.body).toMatchObject({ objectId: ID(2), parentId: ID(1) }));
    // The dot after 设计 (row 1) dropped on 接口's row (row 3): header 40 px, rows 36 px.
    const dot = screen.getByRole('button', { name: '从“设计”建立依赖' });
    fireEvent.pointerDown(dot, { clientX: 10, clientY: 58, pointerId: 2 });
    fireEvent.pointerMove(chart(), { clientX: 200, clientY: 40 + 36 * 2 + 10, pointerId: 2 });
    fireEvent.pointerUp(chart(), { clientX: 200, clientY: 40 + 36 * 2 + 10, pointerId: 2 });
    await waitFor(() => expect(callsTo('POST', '/v1/gantt/task/savedependency')[0]?.body).toMatchObject({ objectId: ID(3), predecessors: [ID(1)] }));
  });
});
