import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { findFiles } from '../files/files.repo.ts';
import type { FileStore } from '../files/file-store.ts';
import type { TemplatePicture } from './template.tables.ts';

// A template's pictures (docs/decisions/0131): the publisher uploads images in its engine (scene image); publishing
// copies their bytes under the template's own keys, so the receiving engines read them without reading the
// publisher's files, and the template keeps them when the engine's files go.

const MAX_PICTURE_BYTES = 10 * 1024 * 1024;
const IMAGE_TYPES = new Set<string>(contracts.IMAGE_CONTENT_TYPES);

/** The caller's own uploaded images among `fileIds`, in order; TemplatePictureInvalid names the first that is not. */
export async function picturesToCopy(db: Db, engineCode: string, userId: string, fileIds: readonly string[]): Promise<{ key: string; contentType: string }[]> {
  if (!fileIds.length) return [];
  const rows = new Map((await findFiles(engineDb(db, engineCode), fileIds)).map((r) => [r.id, r]));
  return fileIds.map((fileId) => {
    const row = rows.get(fileId);
    if (!row || row.created_by !== userId || !IMAGE_TYPES.has(row.content_type)) throw new AppError('TemplatePictureInvalid', { detail: { fileId } });
    return { key: row.storage_key, contentType: row.content_type };
  });
}

/** Copies the pictures under `templates/<templateId>/v<version>-<n>`. */
export async function copyPictures(store: FileStore, templateId: string, version: number, from: { key: string; contentType: string }[]): Promise<TemplatePicture[]> {
  const out: TemplatePicture[] = [];
  for (const [n, picture] of from.entries()) {
    const body = await store.get(picture.key);
    if (!body) throw new AppError('TemplatePictureInvalid', { detail: { fileId: picture.key } });
    const key = `templates/${templateId}/v${version}-${n}`;
    await store.put(key, body, { maxBytes: MAX_PICTURE_BYTES });
    out.push({ kind: 'store', key, contentType: picture.contentType });
  }
  return out;
}

/** Removes copied pictures no longer named (a new version's, or a removed template's). */
export async function dropPictures(store: FileStore, pictures: TemplatePicture[]): Promise<void> {
  for (const p of pictures) if (p.kind === 'store') await store.delete(p.key);
}

/** The bytes of one picture; a built-in picture is read from the template folder (never outside it). */
export async function openPicture(store: FileStore, builtInDir: string, picture: TemplatePicture | undefined): Promise<{ body: Readable; contentType: string }> {
  if (picture?.kind === 'store') {
    const body = await store.get(picture.key);
    if (body) return { body, contentType: picture.contentType };
  } else if (picture?.kind === 'builtIn') {
    const file = path.resolve(builtInDir, picture.file);
    if (file.startsWith(path.resolve(builtInDir) + path.sep) && existsSync(file)) return { body: createReadStream(file), contentType: picture.contentType };
  }
  throw new AppError('TemplateNotFound');
}
