/** Layout (一行多列): puts the controls it holds side by side in up to four columns; holds no data itself. */
import { z } from 'zod';
import { layoutControlOptions } from './options/base.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '一行多列', 'en-US': 'Columns' };

// The product's multi-column row holds at most four columns.
export const LAYOUT_MAX_COLUMNS = 4;

export const layoutControl = defineControlType({
  key: 'layout',
  code: 102,
  group: 'layout',
  displayName,
  dataType: 'none',
  column: null,
  options: layoutControlOptions(displayName['zh-CN']).extend({
    columns: z.number().int().min(2).max(LAYOUT_MAX_COLUMNS).default(2),
  }),
  value: null,
  displayText: () => '',
  placement: { subTable: false, tab: true, layout: false },
  children: 'controls',
});
