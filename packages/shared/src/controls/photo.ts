/** Photo (图片): uploaded images, stored as JSON references to file storage. */
import { z } from 'zod';
import { UPLOAD_LIMITS_MB } from '../constants/limits.ts';
import { joinTexts } from './display.ts';
import { dataControlOptions } from './options/base.ts';
import { maxUploadSizeSchema } from './options/file.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';
import { imageRefSchema } from './values.ts';

const displayName = { 'zh-CN': '图片', 'en-US': 'Photo' };

export const photoControl = defineControlType({
  key: 'photo',
  code: 16,
  group: 'basic',
  displayName,
  dataType: 'files',
  column: { sqlType: 'jsonb' },
  options: dataControlOptions(displayName['zh-CN']).extend({
    /** MaxUploadSize, in MB per image (images above the compression threshold are compressed first). */
    maxUploadSize: maxUploadSizeSchema(UPLOAD_LIMITS_MB.defaultImage),
  }),
  value: z.array(imageRefSchema),
  displayText: (files) => joinTexts((files ?? []).map((file) => file.name)),
  limits: { maxUploadSizeMb: UPLOAD_LIMITS_MB.max },
  placement: ANYWHERE,
});
