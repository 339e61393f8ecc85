/**
 * Conditions a board adds to its widgets, in the filter model (docs/decisions/0044): the value of a board filter on a
 * bound field, and the drill-down from one group (a bar, a slice, a cell) to the records inside it.
 */
import { BizObjectStatus } from '../constants/data-status.ts';
import type { FilterLeaf, FilterNode, FilterValue, QueryNode } from '../query/filter.ts';
import type { BoardDefinition, BoardFilterKind, DateGroup, ReportDimension, Widget } from './model.ts';

const isBlankValue = (v: FilterValue | undefined) => v == null || v === '' || (Array.isArray(v) && (v.length === 0 || v.every((x) => x == null || x === '')));

/** The leaf a board filter's value puts on a bound field; undefined when the value is empty (the filter is off). */
export function boardFilterLeaf(kind: BoardFilterKind, field: string, value: FilterValue | undefined): FilterLeaf | undefined {
  if (isBlankValue(value)) return undefined;
  if (kind === 'dateRange') {
    const [from, to] = Array.isArray(value) ? value : [value, value];
    return { field, operator: 'Between', value: [from ?? null, to ?? null] };
  }
  if (Array.isArray(value)) return { field, operator: 'In', value };
  return { field, operator: 'Equal', value };
}

/** The conditions of every board filter bound to a widget, AND-ed; undefined when none applies. */
export function boardConditionsOf(board: Pick<BoardDefinition, 'filters'>, widgetId: string, values: Record<string, FilterValue | undefined>): FilterNode | undefined {
  const leaves: FilterLeaf[] = [];
  for (const f of board.filters) {
    for (const b of f.bindings) {
      if (b.widgetId !== widgetId) continue;
      const leaf = boardFilterLeaf(f.kind, b.field, values[f.id]);
      if (leaf) leaves.push(leaf);
    }
  }
  return leaves.length ? { type: 'And', children: leaves } : undefined;
}

const pad = (n: number) => String(n).padStart(2, '0');
const ymd = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const DAY_MS = 86_400_000;

/** The first and last day (yyyy-mm-dd, both inclusive) of a date group's key as the server answers it; null if not one. */
export function dateGroupRange(group: DateGroup, key: string): [string, string] | null {
  let m: RegExpExecArray | null;
  if (group === 'year' && (m = /^(\d{4})$/.exec(key))) return [`${m[1]}-01-01`, `${m[1]}-12-31`];
  if (group === 'quarter' && (m = /^(\d{4})-Q([1-4])$/.exec(key))) {
    const y = Number(m[1]);
    const q = Number(m[2]);
    return [ymd(new Date(Date.UTC(y, (q - 1) * 3, 1))), ymd(new Date(Date.UTC(y, q * 3, 1) - DAY_MS))];
  }
  if (group === 'month' && (m = /^(\d{4})-(\d{2})$/.exec(key))) {
    const y = Number(m[1]);
    const mo = Number(m[2]);
    return [`${m[1]}-${m[2]}-01`, ymd(new Date(Date.UTC(y, mo, 1) - DAY_MS))];
  }
  if (group === 'week' && (m = /^(\d{4})-W(\d{2})$/.exec(key))) {
    // ISO week: week 1 holds the year's first Thursday; weeks start on Monday.
    const jan4 = new Date(Date.UTC(Number(m[1]), 0, 4));
    const monday = jan4.getTime() - ((jan4.getUTCDay() + 6) % 7) * DAY_MS + (Number(m[2]) - 1) * 7 * DAY_MS;
    return [ymd(new Date(monday)), ymd(new Date(monday + 6 * DAY_MS))];
  }
  if (group === 'day' && /^\d{4}-\d{2}-\d{2}$/.test(key)) return [key, key];
  return null;
}

/**
 * The records inside one group of a widget: one leaf per dimension with the group's value (blank: IsBlank). A province
 * of an area field holds its cities and towns, and a department rolled up to a level holds the departments below it:
 * both drill with Contains (inside the region, the department or one below it). `dataTypes` are the answer's dimension
 * columns' data types, in order.
 */
export function drillConditions(dimensions: readonly ReportDimension[], values: readonly unknown[], dataTypes: readonly (string | undefined)[] = []): FilterLeaf[] {
  return dimensions.map((d, i) => {
    const value = values[i];
    if (value == null || value === '') return { field: d.field, operator: 'IsBlank' };
    if (d.dateGroup) {
      const range = dateGroupRange(d.dateGroup, String(value));
      return { field: d.field, operator: 'Between', value: range ?? [String(value), String(value)] };
    }
    if (dataTypes[i] === 'address' || (d.departmentLevel && dataTypes[i] === 'unit')) return { field: d.field, operator: 'Contains', value: String(value) };
    return { field: d.field, operator: 'Equal', value: value as string | number | boolean };
  });
}

const fieldsOf = (node: QueryNode | undefined): string[] => (!node ? [] : 'children' in node ? node.children.flatMap(fieldsOf) : [node.field]);

/**
 * The data statuses a widget counts, as a leaf of its conditions: Effective records only (drafts, records in flow
 * and cancelled ones are left out), so a dashboard counts what is in force. None (undefined) when the widget's source
 * includes drafts, or when the widget groups or filters by Status itself (`extra`: the board's conditions on it).
 * The drill-down to the records adds the same leaf, so the list holds what the group counted.
 */
export function widgetStatusLeaf(widget: Pick<Widget, 'source' | 'dimensions' | 'filter'>, extra?: QueryNode): FilterLeaf | undefined {
  if (!widget.source || widget.source.includeDrafts) return undefined;
  const named = [...widget.dimensions.map((d) => d.field), ...fieldsOf(widget.filter), ...fieldsOf(extra)];
  if (named.some((field) => field.toLowerCase() === 'status')) return undefined;
  return { field: 'Status', operator: 'Equal', value: BizObjectStatus.Effective };
}
