/** Plugin (插件控件): a control provided by an installed plugin; stores the JSON the plugin returns. */
import { z } from 'zod';
import { codeSchema } from '../validation/zod.ts';
import { plainText } from './display.ts';
import { dataControlOptions } from './options/base.ts';
import { NOT_IN_SUB_TABLE } from './placement.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '插件控件', 'en-US': 'Plugin' };

export const pluginControl = defineControlType({
  key: 'plugin',
  code: 1308,
  group: 'advanced',
  displayName,
  dataType: 'json',
  column: { sqlType: 'jsonb' },
  options: dataControlOptions(displayName['zh-CN']).extend({
    /** The plugin instance that draws the control; chosen after the control is dropped. */
    pluginCode: codeSchema.nullable().default(null),
    /** What the plugin asks of this control (payment: the amount and subject fields; docs/decisions/0123). */
    pluginSettings: z.record(z.string().max(64), z.union([z.string().max(500), z.number(), z.boolean(), z.null()])).default({}),
  }),
  value: z.json(),
  displayText: (value, _options, context) => plainText(value, context),
  placement: NOT_IN_SUB_TABLE,
  service: 'plugin',
});
