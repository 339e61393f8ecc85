/** Value fragments shared by several control types (api-conventions.md "Dates, numbers, ids"). */
import { z } from 'zod';

/** ObjectIds of rows, users and departments: opaque non-empty strings. */
export const idSchema = z.string().trim().min(1);

/** Several ids, each once. */
export const idListSchema = z.array(idSchema).refine((ids) => new Set(ids).size === ids.length, '不能重复选择');

/** A moment: ISO-8601 with seconds and a Z or ±hh:mm offset. */
export const dateTimeValueSchema = z.iso.datetime({ offset: true, error: '日期格式无法识别（如 2024-01-31、2024-01-31 10:30、2024/1/31、2024年1月31日 10:30）' });

/** An uploaded file as a control holds it; the bytes live in file storage. */
export const fileRefSchema = z.object({
  id: idSchema,
  name: z.string().trim().min(1),
  size: z.number().int().min(0),
  contentType: z.string().min(1),
});
export type FileRef = z.output<typeof fileRefSchema>;

export const imageRefSchema = fileRefSchema.refine((file) => file.contentType.startsWith('image/'), '只能上传图片');
