import type { contracts } from '@tritium/shared';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import { canChangeTaskTip, canRemoveComment } from './sns.policy.ts';
import type { CommentRow, TaskTipRow } from './sns.repo.ts';

// Rows → the contracts' DTOs (docs/decisions/0009), with the caller's ability flags.

const iso = (value: Date | string) => new Date(value).toISOString();
const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

export function presentComment(form: RuntimeForm, row: CommentRow, userId: string, authorOf: Map<string, string>): contracts.CommentDto {
  return {
    snsId: row.id,
    schemaCode: row.schema_code,
    objectId: row.object_id,
    replyTo: row.reply_to,
    replyToAuthorName: row.reply_to ? (authorOf.get(row.reply_to) ?? null) : null,
    text: row.text,
    authorId: row.created_by,
    authorName: row.author_name ?? '',
    createdTime: iso(row.created_time),
    files: json(row.files),
    canRemove: canRemoveComment(form, row.created_by, userId),
  };
}

export function presentTaskTip(form: RuntimeForm, row: TaskTipRow, userId: string, names: Map<string, string>): contracts.TaskTipDto {
  const receiverIds = json<string[]>(row.receiver_ids);
  return {
    id: row.id,
    schemaCode: row.schema_code,
    objectId: row.object_id,
    content: row.content,
    remindTime: iso(row.remind_time),
    receivers: receiverIds.map((id) => ({ id, name: names.get(id) ?? '' })),
    state: row.state,
    createdBy: row.created_by,
    createdByName: row.creator_name ?? '',
    createdTime: iso(row.created_time),
    canChange: canChangeTaskTip(form, row.created_by, userId),
  };
}
