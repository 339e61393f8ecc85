/** Face recognition (人脸识别): the user the face recognition service matched, stored as the user's id. */
import { z } from 'zod';
import { unitText } from './display.ts';
import { dataControlOptions } from './options/base.ts';
import { NOT_IN_SUB_TABLE } from './placement.ts';
import { defineControlType } from './types.ts';
import { idSchema } from './values.ts';

const displayName = { 'zh-CN': '人脸识别', 'en-US': 'Face recognition' };

export const faceRecognitionControl = defineControlType({
  key: 'faceRecognition',
  code: 1305,
  group: 'advanced',
  displayName,
  dataType: 'user',
  column: { sqlType: 'text' },
  options: dataControlOptions(displayName['zh-CN']).extend({
    /** currentUser: the face must be the person filling in the form; anyUser: any user of the engine. */
    match: z.enum(['currentUser', 'anyUser']).default('currentUser'),
  }),
  value: idSchema,
  displayText: (id, _options, context) => (id ? unitText(id, context) : ''),
  placement: NOT_IN_SUB_TABLE,
  service: 'faceRecognition',
});
