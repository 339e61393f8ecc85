import { z } from 'zod';
import { Filter } from '../../query/filter.ts';
import { SchemaCode } from '../form-design/index.ts';
import { BizRecord } from '../business-data/index.ts';

// Data calls of the view modes beyond the list (docs/decisions/0047): the kanban board (columns with their counts and
// first cards, then one column's next page) and the calendar's visible range. Each narrows as a list view does
// (scope, fixed filter, the caller's filter and quick search: docs/decisions/0017). Kept apart from index.ts (which
// re-exports it) so it imports nothing from there.

/** What every mode's data call narrows by (its view, a personal view, filter, quick search). */
export const modeNarrowing = {
  schemaCode: SchemaCode,
  /** The view of that mode. */
  viewCode: z.string().min(1).max(40),
  personalViewId: z.uuid().optional(),
  filter: Filter.optional(),
  keyword: z.string().trim().max(100).optional(),
};

export const KanbanBoardBody = z.strictObject(modeNarrowing);
/** A column's value: the option text, the user id or the status number; null for records without one. */
export const KanbanValue = z.union([z.string().max(200), z.number().int(), z.null()]);
export const KanbanColumn = z.object({
  value: KanbanValue,
  /** Records of the view in this column (one GROUP BY through the viewer's scope). */
  count: z.number().int(),
  /** The first cards (the view's kanban page size), in the view's order. */
  list: z.array(BizRecord),
  hasMore: z.boolean(),
});
export type KanbanColumn = z.infer<typeof KanbanColumn>;
export const KanbanBoardResult = z.object({
  groupField: z.string(),
  columns: z.array(KanbanColumn),
  /** Columns left out beyond the board's limit (a group field of people can have many values). */
  columnsLeftOut: z.number().int(),
});
export type KanbanBoardResult = z.infer<typeof KanbanBoardResult>;

export const KanbanColumnBody = z.strictObject({ ...modeNarrowing, value: KanbanValue, pageIndex: z.number().int().min(0).max(10_000) });
export const KanbanColumnResult = z.object({ list: z.array(BizRecord), total: z.number().int(), hasMore: z.boolean() });

export const CalendarRangeBody = z.strictObject({
  ...modeNarrowing,
  /** The visible range [start, end): records whose dates overlap it. */
  start: z.iso.datetime({ offset: true }),
  end: z.iso.datetime({ offset: true }),
});
export type CalendarRangeBody = z.input<typeof CalendarRangeBody>;
export const CalendarRangeResult = z.object({
  /** At most CALENDAR_VIEW_MAX_RECORDS records, by start date. */
  list: z.array(BizRecord),
  /** Records in the range; more than the list holds when the range is over the limit. */
  total: z.number().int(),
  hasMore: z.boolean(),
});
export type CalendarRangeResult = z.infer<typeof CalendarRangeResult>;

/** The map: records with a place, all of them or those within `radius` metres of `center` (nearest first). */
export const MapRecordsBody = z.strictObject({
  ...modeNarrowing,
  center: z.strictObject({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }).optional(),
  radius: z.union([z.literal(200), z.literal(500), z.literal(1000)]).optional(),
});
export type MapRecordsBody = z.input<typeof MapRecordsBody>;
/** At most CALENDAR_VIEW_MAX_RECORDS markers (the calendar's limit, the only one the spec gives for a drawn view). */
export const MapRecordsResult = z.object({ list: z.array(BizRecord), total: z.number().int(), hasMore: z.boolean() });
