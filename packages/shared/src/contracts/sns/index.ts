import { z } from 'zod';
import { FORM_COMMENT_MAX_LENGTH, SNS_MAX_FILES } from '../../constants/limits.ts';
import { SchemaCode } from '../form-design/index.ts';

// Comments (评论, form attribute enableFormSNS) and task tips (任务提醒, enableTask) on a record (calls.md "Comments and
// task tips": POST /v1/toolkit/sns/list, add, count, comment/add; DELETE /v1/toolkit/sns/remove; /v1/tasktip/add,
// list, remove, cancel). The spec names the calls and the entity "Comment: snsId, replyTo, text", not the payloads:
// docs/decisions/0009-comments-and-task-tips.md chooses them.

const RecordId = z.uuid();

/** The record a comment or task tip belongs to. */
export const SnsRecordRef = z.strictObject({ schemaCode: SchemaCode, objectId: RecordId });

/** A comment's text: trimmed, 1–2000 characters (domain.md §9 "Form comment: up to 2000"). */
export const CommentText = z
  .string()
  .trim()
  .min(1, '评论内容不能为空')
  .max(FORM_COMMENT_MAX_LENGTH, `评论最多${FORM_COMMENT_MAX_LENGTH}个字符`);

/** Uploaded files (scene `sns`) the comment carries: at most 8 (domain.md §9). */
export const CommentFileIds = z
  .array(z.uuid())
  .max(SNS_MAX_FILES, `评论最多${SNS_MAX_FILES}个附件`)
  .refine((ids) => new Set(ids).size === ids.length, '附件不能重复')
  .default(() => []);

/** A file as a comment holds it (the value claimFiles answers). */
export const CommentFile = z.object({ id: z.string(), name: z.string(), size: z.number(), contentType: z.string() });

/** One comment. */
export const CommentDto = z.object({
  /** The comment's id (the spec's snsId). */
  snsId: z.string(),
  schemaCode: z.string(),
  objectId: z.string(),
  /** The comment this one answers (a top-level comment or a reply); null for a top-level comment. */
  replyTo: z.string().nullable(),
  /** The author of the comment answered, for "回复 张三". */
  replyToAuthorName: z.string().nullable(),
  text: z.string(),
  authorId: z.string(),
  authorName: z.string(),
  /** ISO-8601. */
  createdTime: z.string(),
  files: z.array(CommentFile),
  /** The caller may remove it (its author or an administrator of the form's app). */
  canRemove: z.boolean(),
});
export type CommentDto = z.infer<typeof CommentDto>;

/** A top-level comment with its replies (one level: replies to replies are shown here too, oldest first). */
export const CommentThread = CommentDto.extend({ replies: z.array(CommentDto) });
export type CommentThread = z.infer<typeof CommentThread>;

const PAGE_SIZES = [1, 5, 10, 20, 50, 100] as const;

/** POST /v1/toolkit/sns/list: a record's top-level comments, newest first, from pageIndex 0. */
export const SnsListBody = SnsRecordRef.extend({
  pageIndex: z.number().int().min(0).default(0),
  pageSize: z.union(PAGE_SIZES.map((n) => z.literal(n)) as [z.ZodLiteral<1>, ...z.ZodLiteral<number>[]]).default(20),
});
export type SnsListBody = z.input<typeof SnsListBody>;
/** `total` counts top-level comments; `count` every comment of the record (replies included). */
export const SnsListResult = z.object({ list: z.array(CommentThread), total: z.number().int(), hasMore: z.boolean(), count: z.number().int() });
export type SnsListResult = z.infer<typeof SnsListResult>;

/** POST /v1/toolkit/sns/count: how many comments (replies included) a record has. */
export const SnsCountBody = SnsRecordRef;
export const SnsCountResult = z.object({ count: z.number().int() });
export type SnsCountResult = z.infer<typeof SnsCountResult>;

/** People the comment mentions (@): each is told in the message center; they must be able to read the record. */
export const COMMENT_MENTIONS_MAX = 20;
export const CommentMentionIds = z
  .array(z.string().trim().min(1).max(64))
  .max(COMMENT_MENTIONS_MAX, `每条评论最多提到${COMMENT_MENTIONS_MAX}人`)
  .refine((ids) => new Set(ids).size === ids.length, '提到的人重复')
  .optional();

/** POST /v1/toolkit/sns/add: a top-level comment on a record. */
export const SnsAddBody = SnsRecordRef.extend({ text: CommentText, fileIds: CommentFileIds, mentionIds: CommentMentionIds });
export type SnsAddBody = z.input<typeof SnsAddBody>;

/** POST /v1/toolkit/sns/comment/add: a reply to a comment (the record is the answered comment's). */
export const SnsReplyBody = z.strictObject({ replyTo: z.uuid(), text: CommentText, fileIds: CommentFileIds, mentionIds: CommentMentionIds });
export type SnsReplyBody = z.input<typeof SnsReplyBody>;

/** DELETE /v1/toolkit/sns/remove?snsId=…: removes the comment and every reply under it. */
export const SnsRemoveQuery = z.strictObject({ snsId: z.uuid() });
export const SnsRemoveResult = z.object({ removed: z.number().int() });
export type SnsRemoveResult = z.infer<typeof SnsRemoveResult>;

// Task tips: a reminder on a record for chosen users at a time. Stored with a state; delivery comes with the
// reminder scheduler (docs/decisions/0009).

export const TASK_TIP_STATES = ['pending', 'cancelled', 'done'] as const;
export const TaskTipState = z.enum(TASK_TIP_STATES);
export type TaskTipState = z.infer<typeof TaskTipState>;
export const TASK_TIP_CONTENT_MAX_LENGTH = 500;
export const TASK_TIP_MAX_RECEIVERS = 50;

export const TaskTipDto = z.object({
  id: z.string(),
  schemaCode: z.string(),
  objectId: z.string(),
  content: z.string(),
  /** When to remind, ISO-8601. */
  remindTime: z.string(),
  receivers: z.array(z.object({ id: z.string(), name: z.string() })),
  state: TaskTipState,
  createdBy: z.string(),
  createdByName: z.string(),
  createdTime: z.string(),
  /** The caller may cancel or remove it (its creator or an administrator of the form's app). */
  canChange: z.boolean(),
});
export type TaskTipDto = z.infer<typeof TaskTipDto>;

/** POST /v1/tasktip/add. */
export const TaskTipAddBody = SnsRecordRef.extend({
  content: z.string().trim().min(1, '提醒内容不能为空').max(TASK_TIP_CONTENT_MAX_LENGTH, `提醒内容最多${TASK_TIP_CONTENT_MAX_LENGTH}个字符`),
  remindTime: z.iso.datetime({ offset: true }),
  /** Users (org user ids) of the engine to remind. */
  receiverIds: z
    .array(z.string().min(1).max(64))
    .min(1, '请选择提醒对象')
    .max(TASK_TIP_MAX_RECEIVERS, `提醒对象最多${TASK_TIP_MAX_RECEIVERS}人`)
    .refine((ids) => new Set(ids).size === ids.length, '提醒对象不能重复'),
});
export type TaskTipAddBody = z.input<typeof TaskTipAddBody>;

/** POST /v1/tasktip/list: a record's task tips by remind time (all states unless `states` says). */
export const TaskTipListBody = SnsRecordRef.extend({ states: z.array(TaskTipState).max(3).optional() });
export const TaskTipListResult = z.object({ list: z.array(TaskTipDto), total: z.number().int(), hasMore: z.boolean() });
export type TaskTipListResult = z.infer<typeof TaskTipListResult>;

/** POST /v1/tasktip/cancel and /v1/tasktip/remove. */
export const TaskTipIdBody = z.strictObject({ id: z.uuid() });
export const TaskTipRemoveResult = z.object({ removed: z.boolean() });
