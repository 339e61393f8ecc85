import { AppError } from '../../lib/app-error.ts';
import { lockFiles, setClaim, type FileExecutor } from './files.repo.ts';
import { isPending } from './files.policy.ts';

/** What a file control stores for one file (controls/values.ts fileRefSchema). */
export interface ClaimedFile {
  id: string;
  name: string;
  size: number;
  contentType: string;
}

export interface ClaimFilesInput {
  schemaCode: string;
  objectId: string;
  controlCode: string;
  fileIds: readonly string[];
  /** The user saving the record: pending files must be theirs. Pass it; left out, any pending file of the engine may be claimed. */
  userId?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Binds uploaded files to a record's file control (docs/decisions/0008). Call it inside the transaction that saves
 * the record, with that transaction's engine executor. Rules:
 * - a pending file becomes the record's (when `userId` is given, only a file that user uploaded);
 * - a file already claimed by the same record and control stays as it is (saving again is harmless);
 * - a file claimed by another record or control is refused (FileAlreadyClaimed): a file is never shared, so
 *   reading it is governed by exactly one record;
 * - an unknown id (or another engine's) is refused (FileNotFound).
 * Answers the files in the order asked, as the control's value holds them.
 */
export async function claimFiles(edb: FileExecutor, input: ClaimFilesInput): Promise<ClaimedFile[]> {
  const ids = [...new Set(input.fileIds)];
  if (!ids.length) return [];
  const malformed = ids.filter((id) => !UUID.test(id));
  if (malformed.length) throw new AppError('FileNotFound', { detail: { fileIds: malformed } });
  const rows = new Map((await lockFiles(edb, ids)).map((r) => [r.id, r]));
  const missing: string[] = [];
  const taken: string[] = [];
  const toClaim: string[] = [];
  for (const id of ids) {
    const row = rows.get(id);
    if (!row || (isPending(row) && input.userId !== undefined && row.created_by !== input.userId)) missing.push(id);
    else if (isPending(row)) toClaim.push(id);
    else if (row.schema_code !== input.schemaCode || row.object_id !== input.objectId || row.control_code !== input.controlCode) taken.push(id);
  }
  if (missing.length) throw new AppError('FileNotFound', { detail: { fileIds: missing } });
  if (taken.length) throw new AppError('FileAlreadyClaimed', { detail: { fileIds: taken } });
  await setClaim(edb, toClaim, input);
  return ids.map((id) => {
    const row = rows.get(id)!;
    return { id, name: row.name, size: Number(row.size), contentType: row.content_type };
  });
}
