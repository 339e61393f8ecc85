import type { QueryLeaf, QueryNode } from '@tritium/shared/query/index';
import { dayRange, dynamicDateRange, SHANGHAI_OFFSET_MINUTES } from '@tritium/shared/query/index';
import { widgetStatusLeaf, type Widget } from '@tritium/shared/report/index';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import { countColumn, type PreAggregateInfo, type PreAggregateShape } from './pre-aggregate.ts';
import { PERIODS } from './widget-sql.ts';

// When a widget may be read from the form's pre-aggregation (docs/decisions/0074): only when every part of it is
// answered exactly by the groups — otherwise the widget scans the form's table as before.

const DAY = 86_400_000;
/** The reports' zone (Asia/Shanghai) is UTC+8 all year: a day starts at 16:00 UTC. */
const ZONE_OFFSET = SHANGHAI_OFFSET_MINUTES * 60_000;
const startsADay = (d: Date) => (d.getTime() + ZONE_OFFSET) % DAY === 0;

function leaves(node: QueryNode | undefined, into: QueryLeaf[] = []): QueryLeaf[] {
  if (!node) return into;
  if ('children' in node) node.children.forEach((c) => leaves(c, into));
  else into.push(node);
  return into;
}

const isDay = (v: unknown) => typeof v === 'string' && dayRange(v) !== null;

/**
 * A condition on a date column that the days of the groups answer exactly: the query engine compiles a whole day
 * ('yyyy-mm-dd') and every dynamic range (today, this month, last 30 days…) to `>=` and `<` of a day's first instant,
 * true for the whole day or for none of it; an instant inside a day would cut a group in two.
 */
function dayExact(leaf: QueryLeaf): boolean {
  switch (leaf.operator) {
    case 'IsBlank':
    case 'NotBlank':
    case 'Dynamic':
      return true;
    case 'Between':
      return Array.isArray(leaf.value) && leaf.value.length === 2 && leaf.value.every((v) => v === null || isDay(v));
    case 'Equal':
    case 'NotEqual':
    case 'Above':
    case 'NotBelow':
    case 'Below':
    case 'NotAbove':
      return isDay(leaf.value);
    default:
      return false;
  }
}

export interface Answerable {
  /** A min or max is asked: the reader checks that no group's extremes went stale. */
  needsExtremes: boolean;
}

/**
 * Whether the pre-aggregation answers the widget for this viewer exactly, or null. Required: a record widget (no
 * sub-table); a viewer who sees every record or their own department's (the scope compiles to OwnerDeptId, a column
 * of the groups — own, relevant and flow scopes need the records); dimensions that are grouped columns (dates by any
 * grouping: each is a day or coarser); measures of the count, or a number field's count, sum, average, min or max, or a
 * distinct count of a grouped value column; filters only on grouped value columns, or on grouped dates by whole days
 * (dayExact: a dashboard's date range, a drill-down into a date group); a comparison on a grouped date whose periods start and end on day boundaries.
 */
export function answerable(form: RuntimeForm, shape: PreAggregateShape, info: PreAggregateInfo, widget: Widget, runtimeFilter: QueryNode | undefined, now: Date): Answerable | null {
  if (widget.source?.gridCode) return null;
  const scopes = form.rights.viewScopes;
  if (!scopes.includes('all') && !scopes.every((s) => s === 'ownDept')) return null;
  const values = new Set(shape.values.filter((c) => info.columns.has(c)));
  const days = new Set(shape.days.filter((c) => info.columns.has(c)));
  if (!widget.dimensions.every((d) => values.has(d.field) || days.has(d.field))) return null;
  let needsExtremes = false;
  for (const m of widget.measures) {
    if (!m.field) continue;
    if (m.aggregate === 'distinct') {
      if (!values.has(m.field)) return null;
      continue;
    }
    if (!info.columns.has(countColumn(m.field))) return null;
    if (m.aggregate === 'min' || m.aggregate === 'max') needsExtremes = true;
  }
  const status = widgetStatusLeaf(widget, runtimeFilter);
  if (![...leaves(widget.filter), ...leaves(runtimeFilter), ...(status ? [status as QueryLeaf] : [])].every((l) => values.has(l.field) || (days.has(l.field) && dayExact(l)))) return null;
  if (widget.compare) {
    if (!days.has(widget.compare.dateField)) return null;
    const ranges = PERIODS[widget.compare.period].map((p) => dynamicDateRange(p, now));
    if (!ranges.every((r) => startsADay(r.from) && startsADay(r.to))) return null;
  }
  return { needsExtremes };
}
