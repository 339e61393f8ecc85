import { AppError } from '../../lib/app-error.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';

// Who may do what with comments and task tips (docs/decisions/0009), on the business-data rules (docs/decisions/0007):
// whoever may read the record (opens the form: getRuntimeFormOrThrow) reads its comments and task tips and adds
// them; removing a comment or changing a task tip needs its author or an administrator of the form's app.

/** Comments are on only where the published form says so (domain.md §3 form attribute enableFormSNS). */
export function assertCommentsEnabled(form: RuntimeForm): void {
  if (!form.definition.attributes.enableFormSNS) throw new AppError('SnsNotEnabled', { detail: { schemaCode: form.node.code } });
}

/** Task tips are on only where the published form says so (enableTask). */
export function assertTaskTipsEnabled(form: RuntimeForm): void {
  if (!form.definition.attributes.enableTask) throw new AppError('TaskTipNotEnabled', { detail: { schemaCode: form.node.code } });
}

export function canRemoveComment(form: RuntimeForm, authorId: string, userId: string): boolean {
  return form.isAppAdmin || authorId === userId;
}

export function assertCanRemoveComment(form: RuntimeForm, comment: { id: string; created_by: string }, userId: string): void {
  if (!canRemoveComment(form, comment.created_by, userId)) throw new AppError('SnsCommentForbidden', { detail: { snsId: comment.id } });
}

export function canChangeTaskTip(form: RuntimeForm, creatorId: string, userId: string): boolean {
  return form.isAppAdmin || creatorId === userId;
}

export function assertCanChangeTaskTip(form: RuntimeForm, tip: { id: string; created_by: string }, userId: string): void {
  if (!canChangeTaskTip(form, tip.created_by, userId)) throw new AppError('TaskTipForbidden', { detail: { id: tip.id } });
}
