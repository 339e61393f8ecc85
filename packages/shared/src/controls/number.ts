/** Number (数值): a decimal, shown with its decimal places, as a percentage or as a bar. */
import { z } from 'zod';
import { formatNumber } from './display.ts';
import { inputControlOptions } from './options/base.ts';
import { decimalPlacesOf, fractionDigits, numberDisplayShape, numberRangeSchema, withDecimalDefault } from './options/number.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';
import { parseNumberInput } from './input-values.ts';
import { validationMessage } from '../validation/messages.ts';

const displayName = { 'zh-CN': '数值', 'en-US': 'Number' };

export const numberControl = defineControlType({
  key: 'number',
  code: 4,
  group: 'basic',
  displayName,
  dataType: 'decimal',
  column: { sqlType: 'numeric' },
  options: inputControlOptions(displayName['zh-CN'])
    .extend({
      ...numberDisplayShape,
      /** RangeRule: smallest and largest value accepted. */
      rangeRule: numberRangeSchema.nullable().default(null),
      defaultValue: z.number().nullable().default(null),
    })
    .transform(withDecimalDefault),
  // Percentage and bar modes store the percentage itself (25.5 reads "25.50%"), so decimals mean the same
  // thing in every mode.
  value: z.number({ error: '须为数字' }),
  fromInput: parseNumberInput,
  // Money must not change on its way in: a value with more decimals than the control keeps is refused, never rounded.
  valueRule: (value, options) => {
    const places = decimalPlacesOf(options);
    return fractionDigits(value) > places ? validationMessage('tooManyDecimals', { max: places }) : null;
  },
  displayText: (value, options) => (value == null ? '' : formatNumber(value, options.decimalPlaces, options.showMode)),
  placement: ANYWHERE,
});
