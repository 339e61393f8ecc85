import { describe, expect, it } from 'vitest';
import { BoardDefinition, boardConditionsOf, dateGroupRange, drillConditions, widgetStatusLeaf, type Widget } from './index.ts';

describe('board conditions', () => {
  it('date group keys back to their first and last day (ISO weeks across a new year, leap years)', () => {
    expect(dateGroupRange('year', '2026')).toEqual(['2026-01-01', '2026-12-31']);
    expect(dateGroupRange('quarter', '2024-Q1')).toEqual(['2024-01-01', '2024-03-31']);
    expect(dateGroupRange('quarter', '2026-Q4')).toEqual(['2026-10-01', '2026-12-31']);
    expect(dateGroupRange('month', '2024-02')).toEqual(['2024-02-01', '2024-02-29']);
    expect(dateGroupRange('week', '2026-W01')).toEqual(['2025-12-29', '2026-01-04']);
    expect(dateGroupRange('week', '2020-W53')).toEqual(['2020-12-28', '2021-01-03']);
    expect(dateGroupRange('day', '2026-11-26')).toEqual(['2026-11-26', '2026-11-26']);
    expect(dateGroupRange('month', '2026')).toBeNull();
  });

  it('a drill-down names each group value, a blank one as IsBlank', () => {
    expect(drillConditions([{ field: 'Due', dateGroup: 'month' }, { field: 'Region' }, { field: 'Owner' }], ['2026-02', '华东', null])).toEqual([
      { field: 'Due', operator: 'Between', value: ['2026-02-01', '2026-02-28'] },
      { field: 'Region', operator: 'Equal', value: '华东' },
      { field: 'Owner', operator: 'IsBlank' },
    ]);
  });

  it('a province drills into its cities and towns, a rolled-up department into the departments below it', () => {
    const dims = [{ field: 'Area' }, { field: 'OwnerDeptId', departmentLevel: 1 }, { field: 'Dept' }];
    expect(drillConditions(dims, ['440000', 'd1', 'd2'], ['address', 'unit', 'unit'])).toEqual([
      { field: 'Area', operator: 'Contains', value: '440000' },
      { field: 'OwnerDeptId', operator: 'Contains', value: 'd1' },
      { field: 'Dept', operator: 'Equal', value: 'd2' },
    ]);
  });

  it('board filters apply to the widgets bound to them only, and an empty value applies nothing', () => {
    const board = BoardDefinition.parse({
      widgets: [{ id: 'a', type: 'bar', layout: { x: 0, y: 0, w: 6, h: 4 } }, { id: 'b', type: 'table', layout: { x: 6, y: 0, w: 6, h: 4 } }],
      filters: [
        { id: 'when', kind: 'dateRange', label: '日期', bindings: [{ widgetId: 'a', field: 'Due' }, { widgetId: 'b', field: 'CreatedTime' }] },
        { id: 'dept', kind: 'department', label: '部门', bindings: [{ widgetId: 'a', field: 'OwnerDeptId' }] },
      ],
    });
    const values = { when: ['2026-01-01', '2026-01-31'], dept: ['d1', 'd2'] };
    expect(boardConditionsOf(board, 'a', values)).toEqual({ type: 'And', children: [{ field: 'Due', operator: 'Between', value: ['2026-01-01', '2026-01-31'] }, { field: 'OwnerDeptId', operator: 'In', value: ['d1', 'd2'] }] });
    expect(boardConditionsOf(board, 'b', { ...values, when: undefined })).toBeUndefined();
  });

  it('refuses a board whose filter names a widget it does not have, or a refresh under 30 seconds', () => {
    const bad = BoardDefinition.safeParse({ widgets: [], refreshSeconds: 10, filters: [{ id: 'f', kind: 'field', label: 'x', bindings: [{ widgetId: 'nope', field: 'A' }] }] });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join('.')).sort()).toEqual(['filters.0.bindings.0.widgetId', 'refreshSeconds']);
  });
});

describe('the data statuses a widget counts', () => {
  const widget = (over: Partial<Widget> = {}) => ({ source: { schemaCode: 'orders' }, dimensions: [], ...over }) as Pick<Widget, 'source' | 'dimensions' | 'filter'>;
  const EFFECTIVE = { field: 'Status', operator: 'Equal', value: 1 };

  it('Effective records only, by default', () => {
    expect(widgetStatusLeaf(widget())).toEqual(EFFECTIVE);
    expect(widgetStatusLeaf(widget({ filter: { type: 'And', children: [{ field: 'Kind', operator: 'Equal', value: 'x' }] } }))).toEqual(EFFECTIVE);
  });

  it('every status when the source includes drafts, or when the widget or the board names Status itself', () => {
    expect(widgetStatusLeaf(widget({ source: { schemaCode: 'orders', includeDrafts: true } }))).toBeUndefined();
    expect(widgetStatusLeaf(widget({ dimensions: [{ field: 'Status' }] }))).toBeUndefined();
    expect(widgetStatusLeaf(widget({ filter: { type: 'Or', children: [{ field: 'Kind', operator: 'Equal', value: 'x' }, { field: 'Status', operator: 'Equal', value: 0 }] } }))).toBeUndefined();
    expect(widgetStatusLeaf(widget(), { field: 'Status', operator: 'In', value: [0, 2] })).toBeUndefined();
    expect(widgetStatusLeaf(widget({ source: undefined }))).toBeUndefined();
  });
});
