import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { ViewMode } from '@tritium/shared/constants/views';
import { CALENDAR_VIEW_MAX_RECORDS } from '@tritium/shared/constants/limits';
import type { FilterNode, QueryNode } from '@tritium/shared/query/index';
import { calendarMode, settingsOf, timelineMode } from '@tritium/shared/view-modes/index';
import { AppError, parameterError } from '../../lib/app-error.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { queryWindow, type QueryOptions } from '../query/query.service.ts';
import { viewNarrowing, withCallerPaths } from './view-query.service.ts';

// The calendar (view mode 1) and the timeline (mode 2; docs/decisions/0047): the records whose dates overlap the visible range, at most 1,000
// (domain.md §9), by start date. The range is one more condition of the view's narrowing, so scope, fixed filter,
// filter and quick search hold as in the list. Moving or resizing an event saves through the form runtime.

/** Records of [from, to): start before `to`, and ending (or, without an end, starting) at or after `from`. */
export function rangeFilter(startField: string, endField: string | undefined, from: string, to: string): FilterNode {
  const startsBefore: FilterNode = { field: startField, operator: 'Below', value: to };
  if (!endField) return { type: 'And', children: [startsBefore, { field: startField, operator: 'NotBelow', value: from }] };
  return {
    type: 'And',
    children: [
      startsBefore,
      { type: 'Or', children: [{ field: endField, operator: 'NotBelow', value: from }, { type: 'And', children: [{ field: endField, operator: 'IsBlank' }, { field: startField, operator: 'NotBelow', value: from }] }] },
    ],
  };
}

export async function calendarRange(ctx: NodeContext, body: z.infer<typeof contracts.CalendarRangeBody>, options: QueryOptions = {}): Promise<contracts.CalendarRangeResult> {
  if (!(Date.parse(body.start) < Date.parse(body.end))) throw parameterError([{ path: 'end', message: '结束时间须晚于开始时间' }]);
  return withCallerPaths(async () => {
    const { view, narrowing } = await viewNarrowing(ctx, body);
    // The timeline (mode 2) places its bars by the same two dates and asks its window the same way.
    if (view.mode !== ViewMode.Calendar && view.mode !== ViewMode.Timeline) throw new AppError('ViewModeMismatch', { detail: { viewCode: view.code, mode: ViewMode.Calendar } });
    const settings = view.mode === ViewMode.Calendar ? settingsOf(calendarMode, view.settings) : settingsOf(timelineMode, view.settings);
    const filter: QueryNode = { type: 'And', children: [narrowing.filter ?? { type: 'And', children: [] }, rangeFilter(settings.startField, settings.endField, body.start, body.end)] };
    const sort = [{ field: settings.startField, direction: 'asc' as const }];
    const { list, total } = await queryWindow(ctx, { ...narrowing, filter, sort }, { offset: 0, limit: CALENDAR_VIEW_MAX_RECORDS, count: true }, options);
    return { list, total: total ?? list.length, hasMore: (total ?? 0) > list.length };
  });
}
