import { Readable } from 'node:stream';
import { sharpImages } from '../../lib/lazy-packages.ts';
import { IMAGE_COMPRESSION } from '@tritium/shared';
import type { FileStore } from './file-store.ts';

// Server-side image compression (domain.md §9, docs/decisions/0008): an image of a compressing scene above
// IMAGE_COMPRESSION.thresholdMb is re-encoded at IMAGE_COMPRESSION.quality before its row is written. JPEG and WebP
// keep their format; PNG becomes JPEG unless it has an alpha channel (then a palette PNG at that quality keeps the
// transparency). Other images (GIF: animation, BMP: sharp does not read it) are kept as sent.

const MB = 1024 * 1024;
const COMPRESSIBLE = new Set(['image/jpeg', 'image/png', 'image/webp']);

export interface StoredImage {
  name: string;
  size: number;
  contentType: string;
}

export const needsCompression = (contentType: string, size: number): boolean =>
  COMPRESSIBLE.has(contentType) && size > IMAGE_COMPRESSION.thresholdMb * MB;

/** `a.png` → `a.jpg` when a PNG became a JPEG (the name then opens with the right program). */
function renamed(name: string, from: string, to: string): string {
  if (from !== 'image/png' || to !== 'image/jpeg') return name;
  return /\.png$/i.test(name) ? `${name.slice(0, -4)}.jpg` : name;
}

/** Re-encodes the bytes; undefined when they are not an image sharp can read. */
async function reencode(input: Buffer, contentType: string): Promise<{ bytes: Buffer; contentType: string } | undefined> {
  const quality = IMAGE_COMPRESSION.quality;
  try {
    const sharp = await sharpImages();
    // rotate(): applies the EXIF orientation, since the re-encoded image carries no metadata.
    const image = sharp(input, { failOn: 'error' }).rotate();
    if (contentType === 'image/webp') return { bytes: await image.webp({ quality }).toBuffer(), contentType };
    if (contentType === 'image/png' && (await sharp(input).metadata()).hasAlpha) {
      return { bytes: await image.png({ palette: true, quality, effort: 1 }).toBuffer(), contentType };
    }
    return { bytes: await image.jpeg({ quality, mozjpeg: true }).toBuffer(), contentType: 'image/jpeg' };
  } catch {
    return undefined;
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Compresses the stored object `key` in place when the rule applies and the result is smaller; answers what is
 * stored afterwards (name, size and type follow the result).
 */
export async function compressStoredImage(store: FileStore, key: string, file: StoredImage): Promise<StoredImage> {
  if (!needsCompression(file.contentType, file.size)) return file;
  const stream = await store.get(key);
  if (!stream) return file;
  const result = await reencode(await readAll(stream), file.contentType);
  if (!result || result.bytes.length >= file.size) return file;
  const { size } = await store.put(key, Readable.from([result.bytes]), { maxBytes: file.size });
  return { name: renamed(file.name, file.contentType, result.contentType), size, contentType: result.contentType };
}
