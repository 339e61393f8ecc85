import type { Readable } from 'node:stream';
import { yazlZip } from '../../lib/lazy-packages.ts';
import { AppError } from '../../lib/app-error.ts';
import type { FileStore } from './file-store.ts';
import type { FileRow } from './files.repo.ts';
import { extensionOf } from './content-type.ts';

// POST /v1/file/batchdownload (calls.md §7, docs/decisions/0008): the files as one .zip, streamed as it is built.

/** Entry names: the files' names, made unique (case-insensitively) as `a (2).txt`, `a (3).txt`; never `.` or `..`. */
export function zipEntryNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((raw) => {
    const name = /^\.+$/.test(raw) ? '_' : raw.replace(/[\\/]/g, '_');
    const ext = extensionOf(name);
    const stem = ext ? name.slice(0, -(ext.length + 1)) : name;
    let candidate = name;
    for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = ext ? `${stem} (${n}).${ext}` : `${stem} (${n})`;
    used.add(candidate.toLowerCase());
    return candidate;
  });
}

/** Already compressed types are stored, not deflated again. */
const STORED = /^(image\/(jpeg|png|gif|webp)|video\/|audio\/|application\/(zip|gzip|x-7z-compressed|x-rar-compressed|vnd\.openxmlformats))/;

/**
 * The zip of `rows` (already checked readable). Every object is checked to exist before a byte is sent, so the
 * answer is whole or an error (FileNotFound); the bytes are then read one file at a time.
 */
export async function zipOfFiles(store: FileStore, rows: readonly FileRow[]): Promise<Readable> {
  const missing: string[] = [];
  for (const row of rows) if (!(await store.exists(row.storage_key))) missing.push(row.id);
  if (missing.length) throw new AppError('FileNotFound', { detail: { fileIds: missing } });
  const zip = new (await yazlZip()).ZipFile();
  const names = zipEntryNames(rows.map((r) => r.name));
  rows.forEach((row, i) => {
    const options = { size: Number(row.size), mtime: new Date(row.created_time), compress: !STORED.test(row.content_type) };
    zip.addReadStreamLazy(names[i], options, (cb) => {
      store.get(row.storage_key).then(
        (stream) => (stream ? cb(null, stream) : cb(new Error(`file ${row.id} vanished`), undefined as never)),
        (error: unknown) => cb(error, undefined as never),
      );
    });
  });
  zip.end();
  return zip.outputStream as Readable;
}
