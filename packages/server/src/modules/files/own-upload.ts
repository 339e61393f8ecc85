import type { Readable } from 'node:stream';
import { AppError } from '../../lib/app-error.ts';
import type { FileStore } from './file-store.ts';
import type { FileRow } from './files.repo.ts';

// A file a person uploaded and hands to a service (a face check, the AI reading a picture): one no record holds yet
// and they uploaded themselves — anyone else's, or a record's, is "not found" to them — read whole under a bound.

/** The upload, when it is the caller's own and no record holds it; otherwise "not found". */
export function assertOwnPendingFile(row: FileRow | undefined, userId: string, fileId: string): FileRow {
  if (!row || row.schema_code !== null || row.created_by !== userId) throw new AppError('FileNotFound', { detail: { fileIds: [fileId] } });
  return row;
}

/** Which picture the bytes are (by their first bytes, not the name or the type the browser claimed), or null. */
export function imageKindOf(bytes: Buffer): 'jpeg' | 'png' | 'bmp' | 'webp' | null {
  if (bytes.length < 12) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  if (bytes[0] === 0x42 && bytes[1] === 0x4d) return 'bmp';
  return null;
}

/** A stored file's bytes, at most `maxBytes` (by its recorded size first, then while reading): `tooLarge` otherwise. */
export async function readStoredFile(store: FileStore, row: FileRow, maxBytes: number, tooLarge: () => AppError): Promise<Buffer> {
  if (Number(row.size) > maxBytes) throw tooLarge();
  const body: Readable | undefined | null = await store.get(row.storage_key);
  if (!body) throw new AppError('FileNotFound', { detail: { fileIds: [row.id] } });
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      body.destroy();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
