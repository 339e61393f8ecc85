/** E-sign (电子签章): starts an e-sign flow for the record; stores the flow's id and state as JSON. */
import { z } from 'zod';
import { ESIGN_FLOW_STATES } from '../constants/tasks.ts';
import { codeSchema } from '../validation/zod.ts';
import { dataControlOptions } from './options/base.ts';
import { NOT_IN_SUB_TABLE } from './placement.ts';
import { defineControlType } from './types.ts';
import { idSchema } from './values.ts';

const displayName = { 'zh-CN': '电子签章', 'en-US': 'E-sign' };

export const eSignControl = defineControlType({
  key: 'eSign',
  code: 1303,
  group: 'advanced',
  displayName,
  dataType: 'json',
  column: { sqlType: 'jsonb' },
  options: dataControlOptions(displayName['zh-CN']).extend({
    /** The document template signed; chosen after the control is dropped. */
    templateCode: codeSchema.nullable().default(null),
  }),
  value: z.object({ flowId: idSchema, state: z.enum(ESIGN_FLOW_STATES) }),
  displayText: (flow) => flow?.state ?? '',
  placement: NOT_IN_SUB_TABLE,
  service: 'eSign',
});
