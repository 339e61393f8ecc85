/** Advanced button (高级按钮): calls an outside system through a connection when pressed; holds no data. */
import { z } from 'zod';
import { codeSchema } from '../validation/zod.ts';
import { fieldMappingSchema, layoutControlOptions } from './options/base.ts';
import { NOT_IN_SUB_TABLE } from './placement.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '高级按钮', 'en-US': 'Advanced button' };

export const advancedButtonControl = defineControlType({
  key: 'advancedButton',
  code: 1302,
  group: 'advanced',
  displayName,
  dataType: 'none',
  column: null,
  options: layoutControlOptions(displayName['zh-CN']).extend({
    /** The connection config called; chosen after the control is dropped. */
    connectionCode: codeSchema.nullable().default(null),
    /** The connector of that connection run when the button is pressed (docs/decisions/0120). */
    connectorCode: codeSchema.nullable().default(null),
    /** Control of this form → the connector's output name, filled when the call returns (a sub-table: its rows). */
    resultMapping: fieldMappingSchema,
    confirm: z.boolean().default(false),
  }),
  value: null,
  displayText: () => '',
  placement: NOT_IN_SUB_TABLE,
  service: 'connector',
});
