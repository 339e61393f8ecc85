/** Description (描述说明): explanatory rich text on the form; holds no data. */
import { z } from 'zod';
import { TEXT_AREA_MAX_LENGTH } from '../constants/limits.ts';
import { layoutControlOptions } from './options/base.ts';
import { NOT_IN_SUB_TABLE } from './placement.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '描述说明', 'en-US': 'Description' };

export const descriptionControl = defineControlType({
  key: 'description',
  code: 103,
  group: 'layout',
  displayName,
  dataType: 'none',
  column: null,
  options: layoutControlOptions(displayName['zh-CN']).extend({
    /** The text shown, as sanitised HTML (it may hold small images). */
    content: z.string().max(TEXT_AREA_MAX_LENGTH).default(''),
  }),
  value: null,
  displayText: () => '',
  placement: NOT_IN_SUB_TABLE,
});
