import { AppError, parameterError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { FileStore } from '../files/file-store.ts';
import { claimFiles, type ClaimedFile } from '../files/files.claim.ts';
import { deleteFiles, filesOfRecord } from '../files/files.repo.ts';
import { copyStoredFiles } from '../files/file-copy.ts';
import { fileIdsOf, fileValueOf, isFileControl } from '../files/file-controls.ts';
import type { Issue } from './field-values.ts';
import type { CheckedInput } from './record-input.ts';
import type { DataField, GridField, RuntimeForm } from './runtime-form.ts';

// A record's files (docs/decisions/0008 "Records and their files"). Every value of a file control (attachment, photo,
// OCR, hand sign; main form or sub-table) is claimed to the record inside the save's transaction, as the saver
// (nobody attaches someone else's pending upload); the value stored is what the claim answers (the server's name,
// size and type). A record holds exactly the files its values reference: files a save drops, and all the files of
// a removed record, are deleted (rows in the transaction, bytes after the commit).

export interface RecordFilesDeps {
  store: FileStore;
}

type Children = Record<string, Record<string, unknown>[]>;

/** The control code a sub-table column's files are claimed under (the record is the main form's). */
export const gridControlCode = (grid: GridField, field: DataField): string => `${grid.code}.${field.code}`;

export const hasFileFields = (form: RuntimeForm): boolean =>
  form.fields.some((f) => isFileControl(f.type)) || form.grids.some((g) => g.fields.some((f) => isFileControl(f.type)));

/** claimFiles, with the refused ids named as field issues (detail.issues) under the code it answered. */
async function claimAt(edb: EngineExecutor, claim: Parameters<typeof claimFiles>[1], pathsOf: (ids: string[]) => string[]): Promise<Map<string, ClaimedFile>> {
  try {
    return new Map((await claimFiles(edb, claim)).map((f) => [f.id, f]));
  } catch (error) {
    if (!(error instanceof AppError) || (error.errorName !== 'FileNotFound' && error.errorName !== 'FileAlreadyClaimed')) throw error;
    const fileIds = (error.detail as { fileIds: string[] }).fileIds;
    const issues = pathsOf(fileIds).map((path) => ({ path, message: error.message }));
    // The record and the call exist: a bad reference is a value problem, answered like one (HTTP 200).
    throw new AppError(error.errorName, { status: 200, detail: { fileIds, field: claim.controlCode, issues } });
  }
}

/** The claimed value, checked again by the control's value schema (a photo must hold images by the server's type). */
function claimedValue(field: DataField, refs: ClaimedFile[], path: string, issues: Issue[]): unknown {
  const value = fileValueOf(field.type, refs);
  const parsed = field.type.value?.safeParse(value);
  if (parsed && !parsed.success) issues.push({ path, message: parsed.error.issues[0]?.message ?? '值无效' });
  return value;
}

const unique = (ids: string[]): string[] => [...new Set(ids)];

/** Claims the files of every file value being saved to `objectId`, replacing the values with the claims' answers. */
export async function claimRecordFiles(edb: EngineExecutor, form: RuntimeForm, objectId: string, userId: string, checked: CheckedInput): Promise<void> {
  const issues: Issue[] = [];
  const base = { schemaCode: form.node.code, objectId, userId };
  for (const field of form.fields) {
    if (!isFileControl(field.type) || checked.values[field.code] == null) continue;
    const path = `values.${field.code}`;
    const ids = unique(fileIdsOf(checked.values[field.code]));
    const claimed = await claimAt(edb, { ...base, controlCode: field.code, fileIds: ids }, () => [path]);
    checked.values[field.code] = claimedValue(field, ids.map((id) => claimed.get(id)!), path, issues);
  }
  for (const grid of form.grids) {
    const rows = checked.children.get(grid.code);
    if (!rows?.length) continue;
    for (const field of grid.fields) {
      if (!isFileControl(field.type)) continue;
      const perRow = rows.map((row) => unique(fileIdsOf(row.values[field.code])));
      const pathOf = (i: number) => `children.${grid.code}.${i}.${field.code}`;
      const rowsHolding = (ids: string[]) => perRow.flatMap((rowIds, i) => (rowIds.some((id) => ids.includes(id)) ? [pathOf(i)] : []));
      const claimed = await claimAt(edb, { ...base, controlCode: gridControlCode(grid, field), fileIds: perRow.flat() }, rowsHolding);
      rows.forEach((row, i) => {
        if (row.values[field.code] != null) row.values[field.code] = claimedValue(field, perRow[i].map((id) => claimed.get(id)!), pathOf(i), issues);
      });
    }
  }
  if (issues.length) throw parameterError(issues);
}

/** Every file id the record's values reference (main values and sub-table rows, in the client format). */
function referencedIds(form: RuntimeForm, values: Record<string, unknown>, children: Children): Set<string> {
  const ids = new Set<string>();
  for (const field of form.fields) if (isFileControl(field.type)) for (const id of fileIdsOf(values[field.code])) ids.add(id);
  for (const grid of form.grids) {
    const fileFields = grid.fields.filter((f) => isFileControl(f.type));
    for (const row of children[grid.code] ?? []) for (const field of fileFields) for (const id of fileIdsOf(row[field.code])) ids.add(id);
  }
  return ids;
}

/**
 * Deletes the rows of the files the record holds but its values no longer reference; answers their storage keys
 * (delete the bytes after the commit: deleteStoredBytes).
 */
export async function dropUnreferencedFiles(edb: EngineExecutor, form: RuntimeForm, objectId: string, values: Record<string, unknown>, children: Children): Promise<string[]> {
  const keep = referencedIds(form, values, children);
  // A control of the form that is not a file control but holds files of its own (an e-sign control's documents,
  // docs/decisions/0123) keeps them: the values do not list them.
  const ownFiles = new Set(form.fields.filter((f) => !isFileControl(f.type)).map((f) => f.code));
  const held = await filesOfRecord(edb, form.node.code, objectId);
  return deleteFiles(edb, held.filter((f) => !keep.has(f.id) && !ownFiles.has(f.control_code ?? '')).map((f) => f.id));
}

/** A removed record's files: rows deleted in its transaction; answers the storage keys. */
export async function dropRecordFiles(edb: EngineExecutor, form: RuntimeForm, objectId: string): Promise<string[]> {
  return deleteFiles(edb, (await filesOfRecord(edb, form.node.code, objectId)).map((f) => f.id));
}

/** After the commit: the bytes of deleted rows. Best effort (bytes without a row are unreachable garbage). */
export async function deleteStoredBytes(deps: RecordFilesDeps, keys: readonly string[]): Promise<void> {
  await Promise.allSettled(keys.map((key) => deps.store.delete(key)));
}

/**
 * Copy: the source record's files become new pending files of the copier, and the values reference them, so the
 * copy claims its own files and removing the original never breaks it. A reference to a file the source does not
 * hold (a stale value) is left out of the copy. Answers the new ids too (to delete them if the save fails).
 */
export async function copyRecordFiles(edb: EngineExecutor, deps: RecordFilesDeps, form: RuntimeForm, sourceId: string, who: { engineCode: string; userId: string }, values: Record<string, unknown>, children: Children): Promise<{ values: Record<string, unknown>; children: Children; copies: string[] }> {
  if (!hasFileFields(form)) return { values, children, copies: [] };
  const held = (await filesOfRecord(edb, form.node.code, sourceId)).filter((f) => referencedIds(form, values, children).has(f.id));
  const copied = new Map((await copyStoredFiles(edb, deps.store, who.engineCode, who.userId, held)).map((c) => [c.sourceFileId, c]));
  const swap = (field: DataField, value: unknown): unknown => {
    if (value == null) return value;
    const refs = fileIdsOf(value).flatMap((id) => {
      const c = copied.get(id);
      return c ? [{ id: c.id, name: c.name, size: c.size, contentType: c.contentType }] : [];
    });
    return fileValueOf(field.type, refs);
  };
  const outValues = { ...values };
  for (const field of form.fields) if (isFileControl(field.type)) outValues[field.code] = swap(field, values[field.code]);
  const outChildren: Children = {};
  for (const grid of form.grids) {
    outChildren[grid.code] = (children[grid.code] ?? []).map((row) => {
      const out = { ...row };
      for (const field of grid.fields) if (isFileControl(field.type)) out[field.code] = swap(field, row[field.code]);
      return out;
    });
  }
  return { values: outValues, children: outChildren, copies: [...copied.values()].map((c) => c.id) };
}
