/** Grid view (子表): a sub-table; its rows live in a child table, its columns are the child controls. */
import { z } from 'zod';
import { controlCodeSchema, dataControlOptions } from './options/base.ts';
import { defineControlType } from './types.ts';
import { idSchema } from './values.ts';

const displayName = { 'zh-CN': '子表', 'en-US': 'Sub-table' };

/** One row: child control code → value (each checked by its own control type); ObjectId once saved. */
const row = z.object({ ObjectId: idSchema.optional() }).catchall(z.unknown());

export const gridViewControl = defineControlType({
  key: 'gridView',
  code: 104,
  group: 'layout',
  displayName,
  dataType: 'children',
  column: { childTable: true },
  options: dataControlOptions(displayName['zh-CN']).extend({
    /** GridViewFields: child control codes shown, in order, where the sub-table is summarised; [] shows all. */
    gridViewFields: z.array(controlCodeSchema).default(() => []),
  }),
  value: z.array(row),
  // A list cell shows how many rows there are; the rows themselves are exported as their own sheet.
  displayText: (rows) => (rows && rows.length > 0 ? String(rows.length) : ''),
  placement: { subTable: false, tab: true, layout: false },
  children: 'controls',
});
