/** Sequence number (流水号): the record's number, generated on create into the SeqNo system column. */
import { z } from 'zod';
import { SEQ_NO_RESET_MODES } from '../constants/formats.ts';
import { controlCodeSchema, dataControlOptions } from './options/base.ts';
import { ONE_PER_FORM } from './placement.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '流水号', 'en-US': 'Sequence number' };

// Our bound: a longer counter would not fit a readable number.
export const SEQ_NO_MAX_DIGITS = 20;

/** SeqNoStructure parts (domain.md §9): created time, increment, fixed value, form control. */
const part = z.discriminatedUnion('type', [
  z.object({ type: z.literal('createdTime'), format: z.enum(['yyyy', 'yyyymm', 'yyyymmdd']).default('yyyy') }),
  z.object({ type: z.literal('increment'), digits: z.number().int().min(1).max(SEQ_NO_MAX_DIGITS).default(8) }),
  z.object({ type: z.literal('fixedValue'), value: z.string().trim().min(1) }),
  z.object({ type: z.literal('formControl'), code: controlCodeSchema }),
]);

const structure = z
  .array(part)
  .refine((parts) => parts.filter((p) => p.type === 'increment').length === 1, '流水号须包含且仅包含一个自增序号')
  .default((): z.output<typeof part>[] => [{ type: 'createdTime', format: 'yyyy' }, { type: 'increment', digits: 8 }]);

export const seqNoControl = defineControlType({
  key: 'seqNo',
  code: 201,
  group: 'system',
  displayName,
  dataType: 'string',
  column: { sqlType: 'text', systemField: 'SeqNo' },
  options: dataControlOptions(displayName['zh-CN']).extend({
    seqNoStructure: structure,
    resetMode: z.enum(SEQ_NO_RESET_MODES).default('none'),
  }),
  value: z.string().min(1),
  displayText: (text) => text ?? '',
  placement: ONE_PER_FORM,
});
