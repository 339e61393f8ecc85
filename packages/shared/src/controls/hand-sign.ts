/** Hand sign (手写签名): a signature drawn on screen, stored as a JSON reference to the image. */
import { UPLOAD_SCENE_LIMITS_MB } from '../constants/limits.ts';
import { dataControlOptions } from './options/base.ts';
import { maxUploadSizeSchema } from './options/file.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';
import { imageRefSchema } from './values.ts';

const displayName = { 'zh-CN': '手写签名', 'en-US': 'Hand signature' };

export const handSignControl = defineControlType({
  key: 'handSign',
  code: 306,
  group: 'advanced',
  displayName,
  dataType: 'file',
  column: { sqlType: 'jsonb' },
  options: dataControlOptions(displayName['zh-CN']).extend({
    maxUploadSize: maxUploadSizeSchema(UPLOAD_SCENE_LIMITS_MB.handSign, UPLOAD_SCENE_LIMITS_MB.handSign),
  }),
  value: imageRefSchema,
  displayText: (file) => file?.name ?? '',
  limits: { maxUploadSizeMb: UPLOAD_SCENE_LIMITS_MB.handSign },
  placement: ANYWHERE,
});
