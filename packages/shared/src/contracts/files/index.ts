import { z } from 'zod';
import { MAX_OCR_FILES, SNS_MAX_FILES, UPLOAD_LIMITS_MB, UPLOAD_SCENE_LIMITS_MB } from '../../constants/limits.ts';
import { SchemaCode } from '../form-design/index.ts';

// Files (calls.md §7 "Files", domain.md §9, docs/decisions/0008). The spec names the calls, not their fields:
// the shapes below are ours. The upload call itself (POST /v1/file/upload) is ours too.

/** Raster image types a browser shows safely inline (no SVG: it can carry script). */
export const IMAGE_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp'] as const;
const SPREADSHEETS = ['.xlsx', '.xls', '.csv'] as const;

/** One upload scene's rule: per-file size cap, how many files one control/comment holds, accepted types. */
export interface UploadSceneRule {
  maxSizeMb: number;
  /** null: the spec sets no count for this scene. */
  maxCount: number | null;
  /** Like an HTML accept attribute: MIME types, `type/*`, `.ext`, or `*\/*` for anything. */
  accept: readonly string[];
  /** Whether the client compresses images above the threshold before uploading (domain.md §9). */
  compressImages: boolean;
}

/**
 * The upload scenes (domain.md §9): `image` and `attachment` are the photo and attachment controls' defaults;
 * the others are the spec's named scenes. Sizes are per file ("sns 50 with up to 8 files": 50 MB each, 8 files).
 */
export const UPLOAD_SCENES = {
  image: { maxSizeMb: UPLOAD_LIMITS_MB.defaultImage, maxCount: null, accept: IMAGE_CONTENT_TYPES, compressImages: true },
  attachment: { maxSizeMb: UPLOAD_SCENE_LIMITS_MB.attachment, maxCount: null, accept: ['*/*'], compressImages: false },
  descriptionImage: { maxSizeMb: UPLOAD_SCENE_LIMITS_MB.descriptionImage, maxCount: null, accept: IMAGE_CONTENT_TYPES, compressImages: true },
  gridImportFile: { maxSizeMb: UPLOAD_SCENE_LIMITS_MB.gridImportFile, maxCount: 1, accept: SPREADSHEETS, compressImages: false },
  sns: { maxSizeMb: UPLOAD_SCENE_LIMITS_MB.sns, maxCount: SNS_MAX_FILES, accept: ['*/*'], compressImages: true },
  handSign: { maxSizeMb: UPLOAD_SCENE_LIMITS_MB.handSign, maxCount: 1, accept: ['image/png', 'image/jpeg'], compressImages: false },
  ocrAttachment: { maxSizeMb: UPLOAD_SCENE_LIMITS_MB.ocrAttachment, maxCount: MAX_OCR_FILES, accept: [...IMAGE_CONTENT_TYPES, 'application/pdf'], compressImages: false },
  ocrImage: { maxSizeMb: UPLOAD_SCENE_LIMITS_MB.ocrImage, maxCount: MAX_OCR_FILES, accept: IMAGE_CONTENT_TYPES, compressImages: true },
} as const satisfies Record<string, UploadSceneRule>;

export type FileScene = keyof typeof UPLOAD_SCENES;
export const FILE_SCENES = Object.keys(UPLOAD_SCENES) as [FileScene, ...FileScene[]];
export const FileSceneSchema = z.enum(FILE_SCENES, { error: '无效的上传场景' });

/** A file id: a UUID (v7) the server gave on upload. */
export const FileId = z.uuid({ error: '无效的文件 id' });
/** A file name as shown and downloaded: no path, no control characters. */
export const FileName = z
  .string()
  .trim()
  .min(1, '缺少文件名')
  .max(255, '文件名最多255个字符')
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), '文件名不能含控制字符');

/** GET /v1/file/policy/upload?scene */
export const UploadPolicyQuery = z.strictObject({ scene: FileSceneSchema });
export const UploadPolicyResult = z.object({
  scene: FileSceneSchema,
  maxSizeMb: z.number(),
  maxSizeBytes: z.number().int(),
  maxCount: z.number().int().nullable(),
  accept: z.array(z.string()),
  /** Images above thresholdMb are re-encoded at this quality (percent): by the browser before uploading, else by the server. */
  imageCompression: z.object({ thresholdMb: z.number(), quality: z.number() }).nullable(),
  /** Where to send the bytes: POST with the raw file as the body (see UploadFileQuery). */
  uploadUrl: z.string(),
});
export type UploadPolicyResult = z.infer<typeof UploadPolicyResult>;

/**
 * POST /v1/file/upload?scene&fileName[&contentType]: the body is the file's bytes (Content-Type
 * application/octet-stream, or the file's own type). The file's type is `contentType` when given, else read from
 * the name's extension, else the request's Content-Type.
 */
export const UploadFileQuery = z.strictObject({
  scene: FileSceneSchema,
  fileName: FileName,
  contentType: z.string().trim().toLowerCase().regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/, '无效的文件类型').optional(),
  /** The published form and file control the upload is for: its maxUploadSize then caps the file too (both or neither). */
  schemaCode: SchemaCode.optional(),
  controlCode: z.string().min(1).max(63).optional(),
});

/** A stored file as the client sees it; the same shape a file control's value holds (controls/values.ts). */
export const FileDto = z.object({ fileId: z.string(), name: z.string(), size: z.number().int(), contentType: z.string() });
export type FileDto = z.infer<typeof FileDto>;

const FileIds = z
  .array(FileId)
  .min(1, '至少一个文件')
  .max(100, '一次最多100个文件')
  .refine((ids) => new Set(ids).size === ids.length, '文件 id 不能重复');

/** POST /v1/file/urls/byfileids: short-lived signed download URLs (relative to the server's origin). */
export const FileUrlsBody = z.strictObject({ fileIds: FileIds });
export const FileUrlsResult = z.object({
  list: z.array(z.object({ fileId: z.string(), url: z.string(), expiresAt: z.string() })),
});
export type FileUrlsResult = z.infer<typeof FileUrlsResult>;

/** POST /v1/file/headers: what each file is, without its bytes. */
export const FileHeadersBody = z.strictObject({ fileIds: FileIds });
export const FileHeadersResult = z.object({
  list: z.array(FileDto.extend({ createdTime: z.string(), isClaimed: z.boolean() })),
});
export type FileHeadersResult = z.infer<typeof FileHeadersResult>;

/** GET /v1/file/download/:fileId?engine&expires&signature[&download=1]: the signed URL itself. */
export const FileDownloadParams = z.strictObject({ fileId: FileId });
export const FileDownloadQuery = z.strictObject({
  engine: z.string().regex(/^[a-z0-9]{4,32}$/),
  expires: z.coerce.number().int().positive(),
  signature: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  /** 1: always as an attachment, even an image. */
  download: z.enum(['0', '1']).optional(),
});


/** POST /v1/file/batchdownload: the files as one .zip (all readable, or the call is refused). */
export const BatchDownloadBody = z.strictObject({ fileIds: FileIds });

/**
 * POST /v1/form/copyfile: copies files of a record the caller may read into new pending files of the caller (for a
 * copy of the record to claim). `controlCode`, when given, must be the control holding each file.
 */
export const CopyFileBody = z.strictObject({
  schemaCode: SchemaCode,
  objectId: z.string().min(1).max(64),
  controlCode: z.string().min(1).max(127).optional(),
  fileIds: FileIds,
});
export const CopyFileResult = z.object({ list: z.array(FileDto.extend({ sourceFileId: z.string() })) });
export type CopyFileResult = z.infer<typeof CopyFileResult>;
