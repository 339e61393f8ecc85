import { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import type { FileStore } from '../files/file-store.ts';
import type { FileRow } from '../files/files.repo.ts';
import { assertOwnPendingFile, imageKindOf, readStoredFile } from '../files/own-upload.ts';

// The pictures a face check sends: only what the provider reads (JPEG, PNG, BMP — Tencent Cloud refuses GIF), told by
// the bytes rather than the name or the type the browser claimed, and at most FACE_PHOTO_MAX_MB.

const { FACE_PHOTO_MAX_MB } = contracts;
export const FACE_PHOTO_MAX_BYTES = FACE_PHOTO_MAX_MB * 1024 * 1024;

/** JPEG, PNG or BMP: what the provider reads. */
export function isFaceImage(bytes: Buffer): boolean {
  const kind = imageKindOf(bytes);
  return kind === 'jpeg' || kind === 'png' || kind === 'bmp';
}

/** A stored file's bytes once they are known to be a picture the provider reads, under the size bound. */
export async function faceImageOf(store: FileStore, row: FileRow): Promise<Buffer> {
  const bytes = await readStoredFile(store, row, FACE_PHOTO_MAX_BYTES, () => new AppError('FaceImageTooLarge', { detail: { limitMb: FACE_PHOTO_MAX_MB } }));
  if (!isFaceImage(bytes)) throw new AppError('FaceImageInvalid');
  return bytes;
}

export { assertOwnPendingFile };
