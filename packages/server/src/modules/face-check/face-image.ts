import type { Readable } from 'node:stream';
import { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import type { FileStore } from '../files/file-store.ts';
import type { FileRow } from '../files/files.repo.ts';

// The pictures a face check sends: only what the provider reads (JPEG, PNG, BMP — Tencent Cloud refuses GIF), told by
// the bytes rather than the name or the type the browser claimed, and at most FACE_PHOTO_MAX_MB.

const { FACE_PHOTO_MAX_MB } = contracts;
export const FACE_PHOTO_MAX_BYTES = FACE_PHOTO_MAX_MB * 1024 * 1024;

export function isFaceImage(bytes: Buffer): boolean {
  if (bytes.length < 8) return false;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return true;
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return true;
  return bytes[0] === 0x42 && bytes[1] === 0x4d;
}

async function readAll(body: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      body.destroy();
      throw new AppError('FaceImageTooLarge', { detail: { limitMb: FACE_PHOTO_MAX_MB } });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A stored file's bytes once they are known to be a picture the provider reads, under the size bound. */
export async function faceImageOf(store: FileStore, row: FileRow): Promise<Buffer> {
  if (Number(row.size) > FACE_PHOTO_MAX_BYTES) throw new AppError('FaceImageTooLarge', { detail: { limitMb: FACE_PHOTO_MAX_MB } });
  const body = await store.get(row.storage_key);
  if (!body) throw new AppError('FileNotFound', { detail: { fileIds: [row.id] } });
  const bytes = await readAll(body, FACE_PHOTO_MAX_BYTES);
  if (!isFaceImage(bytes)) throw new AppError('FaceImageInvalid');
  return bytes;
}

/** A file the caller uploaded and no record holds yet (a file they may hand to a face check or a reference photo). */
export function assertOwnPendingFile(row: FileRow | undefined, userId: string, fileId: string): FileRow {
  if (!row || row.schema_code !== null || row.created_by !== userId) throw new AppError('FileNotFound', { detail: { fileIds: [fileId] } });
  return row;
}
