/** Attachment (附件): uploaded files, stored as JSON references to file storage. */
import { z } from 'zod';
import { UPLOAD_LIMITS_MB } from '../constants/limits.ts';
import { joinTexts } from './display.ts';
import { dataControlOptions } from './options/base.ts';
import { maxUploadSizeSchema } from './options/file.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';
import { fileRefSchema } from './values.ts';

const displayName = { 'zh-CN': '附件', 'en-US': 'Attachment' };

export const attachmentControl = defineControlType({
  key: 'attachment',
  code: 15,
  group: 'basic',
  displayName,
  dataType: 'files',
  column: { sqlType: 'jsonb' },
  options: dataControlOptions(displayName['zh-CN']).extend({
    /** MaxUploadSize, in MB per file. */
    maxUploadSize: maxUploadSizeSchema(UPLOAD_LIMITS_MB.defaultAttachment),
  }),
  value: z.array(fileRefSchema),
  displayText: (files) => joinTexts((files ?? []).map((file) => file.name)),
  limits: { maxUploadSizeMb: UPLOAD_LIMITS_MB.max },
  placement: ANYWHERE,
});
