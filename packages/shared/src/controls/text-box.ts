/** Text box (单行文本): one line of text, up to 200 characters. */
import { z } from 'zod';
import { TEXT_MODES } from '../constants/formats.ts';
import { TEXT_BOX_MAX_LENGTH, TOOLTIP_MAX_LENGTH } from '../constants/limits.ts';
import { inputControlOptions, searchableOption } from './options/base.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '单行文本', 'en-US': 'Text box' };
const value = z.string().max(TEXT_BOX_MAX_LENGTH, `最多${TEXT_BOX_MAX_LENGTH}个字符`);

export const textBoxControl = defineControlType({
  key: 'textBox',
  code: 1,
  group: 'basic',
  displayName,
  dataType: 'string',
  column: { sqlType: `varchar(${TEXT_BOX_MAX_LENGTH})` },
  options: inputControlOptions(displayName['zh-CN']).extend({
    /** domain.md §5: Normal, Email, ID card or Telephone. */
    textMode: z.enum(TEXT_MODES).default('Normal'),
    defaultValue: value.default(''),
    /** NoRepeat: refuse a value another row of the form already has. */
    noRepeat: z.boolean().default(false),
    noRepeatTipMessage: z.string().max(TOOLTIP_MAX_LENGTH).default(''),
    ...searchableOption,
  }),
  value,
  displayText: (text) => text ?? '',
  limits: { maxLength: TEXT_BOX_MAX_LENGTH },
  placement: ANYWHERE,
});
