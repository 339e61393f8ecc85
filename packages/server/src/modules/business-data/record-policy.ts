import { sql, type SqlBool } from 'kysely';
import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import { controlStorage } from '@tritium/shared/controls/index';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { assertCan, can, coversAll } from '../permission/form-rights.ts';
import { anyScopeSql, inFlowSql, type ScopeTarget } from '../permission/scope-sql.ts';
import { findRecordsByIds, type RecordRow } from './records.repo.ts';
import { anyDb, type RuntimeForm } from './runtime-form.ts';

// Who may do what with a record (docs/decisions/0007 "Authorisation", 0037 "Form permissions"). The form's rights
// (RuntimeForm.rights, from the permission module) decide: administrators everything; on a form without permission
// groups whoever opens it reads every record and creates, and the creator, the owner or an app administrator changes
// and removes; with groups, the union of the person's groups — an action, and a record within the action's scopes.
// A participant of a record's flow reads it whatever the groups say (their work item shows it).

/** The record as a data scope reads it (main table `r`, the form's user columns). */
export function scopeTargetOf(form: RuntimeForm, userId: string, alias = 'r'): ScopeTarget {
  const userColumns = [{ code: 'CreatedBy', multi: false }, { code: 'OwnerId', multi: false }];
  for (const f of form.fields) {
    const { dataType } = controlStorage(f.type, f.options);
    if (dataType === 'user' || dataType === 'users') userColumns.push({ code: f.code, multi: dataType === 'users' });
  }
  return { alias, userId, schemaCode: form.node.code, userColumns, uuidIds: form.uuidIds };
}

async function recordWhere(edb: EngineExecutor, form: RuntimeForm, objectId: string, condition: ReturnType<typeof sql<SqlBool>>): Promise<boolean> {
  const row = await anyDb(edb).selectFrom(`${form.mainTable} as r`).select(sql.lit(1).as('one')).where('r.ObjectId', '=', objectId).where(condition).executeTakeFirst();
  return row !== undefined;
}

/**
 * Of these records, the ones the caller may read: within the view scopes of a person allowed to view, or as a
 * participant of the record's flow. One statement, none when the caller sees every record.
 */
export async function readableIds(edb: EngineExecutor, form: RuntimeForm, objectIds: readonly string[], userId: string): Promise<Set<string>> {
  const { rights } = form;
  if (can(rights, 'view') && coversAll(rights.viewScopes)) return new Set(objectIds);
  if (!objectIds.length) return new Set();
  const target = scopeTargetOf(form, userId);
  const viewable = can(rights, 'view') ? anyScopeSql(edb, target, rights.viewScopes) : sql<SqlBool>`false`;
  const rows = await anyDb(edb)
    .selectFrom(`${form.mainTable} as r`)
    .select('r.ObjectId')
    .where('r.ObjectId', 'in', [...objectIds])
    .where(sql<SqlBool>`(${viewable} or ${inFlowSql(edb, target)})`)
    .execute();
  return new Set(rows.map((r) => String(r.ObjectId)));
}

/** Reading one record (readableIds). */
export async function canReadRecord(edb: EngineExecutor, form: RuntimeForm, row: RecordRow | undefined, userId: string): Promise<boolean> {
  if (!row) return false;
  return (await readableIds(edb, form, [String(row.ObjectId)], userId)).size === 1;
}

/** The rule of a form without permission groups, and of starting the flow of one's own draft. */
export function isCreatorOwnerOrAdmin(form: RuntimeForm, row: RecordRow, userId: string): boolean {
  return form.isAppAdmin || row.CreatedBy === userId || row.OwnerId === userId;
}

export function assertCanEdit(form: RuntimeForm, row: RecordRow, userId: string): void {
  if (!isCreatorOwnerOrAdmin(form, row, userId)) throw new AppError('BizObjectForbidden', { detail: { objectId: row.ObjectId } });
}

/** Editing or removing a record (the action, then the record within the edit scopes). */
export async function mayChange(edb: EngineExecutor, form: RuntimeForm, row: RecordRow, userId: string, action: 'edit' | 'delete'): Promise<boolean> {
  const { rights } = form;
  if (rights.source === 'administrator') return true;
  if (rights.source === 'open') return isCreatorOwnerOrAdmin(form, row, userId);
  if (!can(rights, action)) return false;
  if (coversAll(rights.editScopes)) return true;
  return recordWhere(edb, form, String(row.ObjectId), anyScopeSql(edb, scopeTargetOf(form, userId), rights.editScopes));
}

export async function assertMayChange(edb: EngineExecutor, form: RuntimeForm, row: RecordRow, userId: string, action: 'edit' | 'delete'): Promise<void> {
  if (form.rights.source === 'groups') assertCan(form.rights, action);
  if (!(await mayChange(edb, form, row, userId, action))) throw new AppError('BizObjectForbidden', { detail: { objectId: row.ObjectId } });
}

/**
 * Records the caller may edit now, all of them or a refusal: each readable (else 250 not found), within the edit
 * rights (mayChange) and Draft or Effective (nextStatus) — what a Save of the record would ask. For writes that
 * change what lies beside a record rather than its fields (a Gantt task's order, kind and links, 0054).
 */
export async function assertMayEditAll(edb: EngineExecutor, form: RuntimeForm, objectIds: readonly string[], userId: string): Promise<RecordRow[]> {
  const ids = [...new Set(objectIds)];
  const rows = new Map((await findRecordsByIds(edb, form, ids)).map((r) => [String(r.ObjectId), r]));
  const readable = await readableIds(edb, form, [...rows.keys()], userId);
  const missing = ids.find((id) => !rows.has(id) || !readable.has(id));
  if (missing) throw new AppError('BizObjectNotFound', { detail: { objectId: missing } });
  for (const row of rows.values()) {
    await assertMayChange(edb, form, row, userId, 'edit');
    nextStatus(Number(row.Status), false);
  }
  return [...rows.values()];
}

/**
 * The status a save leads to, or 250002: Draft → Draft (Save) or Effective (Submit); Effective stays Effective
 * (Save edits it; it never goes back to Draft); Running (a workflow's) and Canceled records are read-only.
 */
export function nextStatus(current: number | null, submit: boolean): number {
  if (current === null || current === BizObjectStatus.Draft) return submit ? BizObjectStatus.Effective : BizObjectStatus.Draft;
  if (current === BizObjectStatus.Effective) return BizObjectStatus.Effective;
  throw new AppError('BizObjectActionNotAllowed', { detail: { status: current } });
}

/** Remove: any status but Running (a running workflow is canceled, not removed). */
export function assertRemovable(row: RecordRow): void {
  if (Number(row.Status) === BizObjectStatus.Running) throw new AppError('BizObjectActionNotAllowed', { detail: { status: row.Status } });
}

/**
 * The actions loaddata offers (domain.md §4 "Form actions"): what the caller may do now. On a workflow form Submit
 * starts the flow of a Draft; a record in a flow is handled through its work items (/v1/workflow/instance/info).
 * `may`: whether the caller may edit and remove this record (mayChange).
 */
export function actionsFor(form: RuntimeForm, row: RecordRow | undefined, may: { edit: boolean; remove: boolean }): string[] {
  const { rights } = form;
  const print = can(rights, 'print') ? ['Print'] : [];
  if (!row) return [...(can(rights, 'create') ? ['Save', 'Submit'] : []), 'Close'];
  const status = Number(row.Status);
  const out: string[] = [];
  if (may.edit && (status === BizObjectStatus.Draft || status === BizObjectStatus.Effective)) out.push('Save');
  if (may.edit && status === BizObjectStatus.Draft) out.push('Submit');
  if (may.remove && status !== BizObjectStatus.Running) out.push('Remove');
  if (!form.isSingleton && can(rights, 'create')) out.push('Copy');
  out.push(...print, 'Close');
  return out;
}
