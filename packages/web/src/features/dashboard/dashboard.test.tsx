import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Widget } from '@tritium/shared/report/index';
import { ok, stubFetch, type RecordedCall } from '../../test/fetch-stub.ts';
import { renderPage } from '../../test/render.tsx';
import { setEngineCode, setToken } from '../../lib/session.ts';
import { BoardView } from './board-view.tsx';
import { chartModel, type ChartContext } from './model/chart-option.ts';
import { changeRatio, formatNumber } from './model/format.ts';
import { chinaProvinces } from './widgets/china-map.ts';
import type { BoardDto, ReportData } from './api/dashboard-api.ts';

const layout = { x: 0, y: 0, w: 6, h: 4 };
const ctx: ChartContext = { locale: 'zh-CN', words: { blank: '（空）', yes: '是', no: '否' }, colors: ['#1677ff'], textColor: '#000', mapLow: '#e6f4ff', mapEmpty: '#eee', mapHover: '#4096ff' };
const result = (over: Partial<ReportData>): ReportData => ({ columns: [], rows: [], subtotals: [], columnTotals: [], totals: null, labels: {}, truncated: false, comparison: null, cached: false, ...over });

describe('numbers and charts', () => {
  it('formats measures with decimals, separators, percent and unit, in both languages', () => {
    expect(formatNumber(12345.678, { decimals: 2, thousands: true, percent: false, unit: '元' }, 'zh-CN')).toBe('12,345.68 元');
    expect(formatNumber(0.256, { decimals: 1, thousands: true, percent: true }, 'en-US')).toBe('25.6%');
    expect(formatNumber(1234, { decimals: 0, thousands: false, percent: false }, 'zh-CN')).toBe('1234');
    expect(formatNumber(null, undefined, 'zh-CN')).toBe('-');
    expect(changeRatio(120, 100)).toBeCloseTo(0.2);
    expect(changeRatio(5, 0)).toBeNull();
  });

  it('a second dimension makes a series per value, and a click names both groups', () => {
    const widget = { id: 'w', type: 'bar', title: '', layout, dimensions: [{ field: 'Region' }, { field: 'Owner' }], measures: [{ aggregate: 'count' }], totals: false } as Widget;
    const data = result({
      columns: [
        { key: 'd0', label: '区域', kind: 'dimension', dataType: 'string' },
        { key: 'd1', label: '负责人', kind: 'dimension', dataType: 'user' },
        { key: 'm0', label: '记录数', kind: 'measure', dataType: 'decimal' },
      ],
      rows: [['华东', 'u1', 3], ['华东', 'u2', 1], ['华北', 'u1', 2]],
      labels: { u1: '张三', u2: '李四' },
    });
    const { option, groupsOf } = chartModel(widget, data, ctx);
    const series = option.series as { name: string; data: (number | null)[] }[];
    expect(series.map((s) => [s.name, s.data])).toEqual([['张三', [3, 2]], ['李四', [1, null]]]);
    expect((option.xAxis as { data: string[] }).data).toEqual(['华东', '华北']);
    expect(groupsOf(1, 0)).toEqual(['华北', 'u1']);
  });

  it('slices of a pie keep their group, a blank group is named', () => {
    const widget = { id: 'w', type: 'donut', title: '', layout, dimensions: [{ field: 'Kind' }], measures: [{ aggregate: 'count' }], totals: false } as Widget;
    const data = result({ columns: [{ key: 'd0', label: '类型', kind: 'dimension', dataType: 'string' }, { key: 'm0', label: '记录数', kind: 'measure', dataType: 'decimal' }], rows: [['x', 2], [null, 1]] });
    const { option, groupsOf } = chartModel(widget, data, ctx);
    expect((option.series as { data: { name: string }[]; radius: string[] }[])[0]!.data.map((s) => s.name)).toEqual(['x', '（空）']);
    expect((option.series as { radius: string[] }[])[0]!.radius).toEqual(['45%', '70%']);
    expect(groupsOf(1, 0)).toEqual([null]);
  });
});

describe('the map', () => {
  it('colours provinces by their code, names them as the area control does, and a click names the province', () => {
    const widget = { id: 'm', type: 'map', title: '', layout, dimensions: [{ field: 'Area' }], measures: [{ aggregate: 'count' }], totals: false } as Widget;
    const data = result({
      columns: [{ key: 'd0', label: '地址', kind: 'dimension', dataType: 'address' }, { key: 'm0', label: '记录数', kind: 'measure', dataType: 'decimal' }],
      rows: [['440000', 5], ['650000', 2], [null, 3]],
      labels: { '440000': '广东省', '650000': '新疆维吾尔自治区' },
    });
    const { option, groupsOf } = chartModel(widget, data, ctx);
    const [series] = option.series as { type: string; data: { name: string; value: number }[] }[];
    expect(series!.data).toEqual([{ name: '440000', value: 5 }, { name: '650000', value: 2 }]);
    expect((option.visualMap as { max: number }).max).toBe(5);
    const tip = (option.tooltip as { formatter: (p: unknown) => string }).formatter;
    expect(tip({ name: '440000', value: 5 })).toBe('广东省<br/>记录数: 5');
    expect(tip({ name: '110000', value: NaN, data: { regionName: '北京' } })).toBe('北京<br/>记录数: -');
    expect(groupsOf(1, 0)).toEqual(['650000']);
    // A province without records follows the data (ECharts appends it): no group, no drill.
    expect(groupsOf(2, 0)).toBeUndefined();
  });

  it('every province of the outlines is named by the code the area control gives it', async () => {
    const { areaTree } = await import('@tritium/shared/reference/areas');
    const provinces = new Map(areaTree('P').map((p) => [p.code, p.name]));
    const regions = chinaProvinces().features.map((f) => f.properties);
    expect(regions).toHaveLength(34);
    for (const r of regions) {
      expect(provinces.has(r.name)).toBe(true);
      // The outline's short name is the start of the control's full name (广东 → 广东省, 内蒙古 → 内蒙古自治区).
      expect(provinces.get(r.name)!.startsWith(r.echartsStyle.regionName)).toBe(true);
    }
  });
});

describe('a pivot', () => {
  it('puts the first dimension down, the second across, with row subtotals, column totals and the total', async () => {
    const widget = { id: 'p', type: 'pivot', title: '透视', layout, source: { schemaCode: 'orders' }, dimensions: [{ field: 'Region' }, { field: 'Kind' }], measures: [{ aggregate: 'count' }], totals: true } as Widget;
    const data = result({
      columns: [
        { key: 'd0', label: '区域', kind: 'dimension', dataType: 'string' },
        { key: 'd1', label: '类型', kind: 'dimension', dataType: 'string' },
        { key: 'm0', label: '记录数', kind: 'measure', dataType: 'decimal' },
      ],
      rows: [['华东', 'x', 3], ['华东', 'y', 1], ['华北', 'x', 2]],
      subtotals: [['华东', null, 4], ['华北', null, 2]],
      columnTotals: [[null, 'x', 5], [null, 'y', 1]],
      totals: [null, null, 6],
    });
    const { WidgetBody } = await import('./widgets/widget-body.tsx');
    stubFetch({});
    renderPage('/p', <WidgetBody widget={widget} data={data} />);
    const cells = (await screen.findAllByRole('row')).map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent).filter((x) => x !== ''));
    expect(cells).toEqual([['区域', 'x', 'y', '小计'], ['华东', '3', '1', '4'], ['华北', '2', '-', '2'], ['合计', '5', '1', '6']]);
  });
});

describe('a board', () => {
  beforeEach(() => {
    setToken('t');
    setEngineCode('alpha01');
  });

  const widgets: Widget[] = [
    { id: 'card', type: 'number', title: '销售额', layout, source: { schemaCode: 'orders' }, dimensions: [], measures: [{ aggregate: 'sum', field: 'Amount', format: { decimals: 0, thousands: true, percent: false, unit: '元' } }], compare: { dateField: 'OrderDate', period: 'month' }, totals: false },
    { id: 'tbl', type: 'table', title: '区域汇总', layout: { ...layout, y: 4 }, source: { schemaCode: 'orders' }, dimensions: [{ field: 'Region' }], measures: [{ aggregate: 'count' }], totals: true },
    { id: 'note', type: 'text', title: '说明', layout: { ...layout, x: 6 }, dimensions: [], measures: [], totals: false, text: '每日更新' },
  ];
  const board: BoardDto = {
    code: 'board', displayName: '销售看板', nodeType: 270, appCode: 'sales', canDesign: false, modifiedTime: null,
    definition: { widgets, refreshSeconds: 0, filters: [{ id: 'region', kind: 'field', label: '区域', bindings: [{ widgetId: 'tbl', field: 'Region' }] }] },
  };
  const answer = (call: RecordedCall) => {
    const { widget, filter } = call.body as { widget: Widget; filter?: { children: { value: unknown }[] } };
    if (widget.id === 'card') return ok(result({ columns: [{ key: 'm0', label: '金额求和', kind: 'measure', dataType: 'decimal' }], rows: [[5000]], comparison: { current: [1200], previous: [1000], from: '', to: '' } }));
    const rows = filter ? [['华东', 8]] : [['华东', 8], ['华北', 6]];
    return ok(result({ columns: [{ key: 'd0', label: '区域', kind: 'dimension', dataType: 'string' }, { key: 'm0', label: '记录数', kind: 'measure', dataType: 'decimal' }], rows, totals: [null, filter ? 8 : 14] }));
  };

  it('shows a number card with its comparison, a table with its total, and text; a filter narrows only the widgets bound to it', async () => {
    const { callsTo } = stubFetch({
      'GET /v1/dashboard/load': () => ok(board),
      'POST /v1/report/data': answer,
      'GET /v1/workbench/config': () => ok({ config: { components: [] }, isDefault: true }),
      'POST /v1/bizdata/distinctPropertyValue': () => ok({ list: [{ value: '华东', count: 8 }, { value: '华北', count: 6 }], total: 2, hasMore: false }),
    });
    const user = userEvent.setup();
    renderPage('/board', <BoardView code="board" />);
    expect(await screen.findByText('1,200 元')).toBeTruthy();
    expect(screen.getByText(/上月/).textContent).toContain('1,000 元');
    expect(screen.getByText(/20\.0%/)).toBeTruthy();
    const table = screen.getByText('区域汇总').closest('[data-widget]') as HTMLElement;
    await waitFor(() => expect(within(table).getByText('14')).toBeTruthy());
    expect(screen.getByText('每日更新')).toBeTruthy();

    await user.click(within(screen.getByRole('search')).getByRole('combobox'));
    await user.click(await screen.findByTitle('华东'));
    await waitFor(() => expect(within(table).queryByText('华北')).toBeNull());
    const filtered = callsTo('POST', '/v1/report/data').map((c) => c.body as { widget: Widget; filter?: unknown }).filter((b) => b.filter);
    expect(filtered.map((b) => [b.widget.id, b.filter])).toEqual([['tbl', { type: 'And', children: [{ field: 'Region', operator: 'In', value: ['华东'] }] }]]);
  });

  it('pins the board to the workbench as a dashboard component', async () => {
    const { callsTo } = stubFetch({
      'GET /v1/dashboard/load': () => ok(board),
      'POST /v1/report/data': answer,
      'GET /v1/workbench/config': () => ok({ config: { components: [{ id: 'apps', type: 'appList', visible: true, width: 4 }] }, isDefault: false }),
      'POST /v1/workbench/saveconfig': (call) => ok({ config: call.body, isDefault: false }),
    });
    const user = userEvent.setup();
    renderPage('/board', <BoardView code="board" />);
    await user.click(await screen.findByRole('button', { name: /固定到工作台/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/workbench/saveconfig')).toHaveLength(1));
    expect(callsTo('POST', '/v1/workbench/saveconfig')[0]!.body).toEqual({
      components: [{ id: 'apps', type: 'appList', visible: true, width: 4 }, { id: 'dashboard-board', type: 'dashboard', title: '销售看板', visible: true, width: 4, nodeCode: 'board' }],
    });
    expect(await screen.findByRole('button', { name: /已在工作台/ })).toBeTruthy();
  });
});
