import { AppError } from '../../lib/app-error.ts';
import type { NodeViewer } from '../function-node/function-node.policy.ts';
import { getFormNodeOrThrow } from '../form-design/form-access.ts';
import type { FileExecutor, FileRow } from './files.repo.ts';

// Who may read a file (docs/decisions/0008). A file one may not read does not exist for them (404, 260001):
// - a pending file (no record claimed it yet): only its uploader;
// - a claimed file: whoever may open its form node (form-design's form-access, on the function-node policy),
//   and then whatever the record-level hook says.

/** The record a claimed file belongs to. */
export interface FileOwnerRecord {
  schemaCode: string;
  objectId: string;
  controlCode: string;
}

/**
 * Record-level hook: may this viewer read the record? The business-data module supplies it
 * (business-data/record-file-access.ts, buildApp's default; option `recordFileAccess` replaces it in tests);
 * `formLevelRecordAccess` is the form-level rule alone.
 */
export type RecordFileAccess = (edb: FileExecutor, viewer: NodeViewer, record: FileOwnerRecord) => Promise<boolean>;
export const formLevelRecordAccess: RecordFileAccess = async () => true;

export const isPending = (row: FileRow): boolean => row.schema_code === null;

/** Throws FileNotFound unless the viewer may read every one of `rows` (and every id was found). */
export async function assertCanReadFiles(edb: FileExecutor, viewer: NodeViewer, ids: readonly string[], rows: FileRow[], recordAccess: RecordFileAccess): Promise<void> {
  const found = new Map(rows.map((r) => [r.id, r]));
  const openable = new Map<string, boolean>();
  const refused: string[] = [];
  for (const id of ids) {
    const row = found.get(id);
    if (!row || !(await canRead(edb, viewer, row, openable, recordAccess))) refused.push(id);
  }
  if (refused.length) throw new AppError('FileNotFound', { detail: { fileIds: refused } });
}

async function canRead(edb: FileExecutor, viewer: NodeViewer, row: FileRow, openable: Map<string, boolean>, recordAccess: RecordFileAccess): Promise<boolean> {
  if (isPending(row)) return row.created_by === viewer.userId;
  const schemaCode = row.schema_code!;
  if (!openable.has(schemaCode)) openable.set(schemaCode, await canOpenForm(edb, viewer, schemaCode));
  if (!openable.get(schemaCode)) return false;
  return recordAccess(edb, viewer, { schemaCode, objectId: row.object_id!, controlCode: row.control_code! });
}

async function canOpenForm(edb: FileExecutor, viewer: NodeViewer, schemaCode: string): Promise<boolean> {
  try {
    await getFormNodeOrThrow(edb, viewer, schemaCode, 'open');
    return true;
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
}
