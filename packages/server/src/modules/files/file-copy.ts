import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { FileStore } from './file-store.ts';
import { deleteFiles, insertFile, type FileExecutor, type FileRow } from './files.repo.ts';
import { storageKeyOf } from './storage-key.ts';

// Copies of stored files (docs/decisions/0008 "Copies"): new bytes under a new key and a new pending row of the
// copier, so the copy lives on when the original's record drops or deletes it.

export interface CopiedFile {
  sourceFileId: string;
  id: string;
  name: string;
  size: number;
  contentType: string;
}

/**
 * Copies `rows` (already checked readable) into pending files of `userId`. All or nothing: on a failure the copies
 * made so far are deleted again. Not in a transaction of the caller's: the rows are written one by one.
 */
export async function copyStoredFiles(edb: FileExecutor, store: FileStore, engineCode: string, userId: string, rows: readonly FileRow[]): Promise<CopiedFile[]> {
  const done: { key: string; id: string }[] = [];
  try {
    const out: CopiedFile[] = [];
    for (const row of rows) {
      const body = await store.get(row.storage_key);
      if (!body) throw new AppError('FileNotFound', { detail: { fileIds: [row.id] } });
      const id = newId();
      const key = storageKeyOf(engineCode, id);
      const { size } = await store.put(key, body, { maxBytes: Number(row.size) });
      done.push({ key, id });
      await insertFile(edb, { id, scene: row.scene, name: row.name, size, content_type: row.content_type, storage_key: key, created_by: userId });
      out.push({ sourceFileId: row.id, id, name: row.name, size, contentType: row.content_type });
    }
    return out;
  } catch (error) {
    await deleteFiles(edb, done.map((d) => d.id));
    await Promise.all(done.map((d) => store.delete(d.key)));
    throw error;
  }
}
