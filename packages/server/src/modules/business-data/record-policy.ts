import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import { AppError } from '../../lib/app-error.ts';
import type { RecordRow } from './records.repo.ts';
import type { RuntimeForm } from './runtime-form.ts';

// Who may do what with a record (docs/decisions/0007 "Authorisation", "Status transitions"). Opening the form node
// (access or more) lets one read every record of the form and create records; changing or removing a record needs
// its creator, its owner or an administrator of the form's app. Data scopes (view own/own department) come later.

/** Reading a record: everyone who opens its form, for now (data scopes come later; files follow this rule too). */
export function canReadRecord(_form: RuntimeForm, row: RecordRow | undefined, _userId: string): boolean {
  return row !== undefined;
}

export function canEditRecord(form: RuntimeForm, row: RecordRow, userId: string): boolean {
  return form.isAppAdmin || row.CreatedBy === userId || row.OwnerId === userId;
}

export function assertCanEdit(form: RuntimeForm, row: RecordRow, userId: string): void {
  if (!canEditRecord(form, row, userId)) throw new AppError('BizObjectForbidden', { detail: { objectId: row.ObjectId } });
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
 */
export function actionsFor(form: RuntimeForm, row: RecordRow | undefined, userId: string): string[] {
  const submit = ['Submit'];
  if (!row) return ['Save', ...submit, 'Close'];
  const status = Number(row.Status);
  const edit = canEditRecord(form, row, userId);
  const out: string[] = [];
  if (edit && status === BizObjectStatus.Draft) out.push('Save', ...submit, 'Remove');
  else if (edit && status === BizObjectStatus.Effective) out.push('Save', 'Remove');
  else if (edit && status === BizObjectStatus.Canceled) out.push('Remove');
  if (!form.isSingleton) out.push('Copy');
  out.push('Print', 'Close');
  return out;
}
