import { z } from 'zod';
import { codeSchema } from '../../validation/zod.ts';

// OCR on the machine and recognition templates (issue 45; docs/decisions/0125). A picture becomes text lines with
// their positions; a recognition template says which values to take from those lines — by a label the value follows
// (to its right or on the line below) and a pattern it must match — or asks the chat model where one is configured.

export const OCR_BOUNDS = {
  /** Largest picture read, in MB (domain.md: OCR image 20 MB). */
  imageMb: 20,
  /** Fields of one template. */
  fields: 30,
  /** Labels of one field. */
  anchors: 5,
  anchorChars: 20,
  /** A pattern's length, and how long one field's matching may take in all. */
  patternChars: 120,
  patternMs: 200,
  /** Custom templates of one engine. */
  templates: 200,
} as const;

export const OCR_TEMPLATE_MODES = ['rules', 'model'] as const;
export type OcrTemplateMode = (typeof OCR_TEMPLATE_MODES)[number];
export const OCR_ANCHOR_DIRECTIONS = ['right', 'below', 'any'] as const;

export const RecognitionField = z.strictObject({
  code: codeSchema.pipe(z.string().max(40)),
  name: z.string().trim().min(1, '请输入字段名称').max(30),
  /** Labels printed before the value (发票号码, 姓名…): the value is the rest of the label's line, or the next line. */
  anchors: z.array(z.string().trim().min(1).max(OCR_BOUNDS.anchorChars)).max(OCR_BOUNDS.anchors).default([]),
  direction: z.enum(OCR_ANCHOR_DIRECTIONS).default('any'),
  /** A regular expression the value must match (its first group, if any, is the value); searched over all text when there is no label. */
  pattern: z.string().max(OCR_BOUNDS.patternChars).nullable().default(null),
  minLength: z.number().int().min(1).max(500).nullable().default(null),
  maxLength: z.number().int().min(1).max(500).nullable().default(null),
});
export type RecognitionField = z.infer<typeof RecognitionField>;

const TemplateContent = {
  name: z.string().trim().min(1, '请输入模板名称').max(50),
  description: z.string().trim().max(200).default(''),
  /** rules: labels and patterns; model: the chat model reads the lines (needs AI configured), rules as the fallback. */
  mode: z.enum(OCR_TEMPLATE_MODES).default('rules'),
  fields: z.array(RecognitionField).min(1, '请至少添加一个字段').max(OCR_BOUNDS.fields, `最多${OCR_BOUNDS.fields}个字段`),
};

export const RecognitionTemplateCreateBody = z.strictObject({ templateCode: codeSchema.pipe(z.string().max(40)), ...TemplateContent });
export type RecognitionTemplateCreateBody = z.infer<typeof RecognitionTemplateCreateBody>;
export const RecognitionTemplateUpdateBody = RecognitionTemplateCreateBody;
export type RecognitionTemplateUpdateBody = z.infer<typeof RecognitionTemplateUpdateBody>;
export const RecognitionTemplateCodeBody = z.strictObject({ templateCode: z.string().trim().min(1).max(64) });
export type RecognitionTemplateCodeBody = z.infer<typeof RecognitionTemplateCodeBody>;
export const RecognitionTemplateQuery = RecognitionTemplateCodeBody;

export const RecognitionTemplateDto = z.object({
  templateCode: z.string(),
  name: z.string(),
  description: z.string(),
  mode: z.enum(OCR_TEMPLATE_MODES),
  builtIn: z.boolean(),
  fields: z.array(RecognitionField),
  modifiedTime: z.string().nullable(),
});
export type RecognitionTemplateDto = z.infer<typeof RecognitionTemplateDto>;
export const RecognitionTemplateList = z.object({ items: z.array(RecognitionTemplateDto) });
export type RecognitionTemplateList = z.infer<typeof RecognitionTemplateList>;

export const OcrLine = z.object({
  text: z.string(),
  confidence: z.number(),
  /** Four corners [x, y] in the picture's pixels, clockwise from top-left. */
  box: z.array(z.tuple([z.number(), z.number()])),
});
export type OcrLine = z.infer<typeof OcrLine>;

export const OcrRecognizeBody = z.strictObject({ fileId: z.uuid({ error: '无效的文件 id' }) });
export type OcrRecognizeBody = z.infer<typeof OcrRecognizeBody>;
export const OcrRecognizeResult = z.object({ width: z.number(), height: z.number(), lines: z.array(OcrLine), durationMs: z.number() });
export type OcrRecognizeResult = z.infer<typeof OcrRecognizeResult>;

export const OcrExtractBody = z.strictObject({ fileId: z.uuid({ error: '无效的文件 id' }), templateCode: z.string().trim().min(1).max(64) });
export type OcrExtractBody = z.infer<typeof OcrExtractBody>;
export const OcrFieldValue = z.object({ code: z.string(), name: z.string(), value: z.string().nullable() });
export const OcrExtractResult = OcrRecognizeResult.extend({ fields: z.array(OcrFieldValue), by: z.enum(OCR_TEMPLATE_MODES) });
export type OcrExtractResult = z.infer<typeof OcrExtractResult>;

/** The OCR control of a form reads a picture with its template and fills the form's fields its mapping names. */
export const OcrFormFillBody = z.strictObject({ schemaCode: z.string().min(1).max(64), controlCode: z.string().min(1).max(64), fileId: z.uuid({ error: '无效的文件 id' }) });
export type OcrFormFillBody = z.infer<typeof OcrFormFillBody>;
export const OcrFormFillResult = z.object({
  /** Values that passed the same checks as a save, by control code. */
  values: z.record(z.string(), z.unknown()),
  filled: z.array(z.string()),
  /** Values read that did not pass, left out. */
  issues: z.array(z.object({ field: z.string(), message: z.string() })),
  fields: z.array(OcrFieldValue),
  lines: z.array(OcrLine),
});
export type OcrFormFillResult = z.infer<typeof OcrFormFillResult>;

export const OcrStatusDto = z.object({ installed: z.boolean(), engine: z.literal('local'), aiAvailable: z.boolean() });
export type OcrStatusDto = z.infer<typeof OcrStatusDto>;
