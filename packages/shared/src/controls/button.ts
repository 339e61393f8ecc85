/** Button (按钮): runs an action of the form's custom code when pressed; holds no data. */
import { z } from 'zod';
import { layoutControlOptions } from './options/base.ts';
import { NOT_IN_SUB_TABLE } from './placement.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '按钮', 'en-US': 'Button' };

export const buttonControl = defineControlType({
  key: 'button',
  code: 305,
  group: 'advanced',
  displayName,
  dataType: 'none',
  column: null,
  options: layoutControlOptions(displayName['zh-CN']).extend({
    /** Name passed to the custom code; '' does nothing until set. */
    actionName: z.string().default(''),
  }),
  value: null,
  displayText: () => '',
  placement: NOT_IN_SUB_TABLE,
});
