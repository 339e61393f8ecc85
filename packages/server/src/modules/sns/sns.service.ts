import type { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { engineOf, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { findRecord } from '../business-data/records.repo.ts';
import { canReadRecord } from '../business-data/record-policy.ts';
import { getRuntimeFormOrThrow, runtimeFormFor, type RuntimeForm } from '../business-data/runtime-form.ts';
import { claimFiles } from '../files/files.claim.ts';
import { notifyEach } from '../notification/notify.ts';
import { assertCanRemoveComment, assertCommentsEnabled } from './sns.policy.ts';
import { presentComment } from './sns.presenter.ts';
import {
  countComments, deleteComments, findComment, insertComment, repliesOf, rootCommentsOf, threadLinks, userNames, type CommentRow,
} from './sns.repo.ts';

// Comments on records (calls.md "Comments and task tips": /v1/toolkit/sns/*; docs/decisions/0009).

type SnsListBody = { schemaCode: string; objectId: string; pageIndex: number; pageSize: number };
type SnsAddBody = { schemaCode: string; objectId: string; text: string; fileIds: string[]; mentionIds?: string[] };
type SnsReplyBody = { replyTo: string; text: string; fileIds: string[]; mentionIds?: string[] };

/** The files of a comment are claimed to its record under this control code, one code per comment (0009). */
export const commentControlCode = (snsId: string) => `__sns:${snsId}`;

/** Runs `work` in one transaction of the engine; inside, only its executor is used (docs/decisions/0001). */
export function inTransaction<T>(ctx: NodeContext, work: (edb: EngineExecutor) => Promise<T>): Promise<T> {
  return ctx.db.transaction().execute((trx) => work(engineDb(trx as unknown as Db, ctx.engineCode)));
}

/** The published form with comments on, that the caller may open (404 / 230001 otherwise, 270001 when off). */
export async function getCommentFormOrThrow(edb: EngineExecutor, ctx: NodeContext, schemaCode: string): Promise<RuntimeForm> {
  const form = await getRuntimeFormOrThrow(edb, ctx, schemaCode);
  assertCommentsEnabled(form);
  return form;
}

/** The record must exist and be readable by the caller (their data scopes, docs/decisions/0037). */
export async function assertRecordExists(edb: EngineExecutor, form: RuntimeForm, objectId: string, options: { forUpdate?: boolean } = {}): Promise<void> {
  const row = await findRecord(edb, form, objectId, options);
  if (!row || !(await canReadRecord(edb, form, row, form.viewer.userId))) throw new AppError('BizObjectNotFound', { detail: { objectId } });
}

export async function listComments(ctx: NodeContext, body: SnsListBody): Promise<contracts.SnsListResult> {
  const edb = engineOf(ctx);
  const form = await getCommentFormOrThrow(edb, ctx, body.schemaCode);
  await assertRecordExists(edb, form, body.objectId);
  const schemaCode = form.node.code;
  const roots = await rootCommentsOf(edb, schemaCode, body.objectId, { offset: body.pageIndex * body.pageSize, limit: body.pageSize });
  const replies = await repliesOf(edb, roots.map((r) => r.id));
  const { roots: total, all } = await countComments(edb, schemaCode, body.objectId);
  const authorOf = new Map([...roots, ...replies].map((r) => [r.id, r.author_name ?? '']));
  const byRoot = new Map<string, CommentRow[]>();
  for (const reply of replies) byRoot.set(reply.root_id!, [...(byRoot.get(reply.root_id!) ?? []), reply]);
  const list = roots.map((root) => ({
    ...presentComment(form, root, ctx.userId, authorOf),
    replies: (byRoot.get(root.id) ?? []).map((r) => presentComment(form, r, ctx.userId, authorOf)),
  }));
  return { list, total, hasMore: (body.pageIndex + 1) * body.pageSize < total, count: all };
}

export async function countRecordComments(ctx: NodeContext, body: { schemaCode: string; objectId: string }): Promise<contracts.SnsCountResult> {
  const edb = engineOf(ctx);
  const form = await getCommentFormOrThrow(edb, ctx, body.schemaCode);
  await assertRecordExists(edb, form, body.objectId);
  return { count: (await countComments(edb, form.node.code, body.objectId)).all };
}

interface NewComment {
  objectId: string;
  text: string;
  fileIds: string[];
  mentionIds?: string[];
  parent?: CommentRow;
}

/** Writes one comment inside the caller's transaction: its files claimed first (all or nothing). */
async function writeComment(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, input: NewComment): Promise<contracts.CommentDto> {
  const id = newId();
  const files = await claimFiles(edb, { schemaCode: form.node.code, objectId: input.objectId, controlCode: commentControlCode(id), fileIds: input.fileIds, userId: ctx.userId });
  const row = {
    id,
    schema_code: form.node.code,
    object_id: input.objectId,
    root_id: input.parent ? (input.parent.root_id ?? input.parent.id) : null,
    reply_to: input.parent?.id ?? null,
    text: input.text,
    created_by: ctx.userId,
    created_time: new Date(),
  };
  await insertComment(edb, { ...row, files });
  await tellOfComment(edb, ctx, form, input);
  const names = await userNames(edb, [ctx.userId]);
  const authorOf = new Map(input.parent ? [[input.parent.id, input.parent.author_name ?? '']] : []);
  return presentComment(form, { ...row, files, author_name: names.get(ctx.userId) ?? '' }, ctx.userId, authorOf);
}

/**
 * The message center (issue 20): a reply reaches the author it answers; a comment reaches the record's owner and
 * creator. The commenter is never told of their own comment.
 */
async function tellOfComment(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, input: NewComment): Promise<void> {
  const record = input.parent ? undefined : await findRecord(edb, form, input.objectId);
  const mentioned = new Set((input.mentionIds ?? []).filter((u) => u !== ctx.userId));
  const receivers = (input.parent ? [input.parent.created_by] : [record?.OwnerId, record?.CreatedBy].filter((u): u is string => typeof u === 'string')).filter((u) => u !== ctx.userId && !mentioned.has(u));
  const formName = form.definition.attributes.displayName;
  const link = { schemaCode: form.node.code, objectId: input.objectId };
  const author = mentioned.size ? ((await userNames(edb, [ctx.userId])).get(ctx.userId) ?? '') : '';
  await notifyEach(edb, ctx.engineCode, [
    ...[...new Set(receivers)].map((receiver) => ({ receiver, notice: { category: 'comment' as const, title: `${input.parent ? '回复了您的评论' : '评论了'}：${formName}`, content: input.text, sender: ctx.userId, link } })),
    ...[...mentioned].map((receiver) => ({ receiver, notice: { category: 'comment' as const, title: `${author}在评论中提到了您：${formName}`, content: input.text, sender: ctx.userId, link } })),
  ]);
}

/**
 * The people a comment mentions must be active members who can read the record (their own rights): a mention of
 * someone who cannot open it would send them to a page they cannot see. 777 naming each one otherwise.
 */
async function assertMentionable(edb: EngineExecutor, schemaCode: string, objectId: string, mentionIds: string[] | undefined): Promise<void> {
  if (!mentionIds?.length) return;
  const users = new Map((await edb.selectFrom('org_users').select(['id', 'auth_type', 'state']).where('id', 'in', mentionIds).execute()).map((u) => [u.id, u]));
  const issues: { path: string; message: string }[] = [];
  for (const [i, id] of mentionIds.entries()) {
    const user = users.get(id);
    if (!user || user.state !== 'active') {
      issues.push({ path: `mentionIds.${i}`, message: '该成员不存在或已停用' });
      continue;
    }
    const theirs = await runtimeFormFor(edb, await viewerOf(edb, { userId: id, authType: user.auth_type }), schemaCode).catch(() => null);
    const row = theirs ? await findRecord(edb, theirs, objectId) : undefined;
    if (!theirs || !row || !(await canReadRecord(edb, theirs, row, id))) issues.push({ path: `mentionIds.${i}`, message: '该成员无权查看这条数据' });
  }
  if (issues.length) throw parameterError(issues);
}

export async function addComment(ctx: NodeContext, body: SnsAddBody): Promise<contracts.CommentDto> {
  const form = await getCommentFormOrThrow(engineOf(ctx), ctx, body.schemaCode);
  return inTransaction(ctx, async (edb) => {
    // The record row is locked so a concurrent removal cannot leave the comment without its record.
    await assertRecordExists(edb, form, body.objectId, { forUpdate: true });
    await assertMentionable(edb, form.node.code, body.objectId, body.mentionIds);
    return writeComment(edb, ctx, form, body);
  });
}

/** comment/add: a reply. It joins the answered comment's record and thread (one level shown under the top comment). */
export async function replyToComment(ctx: NodeContext, body: SnsReplyBody): Promise<contracts.CommentDto> {
  const answered = await findComment(engineOf(ctx), body.replyTo);
  if (!answered) throw new AppError('SnsCommentNotFound', { detail: { snsId: body.replyTo } });
  const form = await getCommentFormOrThrow(engineOf(ctx), ctx, answered.schema_code);
  return inTransaction(ctx, async (edb) => {
    const parent = await findComment(edb, body.replyTo, { forUpdate: true });
    if (!parent) throw new AppError('SnsCommentNotFound', { detail: { snsId: body.replyTo } });
    await assertRecordExists(edb, form, parent.object_id, { forUpdate: true });
    await assertMentionable(edb, form.node.code, parent.object_id, body.mentionIds);
    return writeComment(edb, ctx, form, { objectId: parent.object_id, text: body.text, fileIds: body.fileIds, mentionIds: body.mentionIds, parent });
  });
}

/** The comment and every reply under it (a reply's own replies, and theirs). */
function withReplies(id: string, links: { id: string; reply_to: string | null }[]): string[] {
  const out = [id];
  for (let i = 0; i < out.length; i++) for (const link of links) if (link.reply_to === out[i]) out.push(link.id);
  return out;
}

export async function removeComment(ctx: NodeContext, query: { snsId: string }): Promise<contracts.SnsRemoveResult> {
  const found = await findComment(engineOf(ctx), query.snsId);
  if (!found) throw new AppError('SnsCommentNotFound', { detail: { snsId: query.snsId } });
  const form = await getCommentFormOrThrow(engineOf(ctx), ctx, found.schema_code);
  assertCanRemoveComment(form, found, ctx.userId);
  return inTransaction(ctx, async (edb) => {
    const comment = await findComment(edb, query.snsId, { forUpdate: true });
    if (!comment) throw new AppError('SnsCommentNotFound', { detail: { snsId: query.snsId } });
    const ids = withReplies(comment.id, await threadLinks(edb, comment.root_id ?? comment.id));
    // The foreign keys cascade too; deleting the ids named keeps the count exact.
    return { removed: await deleteComments(edb, ids) };
  });
}
