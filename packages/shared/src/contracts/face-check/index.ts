import { z } from 'zod';

// Face check (issue 44; docs/decisions/0123 "Face check"): the face-recognition control compares a photo taken on the
// phone with the person's stored photo through the engine's face plugin. A passing check's id is what a save presents
// as the control's value; the server stores the matched person's id in its place.

/** A check may be presented by a save this long after it was made. */
export const FACE_CHECK_FRESH_MINUTES = 10;
/** The largest photo sent to the provider (Tencent Cloud: at most 5 MB once base64-encoded). */
export const FACE_PHOTO_MAX_MB = 3;
/** The pass score when the plugin's settings name none. */
export const FACE_DEFAULT_THRESHOLD = 80;

const Id = z.string().trim().min(1, '不能为空').max(100);
const FileId = z.uuid({ error: '无效的文件 id' });

/** POST /v1/facecheck/compare: a photo uploaded through /v1/file/upload, compared for a form's face control. */
export const FaceCompareBody = z.strictObject({
  schemaCode: Id,
  controlCode: Id,
  fileId: FileId,
  /** The person to compare with, when the control matches any user; left out, the caller. */
  userId: Id.optional(),
});
export type FaceCompareBody = z.infer<typeof FaceCompareBody>;

export const FaceCheckResult = z.object({
  checkId: z.string(),
  matched: z.boolean(),
  score: z.number(),
  threshold: z.number(),
  userId: z.string(),
  userName: z.string(),
});
export type FaceCheckResult = z.infer<typeof FaceCheckResult>;

/** GET /v1/facecheck/record: the check a record's face value was set from. */
export const FaceRecordQuery = z.strictObject({ schemaCode: Id, objectId: Id, controlCode: Id });
export const FaceRecordResult = z.object({
  check: z
    .object({ userId: z.string(), userName: z.string(), score: z.number(), matched: z.boolean(), checkedTime: z.string() })
    .nullable(),
});
export type FaceRecordResult = z.infer<typeof FaceRecordResult>;

/** GET /v1/facecheck/status: whether the form's control can check now (plugin installed, the caller's photo stored). */
export const FaceStatusResult = z.object({ installed: z.boolean(), hasPhoto: z.boolean() });
export type FaceStatusResult = z.infer<typeof FaceStatusResult>;

/** The reference photos (administrators). */
export const FacePhotoUserQuery = z.strictObject({ userId: Id });
export const FacePhotoSetBody = z.strictObject({ userId: Id, fileId: FileId });
export const FacePhotoUserBody = z.strictObject({ userId: Id });
export const FacePhotoDto = z.object({
  userId: z.string(),
  hasPhoto: z.boolean(),
  fileName: z.string().nullable(),
  uploadedTime: z.string().nullable(),
});
export type FacePhotoDto = z.infer<typeof FacePhotoDto>;
