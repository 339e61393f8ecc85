/** Status (状态): the record's data status, read from the Status system column. */
import { z } from 'zod';
import { BIZ_OBJECT_STATUS_LABELS, BizObjectStatus, isBizObjectStatus } from '../constants/data-status.ts';
import { DEFAULT_DISPLAY_LOCALE } from './display.ts';
import { dataControlOptions } from './options/base.ts';
import { ONE_PER_FORM } from './placement.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '状态', 'en-US': 'Status' };

const ENGLISH_LABELS = Object.fromEntries(Object.entries(BizObjectStatus).map(([name, code]) => [code, name]));

export const statusControl = defineControlType({
  key: 'status',
  code: 1201,
  group: 'system',
  displayName,
  dataType: 'int',
  column: { sqlType: 'integer', systemField: 'Status' },
  options: dataControlOptions(displayName['zh-CN']),
  value: z.number().refine(isBizObjectStatus, '未知的数据状态'),
  displayText: (value, _options, context) => {
    if (value == null || !isBizObjectStatus(value)) return '';
    const locale = context?.locale ?? DEFAULT_DISPLAY_LOCALE;
    return locale === 'zh-CN' ? BIZ_OBJECT_STATUS_LABELS[value] : ENGLISH_LABELS[value];
  },
  placement: ONE_PER_FORM,
});
