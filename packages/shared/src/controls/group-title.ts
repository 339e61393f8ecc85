/** Group title (分组标题): a heading that starts a section of the form; holds no data. */
import { z } from 'zod';
import { layoutControlOptions } from './options/base.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '分组标题', 'en-US': 'Group title' };

export const groupTitleControl = defineControlType({
  key: 'groupTitle',
  code: 101,
  group: 'layout',
  displayName,
  dataType: 'none',
  column: null,
  options: layoutControlOptions(displayName['zh-CN']).extend({ collapsible: z.boolean().default(false) }),
  value: null,
  displayText: () => '',
  placement: { subTable: false, tab: true, layout: false },
});
