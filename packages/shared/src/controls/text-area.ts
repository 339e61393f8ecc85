/** Text area (多行文本): several lines of text, up to 2000 characters. */
import { z } from 'zod';
import { TEXT_AREA_MAX_LENGTH, TEXT_AREA_ROWS } from '../constants/limits.ts';
import { inputControlOptions, searchableOption } from './options/base.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '多行文本', 'en-US': 'Text area' };
const value = z.string().max(TEXT_AREA_MAX_LENGTH, `最多${TEXT_AREA_MAX_LENGTH}个字符`);

export const textAreaControl = defineControlType({
  key: 'textArea',
  code: 2,
  group: 'basic',
  displayName,
  dataType: 'text',
  // text rather than varchar(2000): the long-text bound is checked by the value schema and can move freely.
  column: { sqlType: 'text' },
  options: inputControlOptions(displayName['zh-CN']).extend({
    /** Rows: visible height in lines. */
    rows: z.number().int().min(1).max(TEXT_AREA_ROWS.max).default(TEXT_AREA_ROWS.default),
    defaultValue: value.default(''),
    ...searchableOption,
  }),
  value,
  displayText: (text) => text ?? '',
  limits: { maxLength: TEXT_AREA_MAX_LENGTH },
  placement: ANYWHERE,
});
