/** Label (标签): static text on the form; holds no data. */
import { layoutControlOptions } from './options/base.ts';
import { NOT_IN_SUB_TABLE } from './placement.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '标签', 'en-US': 'Label' };

export const labelControl = defineControlType({
  key: 'label',
  code: 207,
  group: 'system',
  displayName,
  dataType: 'none',
  column: null,
  // The label's text is its display name.
  options: layoutControlOptions(displayName['zh-CN']),
  value: null,
  displayText: () => '',
  placement: NOT_IN_SUB_TABLE,
});
