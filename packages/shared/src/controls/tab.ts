/** Tab (标签页): panes of controls shown one at a time; holds no data itself. */
import { layoutControlOptions } from './options/base.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '标签页', 'en-US': 'Tabs' };

export const tabControl = defineControlType({
  key: 'tab',
  code: 1101,
  group: 'layout',
  displayName,
  dataType: 'none',
  column: null,
  // The panes and their controls belong to the control instance (ControlDefinition.panes), not to its options.
  options: layoutControlOptions(displayName['zh-CN']),
  value: null,
  displayText: () => '',
  placement: { subTable: false, tab: false, layout: false },
  children: 'panes',
});
