/** E-sign (电子签章): starts an e-sign flow for the record; stores the flow's id and state as JSON. */
import { z } from 'zod';
import { ESIGN_FLOW_STATES } from '../constants/tasks.ts';
import { codeSchema } from '../validation/zod.ts';
import { dataControlOptions } from './options/base.ts';
import { NOT_IN_SUB_TABLE } from './placement.ts';
import { defineControlType } from './types.ts';
import { idSchema } from './values.ts';

const displayName = { 'zh-CN': '电子签章', 'en-US': 'E-sign' };

/** The flow's state in words (lists, exports, the data log). */
const STATE_TEXT: Record<(typeof ESIGN_FLOW_STATES)[number], string> = {
  PreCommit: '待提交', Draft: '草稿', Running: '签署中', Finish: '已完成', Revoke: '已撤销', Abort: '已终止', Expired: '已过期', Delete: '已删除', Refuse: '已拒签',
};

export const eSignControl = defineControlType({
  key: 'eSign',
  code: 1303,
  group: 'advanced',
  displayName,
  dataType: 'json',
  column: { sqlType: 'jsonb' },
  options: dataControlOptions(displayName['zh-CN']).extend({
    /**
     * The print template whose PDF is signed (its id, or the form's own layout); null: the form's default print
     * template, else its layout (docs/decisions/0123, e-signature).
     */
    templateCode: z.string().trim().min(1).max(64).nullable().default(null),
    /** The attachment control that receives the signed PDF; null: the file stays with this control's flow. */
    attachmentCode: codeSchema.nullable().default(null),
  }),
  value: z.object({ flowId: idSchema, state: z.enum(ESIGN_FLOW_STATES) }),
  displayText: (flow) => (flow ? (STATE_TEXT[flow.state] ?? flow.state) : ''),
  placement: NOT_IN_SUB_TABLE,
  service: 'eSign',
});
