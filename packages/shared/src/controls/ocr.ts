/** OCR (OCR识别): images or files read by the OCR service to fill other controls; keeps the uploaded files. */
import { z } from 'zod';
import { MAX_OCR_FILES, UPLOAD_SCENE_LIMITS_MB } from '../constants/limits.ts';
import { codeSchema } from '../validation/zod.ts';
import { joinTexts } from './display.ts';
import { dataControlOptions, fieldMappingSchema } from './options/base.ts';
import { maxUploadSizeSchema } from './options/file.ts';
import { NOT_IN_SUB_TABLE } from './placement.ts';
import { defineControlType } from './types.ts';
import { fileRefSchema } from './values.ts';

const displayName = { 'zh-CN': 'OCR识别', 'en-US': 'OCR' };

export const ocrControl = defineControlType({
  key: 'ocr',
  code: 1301,
  group: 'advanced',
  displayName,
  dataType: 'files',
  column: { sqlType: 'jsonb' },
  options: dataControlOptions(displayName['zh-CN']).extend({
    /** The recognition template saying what to read (ID card, invoice…); chosen after the control is dropped. */
    templateCode: codeSchema.nullable().default(null),
    /** Control of this form → field the template reads. */
    mapping: fieldMappingSchema,
    maxUploadSize: maxUploadSizeSchema(UPLOAD_SCENE_LIMITS_MB.ocrImage, UPLOAD_SCENE_LIMITS_MB.ocrImage),
  }),
  value: z.array(fileRefSchema).max(MAX_OCR_FILES, `最多${MAX_OCR_FILES}个文件`),
  displayText: (files) => joinTexts((files ?? []).map((file) => file.name)),
  limits: { maxFiles: MAX_OCR_FILES, maxUploadSizeMb: UPLOAD_SCENE_LIMITS_MB.ocrImage },
  placement: NOT_IN_SUB_TABLE,
  service: 'ocr',
});
