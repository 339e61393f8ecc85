/** Batch scan (批量扫码): codes scanned one after another, stored as a text array; may fill a sub-table. */
import { z } from 'zod';
import { MAX_BATCH_SCAN_ITEMS } from '../constants/limits.ts';
import { joinTexts } from './display.ts';
import { controlCodeSchema, dataControlOptions } from './options/base.ts';
import { NOT_IN_SUB_TABLE } from './placement.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '批量扫码', 'en-US': 'Batch scan' };

export const batchScanControl = defineControlType({
  key: 'batchScan',
  code: 1304,
  group: 'advanced',
  displayName,
  dataType: 'strings',
  column: { sqlType: 'text[]' },
  options: dataControlOptions(displayName['zh-CN']).extend({
    /** Sub-table of this form that gets one row per scanned code; null keeps the codes here only. */
    targetGridView: controlCodeSchema.nullable().default(null),
    /** The column of that sub-table that gets the code. */
    targetColumn: controlCodeSchema.nullable().default(null),
    allowDuplicates: z.boolean().default(false),
  }),
  value: z.array(z.string().trim().min(1)).max(MAX_BATCH_SCAN_ITEMS, `最多${MAX_BATCH_SCAN_ITEMS}条`),
  displayText: (codes) => joinTexts(codes ?? []),
  limits: { maxItems: MAX_BATCH_SCAN_ITEMS },
  placement: NOT_IN_SUB_TABLE,
});
